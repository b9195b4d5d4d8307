import { messages } from '../catalogue/messages.js';
import { invalid, notFound } from '../catalogue/refusal.js';
import { lockRow } from '../db/dialect.js';
import { violationOf } from '../db/errors.js';
import type { Db } from '../db/schema.js';
import type { AnyResource } from './define.js';

/**
 * The catalogue's write rules, the same for every way in (the HTTP routes, the command line,
 * tests): each takes the database, or a transaction, first. The store's own integrity refusals
 * (unique keys, references, checks) become the contract's Spanish sentences here, as Refusals.
 * Caches need no telling: the store counts its own writes (see cache/versions.ts).
 */

/**
 * Checks the record as it stands (as the API answers it; undefined when there is none) before a
 * write, inside the write's transaction; throws to refuse the write (an HTTP If-Match, say).
 */
export type Precondition = (current: string | undefined) => void;

type Row = Record<string, unknown>;

/** Stores a new record (validated against `schemas.create`, or `schemas.restore` to keep its key). */
export async function createRecord(
  db: Db, resource: AnyResource, input: Row,
): Promise<Row> {
  return guarded(db, resource, input, () => resource.queries(db).create(input));
}

/** Replaces a record's fields (PUT); undefined when there is no such record. */
export async function replaceRecord(
  db: Db, resource: AnyResource, key: number, body: Row, precondition?: Precondition,
): Promise<Row | undefined> {
  const fields = withoutKey(resource, body, key);
  return guarded(db, resource, body, () =>
    precondition
      ? inTransactionOn(db, resource, key, precondition, (queries) => queries.update(key, fields))
      : resource.queries(db).update(key, fields));
}

/** Changes some fields (a JSON merge patch, RFC 7396), keeping the rest; undefined when there is no such record. */
export async function patchRecord(
  db: Db, resource: AnyResource, key: number, patch: Row, precondition?: Precondition,
): Promise<Row | undefined> {
  const changes = withoutKey(resource, patch, key);
  return guarded(db, resource, changes, () =>
    inTransactionOn(db, resource, key, precondition, async (queries, current) => {
      if (!current) return undefined;
      const merged = { ...pick(current, resource.fieldNames), ...changes };
      return queries.update(key, merged).catch((error: unknown) => {
        throw new RefusedRow(error, merged);
      });
    }));
}

/** Deletes a record, and what cascades from it; false when there was none. */
export async function removeRecord(
  db: Db, resource: AnyResource, key: number, precondition?: Precondition,
): Promise<boolean> {
  try {
    return await (precondition
      ? inTransactionOn(db, resource, key, precondition, (queries) => queries.remove(key))
      : resource.queries(db).remove(key));
  } catch (error) {
    const { stillUsed } = resource.queries(db);
    if (violationOf(error) !== 'foreign_key' || !stillUsed) throw error;
    throw invalid(await stillUsed(key));
  }
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
  write: (queries: ReturnType<AnyResource['queries']>, current: Row | undefined) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const queries = resource.queries(trx);
    await lockRow(trx, resource.table, resource.key.name, key);
    const current = await queries.get(key);
    precondition?.(current && resource.representation(current));
    return write(queries, current);
  });
}

/** A store's refusal of a row made inside the write's transaction: the row, for the sentence. */
class RefusedRow extends Error {
  constructor(readonly refusal: unknown, readonly row: Row) {
    super('the store refused the row', { cause: refusal });
  }
}

/**
 * Runs a write, turning the store's integrity refusals into the contract's sentences, which name
 * the values of `body`, or of the row a RefusedRow carries.
 */
async function guarded<T>(
  db: Db, resource: AnyResource, body: Row, write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (thrown) {
    const [error, row] = thrown instanceof RefusedRow ? [thrown.refusal, thrown.row] : [thrown, body];
    switch (violationOf(error)) {
      case 'unique':
        throw invalid(messages.duplicate(resource.nouns, resource.uniqueValue(row)));
      case 'foreign_key': {
        // Asked outside the failed write: on PostgreSQL its transaction can run nothing more.
        const missing = await missingReferences(db, resource, row).catch(() => []);
        throw invalid(missing.join(' ') || messages.brokenReference);
      }
      case 'check':
        throw invalid(messages.badRequest);
      default:
        throw error;
    }
  }
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
