import { messages } from '../catalogue/messages.js';
import { invalid, notFound, Refusal } from '../catalogue/refusal.js';
import { violationOf } from '../db/errors.js';
import { forget, knownRow, type Versioned } from '../db/knownRows.js';
import { insertLogged, lockedRow, replaceLogged, updateLogged, versionedRow, type AnsweredColumn, type LoggedChange } from '../db/prepared.js';
import type { Db } from '../db/schema.js';
import { autocommits, inOneStatement, inTransaction, refusable } from '../db/transaction.js';
import { dependentsOf, removeImagesOf } from './cascade.js';
import { changeAbout, changedFields as changedNames, changeOf, correctChange, recordChange, type ChangeContext } from './changeLog.js';
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
  if (autocommits(db)) return inOneStatement(db, () => createLogged(db, resource, input, context), explainer(resource, input));
  return inTransaction(db, (trx) =>
    guarded(trx, resource, input, async () => {
      const created = await resource.queries(trx).create(input);
      await recordCreated(trx, resource, created, context);
      return created;
    }));
}

/**
 * PostgreSQL, a write alone: the record and its `alta` in one statement, committed by itself. Its
 * `despues` is the record as answered, around the key the store gives it; should the store answer
 * the record otherwise than foreseen, the change is set to what it answered.
 */
async function createLogged(db: Db, resource: AnyResource, input: Row, context: ChangeContext): Promise<Row> {
  const row = resource.newRow(input);
  const around = aroundKey(resource, row);
  const { stored, change } = await insertLogged(db, resource.table, row as never, resource.key.name, changeOf(resource, null, undefined, context) as LoggedChange, around);
  const key = stored[resource.key.name as keyof typeof stored] as number;
  await foreseen(db, resource, change, `${around[0]}${key}${around[1]}`, stored);
  return stored;
}

/** A new record as answered, split around its key, the first field: what comes before the key, and after. */
function aroundKey(resource: AnyResource, row: Row): [string, string] {
  const text = resource.representation({ ...row, [resource.key.name]: 0 });
  const before = `{${JSON.stringify(resource.key.name)}:`;
  return [before, text.slice(before.length + 1)];
}

/** Sets the change's `despues` to the stored record as answered when `recorded`, what the statement stored, is not that. */
async function foreseen(db: Db, resource: AnyResource, change: number, recorded: string, stored: Row): Promise<void> {
  const answered = resource.representation(stored);
  if (answered !== recorded) await correctChange(db, change, { despues: answered });
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
  // A resource answered as SQL writes it has no rule that spans fields: its whole record refuses
  // nothing, and is worked out once; another's may refuse, but only once the record was found.
  const whole = resource.answeredInSql && resource.whole(given);
  return modifyRecord(db, resource, key, context, precondition, () => whole || resource.whole(given), () => body, whole || given);
}

/** Changes some fields (a JSON merge patch, RFC 7396), keeping the rest; undefined when there is no such record. */
export async function patchRecord(
  db: Db, resource: AnyResource, key: number, patch: Row, context: ChangeContext, precondition?: Precondition,
): Promise<Row | undefined> {
  const changes = withoutKey(resource, patch, key);
  const merged = (current: Row) => resource.whole({ ...pick(current, resource.fieldNames), ...changes });
  return modifyRecord(db, resource, key, context, precondition, merged, merged, changes);
}

/**
 * Stores `fieldsOf(current)` over the record with this key, after `precondition` accepted it as it
 * stands; undefined when there is none. A refusal's sentence names the values of `named(current)`.
 * `sent` is what the write sets over any record (a PUT's whole record, a PATCH's fields), which are
 * the record's columns where the resource's fields are answered as SQL writes them (answeredInSql).
 * On PostgreSQL a write alone stores the record and its change in one statement that only applies
 * while the record is as this process last knew it (updateLogged): as it stored or read it before,
 * when it still keeps that row (knownAndStored). Else, with no precondition and such fields, one
 * statement reads, writes and logs (modifiedAtOnce); otherwise the record is read first. If another
 * write changed it meanwhile, it runs again in a transaction that holds the record from its read
 * to its commit.
 */
async function modifyRecord(
  db: Db, resource: AnyResource, key: number, context: ChangeContext, precondition: Precondition | undefined,
  fieldsOf: (current: Row) => Row, named: (current: Row) => Row, sent: Row,
): Promise<Row | undefined> {
  if (autocommits(db)) {
    const known = knownRow(db, resource.table, key);
    const stored = known && (await knownAndStored(db, resource, key, known, context, precondition, fieldsOf));
    if (stored) return stored;
    const { answeredInSql } = resource;
    if (precondition === undefined && answeredInSql && Object.keys(sent).length > 0) {
      const modified = await modifiedAtOnce(db, resource, key, answeredInSql, sent, context, named);
      if (modified !== RACED) return modified;
    } else {
      const read = await versionedRow(db, resource.table, resource.key.name, key);
      precondition?.(read && resource.representation(read.row));
      if (!read) return undefined;
      const fields = fieldsOf(read.row);
      if (changesNothing(resource, read.row, fields)) return read.row;
      const updated = await storedAt(db, resource, key, read, fields, context, explainer(resource, named(read.row)));
      if (updated) return updated;
    }
  }
  return inTransactionOn(db, resource, key, precondition, (trx, queries, current) => {
    if (!current) return Promise.resolve(undefined);
    const fields = fieldsOf(current);
    return guarded(trx, resource, named(current), async () => {
      if (changesNothing(resource, current, fields)) return current;
      const updated = await queries.update(key, changedFields(current, fields));
      if (updated) await recordChange(trx, resource, key, resource.representation(current), resource.representation(updated), context);
      return updated;
    });
  });
}

/** What modifiedAtOnce answers when another write changed the record between its statement's read and its write. */
const RACED = Symbol('raced');

/**
 * PostgreSQL, a write alone with no precondition: sets `sent` over the record and logs its change
 * in one statement (replaceLogged), which SQL's JSON of the record before and after fills. Each is
 * checked against the record as the API answers it, and the change corrected should one differ.
 * The record as stored; undefined when there is none; RACED when it stored nothing for another
 * write. A refusal names the values of `named` on the record as it stands after it.
 */
async function modifiedAtOnce(
  db: Db, resource: AnyResource, key: number, answered: AnsweredColumn[], sent: Row, context: ChangeContext, named: (current: Row) => Row,
): Promise<Row | undefined | typeof RACED> {
  const explain = async (refusal: unknown, store: Db) => explainer(resource, named((await resource.queries(store).get(key)) ?? {}))(refusal, store);
  const replaced = await inOneStatement(db, () =>
    replaceLogged(db, resource.table, resource.key.name, key, resource.updatedColumns(sent) as never, answered, changeAbout(resource, 'modificacion', context)),
  explain, (outcome) => outcome.outcome === 'stored');
  switch (replaced.outcome) {
    case 'absent':
      return undefined;
    case 'raced':
      return RACED;
    case 'unchanged':
      return replaced.current;
    case 'stored': {
      const antes = resource.representation(replaced.before);
      const despues = resource.representation(replaced.stored);
      // Where SQL wrote both records as the API answers them, each field's JSON is its value's
      // alone, so the fields it found changed (campos) are those whose JSON differs.
      if (antes !== replaced.antes || despues !== replaced.despues) {
        await correctChange(db, replaced.change, { antes, despues, campos: JSON.stringify(changedNames(resource, antes, despues)) });
      }
      return replaced.stored;
    }
  }
}

/**
 * PostgreSQL: stores `fields` over the record `current` at its `version`, and its change, in one
 * statement; undefined, storing nothing, when the record is no longer at that version.
 */
async function storedAt(
  db: Db, resource: AnyResource, key: number, { row: current, version }: Versioned<Row>, fields: Row, context: ChangeContext,
  explain: (refusal: unknown, store: Db) => Promise<never>,
): Promise<Row | undefined> {
  const set = changedFields(current, fields);
  const antes = resource.representation(current);
  const despues = resource.representation({ ...current, ...set });
  const change = changeOf(resource, antes, despues, context) as LoggedChange;
  const updated = await inOneStatement(db, () =>
    updateLogged(db, resource.table, resource.key.name as never, key, version, resource.updatedColumns(set) as never, change, despues),
  explain);
  if (!updated) return undefined;
  await foreseen(db, resource, updated.change, despues, updated.stored);
  return updated.stored;
}

/**
 * PostgreSQL: the update of a record as this process knows it (db/knownRows.ts), without reading
 * it: the record as stored, or undefined when nothing was stored. Only the write is decided on the
 * known row, whose version the statement checks; anything else the update would answer (the
 * precondition failed, nothing to change, a refusal, an invalid record) may come of a stale row,
 * so it is left to the record as read afresh, which the caller then does (and keeps as known).
 */
async function knownAndStored(
  db: Db, resource: AnyResource, key: number, known: Versioned<Row>, context: ChangeContext,
  precondition: Precondition | undefined, fieldsOf: (current: Row) => Row,
): Promise<Row | undefined> {
  try {
    precondition?.(resource.representation(known.row));
    const fields = fieldsOf(known.row);
    if (changesNothing(resource, known.row, fields)) return undefined;
    return await storedAt(db, resource, key, known, fields, context, (refusal) => Promise.reject(refusal));
  } catch (error) {
    // A refusal decided on the known row (by the precondition, the record's rules or the store's):
    // the record as read afresh decides. Anything else (a store fault) is the update's answer.
    if (error instanceof Refusal || violationOf(error)) return undefined;
    throw error;
  }
}

/**
 * Deletes a record, and what cascades from it (its participations, showtimes and images), logging each: the
 * record's `baja`, then one for each of those, whose `causa` is the record's. False when there was none.
 */
export async function removeRecord(
  db: Db, resource: AnyResource, key: number, context: ChangeContext, precondition?: Precondition,
): Promise<boolean> {
  // Kept no longer: an update of the record would find it gone anyway (db/knownRows.ts).
  forget(db, resource.table, key);
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

/**
 * Runs a write in transaction `trx`, turning the store's integrity refusals into the contract's
 * sentences, which name the values of `body`. What a missing reference names is asked in the same
 * transaction when the write shares it (group commit, db/transaction.ts), as the store stood
 * before the write: the writes committed with it cannot change the answer; else once the write's
 * own transaction is rolled back (refusable).
 */
function guarded<T>(
  trx: Db, resource: AnyResource, body: Row, write: () => Promise<T>,
): Promise<T> {
  return refusable(trx, write, explainer(resource, body));
}

/** Turns the store's refusal of a write of `body` into the contract's sentence, asking `store` what a missing reference is. */
function explainer(resource: AnyResource, body: Row) {
  return async (error: unknown, store: Db): Promise<never> => {
    switch (violationOf(error)) {
      case 'unique':
        throw invalid(messages.duplicate(resource.nouns, resource.uniqueValue(body)));
      case 'foreign_key': {
        const missing = await missingReferences(store, resource, body);
        throw invalid(missing.join(' ') || messages.brokenReference);
      }
      case 'check':
        throw invalid(messages.badRequest);
      default:
        throw error;
    }
  };
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
