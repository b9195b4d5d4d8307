import { comparable } from '../catalogue/comparable.js';
import { insertReturning, updateReturning } from '../db/prepared.js';
import { defineResource } from './define.js';
import { Duracion, Id, LongText, Title } from '../catalogue/fields.js';
import { categorias } from './categorias.js';

export const peliculas = defineResource({
  name: 'peliculas',
  table: 'peliculas',
  english: 'movie',
  nouns: {
    the: 'la película',
    a: 'una película',
    lookupBy: 'el título',
    idBy: 'id',
    duplicateBy: 'el titulo de',
    deleted: ['la pelicula', 'eliminada'],
    // The spec's own wording, verbatim: the create and delete failures say "categoria".
    failed: { create: 'una pelicula categoria', update: 'la pelicula', remove: 'la categoria' },
  },
  key: { name: 'id', schema: Id, chosenByClient: false },
  fields: { titulo: Title, sipnosis: LongText, duracion: Duracion, categoria_id: Id },
  lookup: { param: 'titulo', schema: Title },
  example: { id: 1, titulo: 'Roma', sipnosis: 'Ciudad de México, 1970: la vida de Cleo, empleada doméstica de una familia de clase media.', duracion: 135, categoria_id: 1 },
  location: (p) => `/peliculas/${encodeURIComponent(p.titulo)}`,
  references: { categoria_id: { to: () => categorias, byLookup: 'categoria' } },
  images: true,
  unique: ['titulo'],
  queries: (db) => ({
    get: (id) => db.selectFrom('peliculas').selectAll().where('id', '=', id).executeTakeFirst(),
    find: (titulo) =>
      db.selectFrom('peliculas').selectAll().where('titulo_clave', '=', comparable(titulo)).executeTakeFirst(),
    create: (p) =>
      insertReturning(db, 'peliculas', p),
    update: (id, p) =>
      updateReturning(db, 'peliculas', 'id', id, p),
    // Participations in the movie go with it (ON DELETE CASCADE).
    remove: async (id) => (await db.deleteFrom('peliculas').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n,
  }),
});
