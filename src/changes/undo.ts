import { sql } from 'kysely';
import { messages } from '../catalogue/messages.js';
import { conflict, notFound, Refusal } from '../catalogue/refusal.js';
import { lockRow } from '../db/dialect.js';
import type { Db } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import type { AnyResource } from '../resources/define.js';
import { imagenes, loggedResources as resources } from '../resources/index.js';
import { removeImage, restoreImage } from '../resources/imageWrites.js';
import type { Quien } from '../resources/changeLog.js';
import { createRecord, removeRecord, replaceRecord } from '../resources/writes.js';
import { changesWhere, type ChangeRow } from './read.js';

/**
 * Undoes change `id`, all or nothing, as changes of its own (each with `deshace: id`): an `alta`
 * deletes the record (and what that cascades to), a `modificacion` puts back `antes`, a `baja`
 * creates the record again with its key, with every participation, showtime and image that deletion took along.
 * Only while the record is as the change left it; otherwise a conflict Refusal saying why.
 */
export async function undoChange(db: Db, id: number, quien: Quien): Promise<ChangeRow[]> {
  return inTransaction(db, async (trx) => {
    const [change] = await changesWhere(trx, sql`id = ${id}`);
    if (!change) throw notFound(messages.changes.notFound(id));
    const resource = resourceOf(change);
    const context = { quien, deshace: id };
    const { max } = await trx.selectFrom('cambios').select((eb) => eb.fn.max('id').as('max')).executeTakeFirstOrThrow();
    await lockRow(trx, resource.table, resource.key.name, change.clave);
    const current = await resource.queries(trx).get(change.clave);
    const stored = current === undefined ? null : resource.representation(current);
    const n = resource.nouns;
    // A change undone before is not as it left things: that, not what differs, is the reason.
    const conflictOf = async (sentence: string) => conflict((await alreadyUndone(trx, change)) ?? sentence);
    if (change.operacion === 'baja') {
      if (stored !== null) throw await conflictOf(messages.changes.keyTaken(n, change.clave, id));
      const record = JSON.parse(change.antes ?? '{}') as Record<string, unknown>;
      // An image comes back at its place, moving the others along (a record's images come back with it, each at its own).
      await refusalsAsConflict(id, () => (resource === imagenes ? inTransaction(trx, (t) => restoreImage(t, record, context)) : createRecord(trx, resource, record, context)));
      for (const cascaded of await changesWhere(trx, sql`causa = ${id}`)) {
        const record = JSON.parse(cascaded.antes ?? '{}') as Record<string, unknown>;
        const dependent = resourceOf(cascaded);
        if (await dependent.queries(trx).get(cascaded.clave)) throw conflict(messages.changes.keyTaken(dependent.nouns, cascaded.clave, id));
        await refusalsAsConflict(id, () => createRecord(trx, dependent, record, context));
      }
    } else {
      if (stored === null) throw await conflictOf(messages.changes.goneSince(n, change.clave, id));
      if (stored !== change.despues) throw await conflictOf(messages.changes.changedSince(n, change.clave, id));
      if (change.operacion === 'alta') {
        await refusalsAsConflict(id, () => (resource === imagenes ? removeImage(trx, change.clave, context) : removeRecord(trx, resource, change.clave, context)));
      }
      else await refusalsAsConflict(id, () => replaceRecord(trx, resource, change.clave, JSON.parse(change.antes ?? '{}') as Record<string, unknown>, context));
    }
    return changesWhere(trx, sql`deshace = ${id} and id > ${max ?? 0}`);
  });
}

/** The sentence for a change already undone, by the latest undo of its record that was not undone in turn. */
async function alreadyUndone(trx: Db, change: ChangeRow): Promise<string | undefined> {
  const undo = (await changesWhere(trx, sql`deshace = ${change.id} and recurso = ${change.recurso} and clave = ${change.clave}`)).at(-1);
  if (!undo || (await changesWhere(trx, sql`deshace = ${undo.id}`, 1)).length > 0) return undefined;
  return messages.changes.alreadyUndone(change.id, undo.id);
}

/** The resource a change is of, by its exact path name (`recurso`). */
function resourceOf(change: ChangeRow): AnyResource {
  const resource = resources.find((r) => r.name === change.recurso);
  if (!resource) throw new Error(`a change of an unknown resource: ${change.recurso}`);
  return resource;
}

/** A write the store's rules refuse (a title now taken, a category gone or still in use) is a conflict for an undo. */
async function refusalsAsConflict<T>(id: number, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof Refusal) throw conflict(messages.changes.refused(id, error.details));
    throw error;
  }
}
