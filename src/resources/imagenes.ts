import { Type } from 'typebox';
import { Alt, Count, Credito, Foco, Id, Orden, ShortText, TipoImagen } from '../catalogue/fields.js';
import { insertReturning, updateReturning } from '../db/prepared.js';
import { artistas } from './artistas.js';
import { defineResource, type AnyResource } from './define.js';
import { eventosUrbanos } from './eventosUrbanos.js';
import { lugares } from './lugares.js';
import { obras } from './obras.js';
import { peliculas } from './peliculas.js';

/** The resources whose declaration says they have images (`images: true`). */
export const withImages: readonly AnyResource[] = [peliculas, obras, eventosUrbanos, artistas, lugares].filter((r) => r.images);

/** The path name of each resource with images, as `recurso` takes it. */
export const Recurso = Type.Enum(withImages.map((r) => r.name) as [string, ...string[]]);

export const imagenes = defineResource({
  name: 'imagenes',
  table: 'imagenes',
  english: 'image',
  nouns: {
    the: 'la imagen',
    a: 'una imagen',
    lookupBy: 'id',
    idBy: 'id',
    duplicateBy: 'el id',
    deleted: ['la imagen', 'eliminada'],
    failed: { create: 'una nueva imagen', update: 'la imagen', remove: 'la imagen' },
  },
  key: { name: 'id', schema: Id, chosenByClient: false },
  fields: {
    recurso: Recurso,
    clave: Count,
    alt: Alt,
    credito: Credito,
    foco_x: Foco,
    foco_y: Foco,
    orden: Orden,
    ancho: Count,
    alto: Count,
    tipo: TipoImagen,
    bytes: Count,
    url: ShortText,
  },
  readOnly: ['ancho', 'alto', 'tipo', 'bytes', 'url'],
  file: 'archivo_base64',
  lookup: { param: 'id', schema: Id },
  example: {
    id: 1, recurso: 'peliculas', clave: 1, alt: 'Afiche de Roma: Cleo abraza a los niños en la playa.', credito: 'Netflix',
    foco_x: 50, foco_y: 40, orden: 1, ancho: 1400, alto: 2100, tipo: 'image/jpeg', bytes: 412345, url: '/imagenes/1/archivo',
  },
  location: (i) => `/imagenes/${i.id}`,
  references: { clave: { to: (i) => withImages.find((r) => r.name === i.recurso) } },
  unique: ['id'],
  queries: (db) => ({
    get: (id) => db.selectFrom('imagenes').selectAll().where('id', '=', id).executeTakeFirst(),
    find: (id) => db.selectFrom('imagenes').selectAll().where('id', '=', id).executeTakeFirst(),
    // The store sets `url` (migration 0009); SQLite's trigger runs after the insert, so the row is read back.
    create: async ({ url: _url, ...i }) => {
      const { id } = await insertReturning(db, 'imagenes', i);
      return db.selectFrom('imagenes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    },
    update: (id, { url: _url, ...i }) => updateReturning(db, 'imagenes', 'id', id, i),
    remove: async (id) => (await db.deleteFrom('imagenes').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n,
  }),
});
