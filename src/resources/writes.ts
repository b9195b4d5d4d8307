import { messages } from '../catalogue/messages.js';
import { invalid, notFound } from '../catalogue/refusal.js';
import { lockedRow } from '../db/dialect.js';
import { violationOf } from '../db/errors.js';
import type { Db } from '../db/schema.js';
import { inTransaction, refusable } from '../db/transaction.js';
import { dependentsOf, removeImagesOf } from './cascade.js';
import { recordChange, type ChangeContext } from './changeLog.js';
import type { AnyResource } from './define.js';

/**
 * The catalogue's write rules, the same for every way in (the HTTP routes, the command line,
 * tests): each takes the database, or a transaction, first. The store's own integrity refusals
 * (unique keys, references, checks) become the contract's Spanish sentences here, as Refusals.
 * Caches need no telling: the store counts its own writes (see cache/versions.ts). Every write
 * stores its changes in the change log in its own transaction (changeLog.ts), with `context`:
 * who wrote, and for an undo, what it undoes.
 */

/**
 * Checks the record as it stands (as the API answers it; undefined when there is none) before a
 * write, inside the write's transaction; throws to refuse the write (an HTTP If-Match, say).
 */
export type Precondition = (current: string | undefined) => void;

type Row = Record<string, unknown>;

/** Stores a new record (validated against `schemas.create`, or `schemas.restore` to keep its key). */
export async function createRecord(
  db: Db, resource: AnyResource, input: Row, context: ChangeContext,
): Promise<Row> {
  return inTransaction(db, (trx) =>
    guarded(trx, resource, input, async () => {
      const created = await resource.queries(trx).create(input);
      await recordCreated(trx, resource, created, context);
      return created;
    }));
}

/** Logs the creation of `created`, just stored in transaction `trx` (an import stores many at once); answers its key. */
export async function recordCreated(trx: Db, resource: AnyResource, created: Row, context: ChangeContext): Promise<number> {
  const key = created[resource.key.name] as number;
  await recordChange(trx, resource, key, null, resource.representation(created), context);
  return key;
}

/** Replaces a record's fields (PUT); undefined when there is no such record. */
export async function replaceRecord(
  db: Db, resource: AnyResource, key: number, body: Row, context: ChangeContext, precondition?: Precondition,
): Promise<Row | undefined> {
  const given = withoutKey(resource, body, key);
  return inTransactionOn(db, resource, key, precondition, (trx, queries, current) =>
    guarded(trx, resource, body, async () => {
      if (!current) return undefined;
      const fields = resource.whole(given);
      if (changesNothing(resource, current, fields)) return current;
      const updated = await queries.update(key, changedFields(current, fields));
      if (updated) await recordChange(trx, resource, key, resource.representation(current), resource.representation(updated), context);
      return updated;
    }));
}

/** Changes some fields (a JSON merge patch, RFC 7396), keeping the rest; undefined when there is no such record. */
export async function patchRecord(
  db: Db, resource: AnyResource, key: number, patch: Row, context: ChangeContext, precondition?: Precondition,
): Promise<Row | undefined> {
  const changes = withoutKey(resource, patch, key);
  return inTransactionOn(db, resource, key, precondition, (trx, queries, current) =>
    guarded(trx, resource, changes, async () => {
      if (!current) return undefined;
      const merged = resource.whole({ ...pick(current, resource.fieldNames), ...changes });
      if (changesNothing(resource, current, merged)) return current;
      const updated = await queries.update(key, changedFields(current, merged)).catch((error: unknown) => {
        throw violationOf(error) ? new RefusedRow(error, merged) : error;
      });
      if (updated) await recordChange(trx, resource, key, resource.representation(current), resource.representation(updated), context);
      return updated;
    }));
}

/**
 * Deletes a record, and what cascades from it (its participations, showtimes and images), logging each: the
 * record's `baja`, then one for each of those, whose `causa` is the record's. False when there was none.
 */
export async function removeRecord(
  db: Db, resource: AnyResource, key: number, context: ChangeContext, precondition?: Precondition,
): Promise<boolean> {
  return inTransactionOn(db, resource, key, precondition, async (trx, queries, current) => {
    if (!current) return false;
    return refusable(trx, async () => {
      const dependents = await dependentsOf(trx, resource, key);
      await removeImagesOf(trx, resource, key);
      if (!(await queries.remove(key))) return false;
      const baja = await recordChange(trx, resource, key, resource.representation(current), null, context);
      for (const { resource: dependent, row } of dependents) {
        await recordChange(trx, dependent, row[dependent.key.name] as number, dependent.representation(row), null, { ...context, causa: baja });
      }
      return true;
    }, async (error, store) => {
      const { stillUsed } = resource.queries(store);
      if (violationOf(error) !== 'foreign_key' || !stillUsed) throw error;
      throw invalid(await stillUsed(key));
    });
  });
}

/**
 * Whether storing `fields` over the record `current` would change nothing the API shows: such a
 * write stores nothing, logs nothing, and leaves the caches be.
 */
export function changesNothing(resource: AnyResource, current: Row, fields: Row): boolean {
  return resource.representation({ ...current, ...fields }) === resource.representation(current);
}

/**
 * Of `fields`, those whose value is not the record's `current` one: what an update sets. SQLite
 * rewrites every index on a column an UPDATE sets, to its own value too; setting only what changed
 * leaves the others (a movie's title and its comparable form, say) and their pages untouched.
 */
function changedFields(current: Row, fields: Row): Row {
  return Object.fromEntries(Object.entries(fields).filter(([name, value]) => value !== current[name]));
}

/** The record with this key, or a not-found Refusal naming it. */
export function found<T>(resource: AnyResource, key: number, record: T | undefined): T {
  if (record === undefined) throw notFound(messages.notFoundById(resource.nouns, key));
  return record;
}

/** Runs `write` in a transaction holding the record, after `precondition` accepted it as it stands. */
function inTransactionOn<T>(
  db: Db,
  resource: AnyResource,
  key: number,
  precondition: Precondition | undefined,
  write: (trx: Db, queries: ReturnType<AnyResource['queries']>, current: Row | undefined) => Promise<T>,
): Promise<T> {
  return inTransaction(db, async (trx) => {
    const queries = resource.queries(trx);
    // What queries.get answers (every resource's is the row by its key), read and locked at once.
    const current = await lockedRow(trx, resource.table, resource.key.name, key);
    precondition?.(current && resource.representation(current));
    return write(trx, queries, current);
  });
}

/** A store's refusal of a row made inside the write's transaction: the row, for the sentence. */
class RefusedRow extends Error {
  constructor(readonly refusal: unknown, readonly row: Row) {
    super('the store refused the row', { cause: refusal });
  }
}

/**
 * Runs a write in transaction `trx`, turning the store's integrity refusals into the contract's
 * sentences, which name the values of `body`, or of the row a RefusedRow carries. What a missing
 * reference names is asked in the same transaction when the write shares it (group commit,
 * db/transaction.ts), as the store stood before the write: the writes committed with it cannot
 * change the answer; else once the write's own transaction is rolled back (refusable).
 */
function guarded<T>(
  trx: Db, resource: AnyResource, body: Row, write: () => Promise<T>,
): Promise<T> {
  return refusable(trx, write, async (thrown, store) => {
    const [error, row] = thrown instanceof RefusedRow ? [thrown.refusal, thrown.row] : [thrown, body];
    switch (violationOf(error)) {
      case 'unique':
        throw invalid(messages.duplicate(resource.nouns, resource.uniqueValue(row)));
      case 'foreign_key': {
        const missing = await missingReferences(store, resource, row);
        throw invalid(missing.join(' ') || messages.brokenReference);
      }
      case 'check':
        throw invalid(messages.badRequest);
      default:
        throw error;
    }
  });
}

/** A sentence for each record the body names that does not exist. */
export async function missingReferences(db: Db, resource: AnyResource, body: Row): Promise<string[]> {
  const missing: string[] = [];
  for (const [field, reference] of Object.entries(resource.references ?? {})) {
    const target = reference.to(body);
    const value = body[field];
    if (target && typeof value === 'number' && !(await target.queries(db).get(value))) missing.push(messages.missingReference(target.nouns, value));
  }
  return missing;
}

/** The body without its key, which must name the same record as the path (or be absent). */
function withoutKey(resource: AnyResource, body: Row, key: number): Row {
  const { [resource.key.name]: bodyKey, ...rest } = body;
  if (bodyKey !== undefined && bodyKey !== key) throw invalid(messages.keyMismatch(resource.key.name, bodyKey, key), resource.key.name);
  return rest;
}

function pick(record: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, record[name]]));
}
