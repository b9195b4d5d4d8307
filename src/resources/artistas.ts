import { insertReturning, updateReturning } from '../db/prepared.js';
import { defineResource } from './define.js';
import { Dni, LongText, ShortText } from '../catalogue/fields.js';

export const artistas = defineResource({
  name: 'artistas',
  table: 'artistas',
  english: 'artist',
  nouns: {
    the: 'el artista',
    a: 'un artista',
    lookupBy: 'el dni',
    idBy: 'el dni',
    duplicateBy: 'el dni',
    deleted: ['el artista', 'eliminado'],
    failed: { create: 'un nuevo artista', update: 'el artista', remove: 'el artista' },
  },
  // The client supplies the dni; it is the key and never changes.
  key: { name: 'dni', schema: Dni, chosenByClient: true },
  fields: { nombre: ShortText, apellido: ShortText, tipo: ShortText, descripcion: LongText },
  lookup: { param: 'dni', schema: Dni },
  example: { dni: 20111222, nombre: 'Alfonso', apellido: 'Cuarón', tipo: 'director', descripcion: 'Director mexicano nacido en 1961.' },
  location: (a) => `/artistas/${a.dni}`,
  images: true,
  unique: ['dni'],
  // A participation's sheet shows its artist as "Ricardo Darín (DNI 27444555)"; an import also takes the name alone.
  knownAs: (a) => [`${String(a.nombre)} ${String(a.apellido)} (DNI ${String(a.dni)})`, `${String(a.nombre)} ${String(a.apellido)}`],
  queries: (db) => ({
    get: (dni) => db.selectFrom('artistas').selectAll().where('dni', '=', dni).executeTakeFirst(),
    find: (dni) => db.selectFrom('artistas').selectAll().where('dni', '=', dni).executeTakeFirst(),
    create: (a) => insertReturning(db, 'artistas', a),
    update: (dni, a) => updateReturning(db, 'artistas', 'dni', dni, a),
    // The artist's participations go with it (ON DELETE CASCADE).
    remove: async (dni) => (await db.deleteFrom('artistas').where('dni', '=', dni).executeTakeFirst()).numDeletedRows > 0n,
  }),
});
