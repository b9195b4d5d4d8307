import { comparable } from '../catalogue/comparable.js';
import { insertReturning, updateReturning } from '../db/prepared.js';
import { defineResource } from './define.js';
import { Id, Title } from '../catalogue/fields.js';
import { labelsOfResource } from '../catalogue/labels.js';
import { messages } from '../catalogue/messages.js';

export const categorias = defineResource({
  name: 'categorias',
  table: 'categorias',
  english: 'category',
  nouns: {
    the: 'la categoría',
    a: 'una categoría',
    lookupBy: 'el nombre',
    idBy: 'id',
    duplicateBy: 'el nombre',
    deleted: ['la categoría', 'eliminada'],
    failed: { create: 'una nueva categoria', update: 'la categoria', remove: 'la categoria' },
  },
  key: { name: 'id', schema: Id, chosenByClient: false },
  fields: { nombre: Title },
  lookup: { param: 'nombre', schema: Title },
  example: { id: 1, nombre: 'Drama' },
  location: (c) => `/categorias/${encodeURIComponent(c.nombre)}`,
  unique: ['nombre'],
  queries: (db) => ({
    get: (id) => db.selectFrom('categorias').selectAll().where('id', '=', id).executeTakeFirst(),
    find: (nombre) =>
      db.selectFrom('categorias').selectAll().where('nombre_clave', '=', comparable(nombre)).executeTakeFirst(),
    create: (c) =>
      insertReturning(db, 'categorias', c),
    update: (id, c) =>
      updateReturning(db, 'categorias', 'id', id, c),
    // Movies, works and events restrict the delete of a category they use (foreign keys).
    remove: async (id) => (await db.deleteFrom('categorias').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n,
    stillUsed: async (id) => {
      const { nombre } = await db.selectFrom('categorias').select('nombre').where('id', '=', id).executeTakeFirstOrThrow();
      const users = [['peliculas', 'peliculas'], ['obras', 'Obras'], ['eventos_urbanos', 'eventosUrbanos']] as const;
      const uses = await Promise.all(
        users.map(async ([table, name]): Promise<[readonly [string, string], number]> => {
          const { n } = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('categoria_id', '=', id).executeTakeFirstOrThrow();
          return [labelsOfResource(name), Number(n)];
        }),
      );
      return messages.categoryInUse(nombre, uses);
    },
  }),
});

