import { Dni, Id, TipoEvento, type TipoEvento as Tipo } from '../catalogue/fields.js';
import { artistas } from './artistas.js';
import { insertReturning, updateReturning } from '../db/prepared.js';
import { defineResource } from './define.js';
import { itemResources as items } from './items.js';

export const participaciones = defineResource({
  name: 'participaciones',
  table: 'participaciones',
  english: 'participation',
  nouns: {
    the: 'la participación',
    a: 'una participación',
    lookupBy: 'el tipo de evento',
    idBy: 'id',
    duplicateBy: 'el artista, tipo de evento e id de evento',
    deleted: ['la participación', 'eliminada'],
    failed: { create: 'una nueva participacion', update: 'la participacion', remove: 'la participacion' },
  },
  key: { name: 'id', schema: Id, chosenByClient: false },
  fields: { artistas_dni: Dni, tipo_evento: TipoEvento, evento_id: Id },
  // GET /participaciones/{tipo_evento} answers the lowest-id participation of that kind.
  lookup: { param: 'tipo_evento', schema: TipoEvento },
  example: { id: 1, artistas_dni: 20111222, tipo_evento: 'pelicula', evento_id: 1 },
  location: (p) => `/participaciones?id=${p.id}`,
  references: {
    artistas_dni: { to: () => artistas, byLookup: 'artista' },
    evento_id: { to: (p) => items[p.tipo_evento as Tipo], byLookup: 'evento' },
  },
  unique: ['artistas_dni', 'tipo_evento', 'evento_id'],
  queries: (db) => ({
    get: (id) => db.selectFrom('participaciones').selectAll().where('id', '=', id).executeTakeFirst(),
    find: (tipo) =>
      db.selectFrom('participaciones').selectAll().where('tipo_evento', '=', tipo).orderBy('id').limit(1).executeTakeFirst(),
    create: (p) => insertReturning(db, 'participaciones', p),
    update: (id, p) => updateReturning(db, 'participaciones', 'id', id, p),
    remove: async (id) => (await db.deleteFrom('participaciones').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n,
  }),
});

