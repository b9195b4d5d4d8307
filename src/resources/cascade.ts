import type { Db } from '../db/schema.js';
import { artistas } from './artistas.js';
import type { AnyResource } from './define.js';
import { funciones } from './funciones.js';
import { imagenes } from './imagenes.js';
import { itemResources } from './items.js';
import { participaciones } from './participaciones.js';

type Row = Record<string, unknown>;

/** A record that deleting another takes with it, and its resource. */
export interface Dependent {
  resource: AnyResource;
  row: Row;
}

/**
 * What deleting `resource`'s record `key` takes with it: an artist's participations, or a movie's,
 * work's or event's participations and showtimes (the store's ON DELETE CASCADE), and the record's
 * images. Read before the delete, for the log.
 */
export async function dependentsOf(db: Db, resource: AnyResource, key: number): Promise<Dependent[]> {
  const images = resource.images
    ? await db.selectFrom('imagenes').selectAll().where('recurso', '=', resource.name).where('clave', '=', key).orderBy('orden').execute()
    : [];
  return [...(await referringTo(db, resource, key)), ...images.map((row) => ({ resource: imagenes as AnyResource, row }))];
}

/** Deletes the images of `resource`'s record `key` (no foreign key can name a record of any of several tables). */
export async function removeImagesOf(db: Db, resource: AnyResource, key: number): Promise<void> {
  if (resource.images) await db.deleteFrom('imagenes').where('recurso', '=', resource.name).where('clave', '=', key).execute();
}

/** The records whose foreign keys name `resource`'s record `key`: participations and showtimes. */
async function referringTo(db: Db, resource: AnyResource, key: number): Promise<Dependent[]> {
  const of = (dependent: AnyResource) => (rows: Row[]) => rows.map((row) => ({ resource: dependent, row }));
  if (resource === artistas) {
    return db.selectFrom('participaciones').selectAll().where('artistas_dni', '=', key).orderBy('id').execute().then(of(participaciones));
  }
  const tipo = Object.entries(itemResources).find(([, item]) => item === resource)?.[0] as keyof typeof itemResources | undefined;
  if (tipo === undefined) return [];
  const [taking, showtimes] = await Promise.all([
    db.selectFrom('participaciones').selectAll().where('tipo_evento', '=', tipo).where('evento_id', '=', key).orderBy('id').execute(),
    db.selectFrom('funciones').selectAll().where('tipo_evento', '=', tipo).where('evento_id', '=', key).orderBy('id').execute(),
  ]);
  return [...of(participaciones)(taking), ...of(funciones)(showtimes)];
}
