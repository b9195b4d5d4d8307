import { Dni, Id, TipoEvento, type TipoEvento as Tipo } from '../catalogue/fields.js';
import { messages } from '../catalogue/messages.js';
import type { Db } from '../db/schema.js';
import { artistas } from './artistas.js';
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
  uniqueValue: (p) => `${p.artistas_dni}, ${p.tipo_evento}, ${p.evento_id}`,
  store: (db) => ({
    get: (id) => db.selectFrom('participaciones').selectAll().where('id', '=', id).executeTakeFirst(),
    find: (tipo) =>
      db.selectFrom('participaciones').selectAll().where('tipo_evento', '=', tipo).orderBy('id').limit(1).executeTakeFirst(),
    create: (p) => db.insertInto('participaciones').values(p).returningAll().executeTakeFirstOrThrow(),
    update: (id, p) => db.updateTable('participaciones').set(p).where('id', '=', id).returningAll().executeTakeFirst(),
    remove: async (id) => (await db.deleteFrom('participaciones').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n,
    missingReferences: async (p) => [
      ...((await artistExists(db, p.artistas_dni)) ? [] : [messages.missingReference(artistas.nouns, p.artistas_dni)]),
      ...((await itemExists(db, p.tipo_evento, p.evento_id)) ? [] : [messages.missingReference(items[p.tipo_evento].nouns, p.evento_id)]),
    ],
  }),
});

async function artistExists(db: Db, dni: number): Promise<boolean> {
  return (await db.selectFrom('artistas').select('dni').where('dni', '=', dni).executeTakeFirst()) !== undefined;
}

async function itemExists(db: Db, tipo: Tipo, id: number): Promise<boolean> {
  const { table } = items[tipo];
  return (await db.selectFrom(table as 'peliculas' | 'obras' | 'eventos_urbanos').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}
