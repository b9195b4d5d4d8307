import { normalizeKey } from '../catalogue/keys.js';
import type { Db } from '../db/schema.js';
import type { AnyResource } from '../resources/define.js';

export type Operacion = 'alta' | 'modificacion' | 'baja';

/** Who writes: the write key's name, the command line's --quien, or null when writes need no key. */
export type Quien = string | null;

/** What a change says beside the record itself. */
export interface ChangeContext {
  quien: Quien;
  /** The `baja` whose deletion cascaded to this one. */
  causa?: number | null;
  /** The change an undo undid. */
  deshace?: number | null;
}

/** The record as the API answers it, as JSON text (resource.representation), or null. */
type Representation = string | null;

/**
 * Stores one change of one record, in the transaction `db` is: `antes` and `despues` as the API
 * answers the record before and after. A modification that changes no field records nothing
 * (undefined). Its id is the change's number.
 */
export async function recordChange(
  db: Db, resource: AnyResource, clave: number, antes: Representation, despues: Representation, context: ChangeContext,
): Promise<number | undefined> {
  const operacion: Operacion = antes === null ? 'alta' : despues === null ? 'baja' : 'modificacion';
  const campos = changedFields(resource, antes, despues);
  if (campos.length === 0) return undefined;
  const { id } = await db
    .insertInto('cambios')
    .values({
      recurso: resource.name,
      clave,
      operacion,
      antes,
      despues,
      campos: JSON.stringify(campos),
      quien: context.quien,
      quien_clave: context.quien === null ? null : normalizeKey(context.quien),
      cuando: new Date().toISOString().replace('Z', '+00:00'),
      causa: context.causa ?? null,
      deshace: context.deshace ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The fields whose value differs, in the resource's order (the key first); all of them for a creation or a deletion. */
export function changedFields(resource: AnyResource, antes: Representation, despues: Representation): string[] {
  const names = [resource.key.name, ...resource.fieldNames];
  if (antes === null || despues === null) return names;
  const before = JSON.parse(antes) as Record<string, unknown>;
  const after = JSON.parse(despues) as Record<string, unknown>;
  return names.filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]));
}
