import type { Db } from '../db/schema.js';
import { artistas } from './artistas.js';
import type { AnyResource } from './define.js';
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
 * What deleting `resource`'s record `key` takes with it: its participations (the store's ON DELETE
 * CASCADE) and its images. Read before the delete, for the log.
 */
export async function dependentsOf(db: Db, resource: AnyResource, key: number): Promise<Dependent[]> {
  const images = resource.images
    ? await db.selectFrom('imagenes').selectAll().where('recurso', '=', resource.name).where('clave', '=', key).orderBy('orden').execute()
    : [];
  return [
    ...(await participationsOf(db, resource, key)).map((row) => ({ resource: participaciones as AnyResource, row })),
    ...images.map((row) => ({ resource: imagenes as AnyResource, row })),
  ];
}

/** Deletes the images of `resource`'s record `key` (no foreign key can name a record of any of several tables). */
export async function removeImagesOf(db: Db, resource: AnyResource, key: number): Promise<void> {
  if (resource.images) await db.deleteFrom('imagenes').where('recurso', '=', resource.name).where('clave', '=', key).execute();
}

async function participationsOf(db: Db, resource: AnyResource, key: number): Promise<Row[]> {
  if (resource === artistas) {
    return db.selectFrom('participaciones').selectAll().where('artistas_dni', '=', key).orderBy('id').execute();
  }
  const tipo = Object.entries(itemResources).find(([, item]) => item === resource)?.[0];
  if (tipo === undefined) return [];
  return db
    .selectFrom('participaciones')
    .selectAll()
    .where('tipo_evento', '=', tipo as keyof typeof itemResources)
    .where('evento_id', '=', key)
    .orderBy('id')
    .execute();
}
