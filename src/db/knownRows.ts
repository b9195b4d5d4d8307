import type { Db } from './schema.js';
import { isTransaction } from './transaction.js';

/**
 * PostgreSQL: the rows this process last stored or read for an update, each with its version (the
 * `xmin` of the transaction that wrote it), so that an update of a row it knows can skip reading
 * it: the update applies only while the row is still at that version (prepared.ts, updateLogged),
 * so a row another process changed since is found out by the update itself. The most recently
 * used KNOWN_ROWS rows of each store are kept (a Map in use order: taken out and put back at its
 * end on each use). Only what an autocommitted statement answered is kept: a transaction's rows
 * may yet be rolled back.
 */
export interface Versioned<R> {
  row: R;
  version: string;
}

type Row = Record<string, unknown>;

/**
 * Rows kept per store: about 380 bytes of heap each for the bench's movies (1.5 MB in all), up to
 * about 10 KB for a record whose texts are all at their longest (40 MB at worst).
 */
export const KNOWN_ROWS = 4096;

const kept = new WeakMap<Db, Map<string, Versioned<Row>>>();

const placeOf = (table: string, key: number) => `${table} ${key}`;

/** The row of `table` with this key as this process last stored or read it, if it still keeps it. */
export function knownRow(db: Db, table: string, key: number): Versioned<Row> | undefined {
  const rows = kept.get(db);
  const place = placeOf(table, key);
  const known = rows?.get(place);
  if (rows === undefined || known === undefined) return undefined;
  rows.delete(place);
  rows.set(place, known);
  return known;
}

/** Keeps `row` at `version` as the row of `table` with this key: `db` answered it outside any transaction. */
export function remember(db: Db, table: string, key: number, row: Row, version: string): void {
  if (isTransaction(db)) return;
  let rows = kept.get(db);
  if (rows === undefined) kept.set(db, (rows = new Map()));
  const place = placeOf(table, key);
  rows.delete(place);
  // A copy: what the caller was handed may be changed by it; what is kept may not.
  rows.set(place, { row: { ...row }, version });
  if (rows.size > KNOWN_ROWS) rows.delete(rows.keys().next().value as string);
}

/** Forgets the row of `table` with this key: it changed, or may have, in a way this process did not see. */
export function forget(db: Db, table: string, key: number): void {
  kept.get(db)?.delete(placeOf(table, key));
}

/** Forgets every row of `db`: the store failed, and may come back as another (restored from a backup, say). */
export function forgetAll(db: Db): void {
  kept.delete(db);
}
