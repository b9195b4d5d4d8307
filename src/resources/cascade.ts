import type { Db } from '../db/schema.js';
import { artistas } from './artistas.js';
import type { AnyResource } from './define.js';
import { itemResources } from './items.js';

type Row = Record<string, unknown>;

/**
 * The participations that deleting `resource`'s record `key` takes with it (the store's ON DELETE
 * CASCADE): an artist's, or a movie's, work's or event's. Read before the delete, for the log.
 */
export async function dependentsOf(db: Db, resource: AnyResource, key: number): Promise<Row[]> {
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
