import { Type } from 'typebox';
import { comparable } from '../catalogue/comparable.js';
import { Accesible, Id, Latitud, Longitud, ShortText, Title, Url } from '../catalogue/fields.js';
import { labelsOfResource } from '../catalogue/labels.js';
import { messages } from '../catalogue/messages.js';
import { insertReturning, updateReturning } from '../db/prepared.js';
import { defineResource } from './define.js';

export const lugares = defineResource({
  name: 'lugares',
  table: 'lugares',
  english: 'venue',
  nouns: {
    the: 'el lugar',
    a: 'un lugar',
    lookupBy: 'el nombre',
    idBy: 'id',
    duplicateBy: 'el nombre',
    deleted: ['el lugar', 'eliminado'],
    failed: { create: 'un nuevo lugar', update: 'el lugar', remove: 'el lugar' },
  },
  key: { name: 'id', schema: Id, chosenByClient: false },
  fields: {
    nombre: Title,
    direccion: ShortText,
    latitud: Type.Optional(Latitud),
    longitud: Type.Optional(Longitud),
    accesible: Type.Optional(Accesible),
    url: Type.Optional(Url),
  },
  lookup: { param: 'nombre', schema: Title },
  example: { id: 1, nombre: 'Teatro Colón', direccion: 'Cerrito 628, Buenos Aires', latitud: -34.601066, longitud: -58.383217, accesible: true, url: 'https://teatrocolon.org.ar' },
  location: (l) => `/lugares/${encodeURIComponent(l.nombre)}`,
  coordinates: 'own',
  images: true,
  unique: ['nombre'],
  rules: (l) => ((l.latitud ?? null) === null) === ((l.longitud ?? null) === null) ? [] : [{ field: 'latitud', sentence: messages.coordinatesTogether }],
  queries: (db) => ({
    get: (id) => db.selectFrom('lugares').selectAll().where('id', '=', id).executeTakeFirst(),
    find: (nombre) => db.selectFrom('lugares').selectAll().where('nombre_clave', '=', comparable(nombre)).executeTakeFirst(),
    create: (l) => insertReturning(db, 'lugares', l),
    update: (id, l) => updateReturning(db, 'lugares', 'id', id, l),
    // Showtimes restrict the delete of a venue they take place at (a foreign key).
    remove: async (id) => (await db.deleteFrom('lugares').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n,
    stillUsed: async (id) => {
      const { nombre } = await db.selectFrom('lugares').select('nombre').where('id', '=', id).executeTakeFirstOrThrow();
      const { n } = await db.selectFrom('funciones').select((eb) => eb.fn.countAll<number>().as('n')).where('lugar_id', '=', id).executeTakeFirstOrThrow();
      return messages.venueInUse(nombre, Number(n), labelsOfResource('funciones'));
    },
  }),
});
