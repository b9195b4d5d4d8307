import { normalizeKey } from '../db/keys.js';
import { defineResource } from '../http/crud.js';
import { Duracion, Id, LongText, ShortText } from '../http/fields.js';
import { missingCategoria } from './references.js';

export const obras = defineResource({
  path: '/Obras',
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
  fields: { titulo: ShortText, descripcion: LongText, duracion: Duracion, categoria_id: Id },
  lookup: { param: 'titulo', schema: ShortText },
  location: (o) => `/Obras/${encodeURIComponent(o.titulo)}`,
  uniqueValue: (o) => o.titulo,
  store: (db) => ({
    list: () => db.selectFrom('obras').selectAll().orderBy('id').execute(),
    find: (titulo) =>
      db.selectFrom('obras').selectAll().where('titulo_clave', '=', normalizeKey(titulo)).executeTakeFirst(),
    create: (o) =>
      db.insertInto('obras').values({ ...o, titulo_clave: normalizeKey(o.titulo) }).returningAll().executeTakeFirstOrThrow(),
    update: (id, o) =>
      db.updateTable('obras').set({ ...o, titulo_clave: normalizeKey(o.titulo) }).where('id', '=', id).returningAll().executeTakeFirst(),
    // Participations in the work go with it (ON DELETE CASCADE).
    remove: async (id) => (await db.deleteFrom('obras').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n,
    missingReferences: (o) => missingCategoria(db, o.categoria_id),
  }),
});
