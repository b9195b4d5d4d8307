import { comparable } from '../catalogue/comparable.js';
import { insertReturning, updateReturning } from '../db/prepared.js';
import { defineResource } from './define.js';
import { Fecha, Id, LongText, ShortText, Title } from '../catalogue/fields.js';
import { categorias } from './categorias.js';

export const eventosUrbanos = defineResource({
  name: 'eventosUrbanos',
  table: 'eventos_urbanos',
  english: 'urban event',
  nouns: {
    the: 'el evento',
    a: 'un evento',
    lookupBy: 'el título',
    idBy: 'id',
    duplicateBy: 'el titulo de',
    deleted: ['el evento', 'eliminado'],
    failed: { create: 'un nuevo evento', update: 'el evento', remove: 'el evento' },
  },
  key: { name: 'id', schema: Id, chosenByClient: false },
  fields: { titulo: Title, descripcion: LongText, fecha: Fecha, lugar: ShortText, categoria_id: Id },
  lookup: { param: 'titulo', schema: Title },
  example: { id: 2, titulo: 'Milonga en la Plaza Dorrego', descripcion: 'Milonga al aire libre con orquesta típica.', fecha: '2026-09-20T00:00:00.000+00:00', lugar: 'Plaza Dorrego, San Telmo, Buenos Aires', categoria_id: 8 },
  location: (e) => `/eventosUrbanos/${encodeURIComponent(e.titulo)}`,
  references: { categoria_id: { to: () => categorias, byLookup: 'categoria' } },
  images: true,
  unique: ['titulo'],
  queries: (db) => ({
    get: (id) => db.selectFrom('eventos_urbanos').selectAll().where('id', '=', id).executeTakeFirst(),
    find: (titulo) =>
      db.selectFrom('eventos_urbanos').selectAll().where('titulo_clave', '=', comparable(titulo)).executeTakeFirst(),
    create: (e) =>
      insertReturning(db, 'eventos_urbanos', e),
    update: (id, e) =>
      updateReturning(db, 'eventos_urbanos', 'id', id, e),
    // Participations in the event go with it (ON DELETE CASCADE).
    remove: async (id) => (await db.deleteFrom('eventos_urbanos').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n,
  }),
});
