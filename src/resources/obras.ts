import { comparable } from '../catalogue/comparable.js';
import { insertReturning, updateReturning } from '../db/prepared.js';
import { defineResource } from './define.js';
import { Duracion, Id, LongText, Title } from '../catalogue/fields.js';
import { categorias } from './categorias.js';

export const obras = defineResource({
  name: 'Obras',
  table: 'obras',
  english: 'theatrical work',
  nouns: {
    the: 'la obra',
    a: 'una obra',
    lookupBy: 'el título',
    idBy: 'id',
    duplicateBy: 'el titulo de',
    deleted: ['la obra', 'eliminada'],
    failed: { create: 'una nueva obra', update: 'la obra', remove: 'la obra' },
  },
  key: { name: 'id', schema: Id, chosenByClient: false },
  fields: { titulo: Title, descripcion: LongText, duracion: Duracion, categoria_id: Id },
  lookup: { param: 'titulo', schema: Title },
  example: { id: 1, titulo: 'La Celestina', descripcion: 'Tragicomedia de Calisto y Melibea de Fernando de Rojas.', duracion: 120, categoria_id: 5 },
  location: (o) => `/Obras/${encodeURIComponent(o.titulo)}`,
  references: { categoria_id: { to: () => categorias, byLookup: 'categoria' } },
  images: true,
  unique: ['titulo'],
  queries: (db) => ({
    get: (id) => db.selectFrom('obras').selectAll().where('id', '=', id).executeTakeFirst(),
    find: (titulo) =>
      db.selectFrom('obras').selectAll().where('titulo_clave', '=', comparable(titulo)).executeTakeFirst(),
    create: (o) =>
      insertReturning(db, 'obras', o),
    update: (id, o) =>
      updateReturning(db, 'obras', 'id', id, o),
    // Participations in the work go with it (ON DELETE CASCADE).
    remove: async (id) => (await db.deleteFrom('obras').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n,
  }),
});
