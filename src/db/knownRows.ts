import type { Db } from './schema.js';
import { isTransaction } from './transaction.js';

/**
 * PostgreSQL: the rows this process last stored or read for an update, each with its version (the
 * `xmin` of the transaction that wrote it), so that an update of a row it knows can skip reading
 * it: the update applies only while the row is still at that version (prepared.ts, updateLogged),
 * so a row another process changed since is found out by the update itself. The most recently
 * used rows of each store are kept, up to KNOWN_BYTES of them (a Map in use order: taken out and
 * put back at its end on each use). Only what an autocommitted statement answered is kept: a
 * transaction's rows may yet be rolled back.
 */
export interface Versioned<R> {
  row: R;
  version: string;
}

type Row = Record<string, unknown>;

interface Kept extends Versioned<Row> {
  bytes: number;
}

/**
 * What the kept rows of one store may take, as sizeOf counts them: 4 MiB, about 5,000 of the
 * bench's movies (824 bytes each by sizeOf, about 530 in V8's heap), or about 190 records whose
 * texts are all at their longest (21 KB each by sizeOf; 10.5 KB of heap in text beyond Latin-1).
 */
export const KNOWN_BYTES = 4 * 1024 * 1024;

/** A kept row's entry, its key and its object, and each of its values beside its text (V8's heap, on 64 bits, rounded up). */
const ENTRY_BYTES = 160;
const VALUE_BYTES = 32;

/**
 * The heap a kept row takes at most: its entry, and each value with its text at two bytes a
 * character (what V8 takes for text beyond Latin-1; Latin-1 text takes half).
 */
export function sizeOf(row: Row): number {
  let bytes = ENTRY_BYTES;
  for (const name in row) {
    const value = row[name];
    bytes += VALUE_BYTES + (typeof value === 'string' ? 2 * value.length : 0);
  }
  return bytes;
}

interface Store {
  rows: Map<string, Kept>;
  bytes: number;
}

const kept = new WeakMap<Db, Store>();

const placeOf = (table: string, key: number) => `${table} ${key}`;

/** The row of `table` with this key as this process last stored or read it, if it still keeps it. */
export function knownRow(db: Db, table: string, key: number): Versioned<Row> | undefined {
  const rows = kept.get(db)?.rows;
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
  let store = kept.get(db);
  if (store === undefined) kept.set(db, (store = { rows: new Map(), bytes: 0 }));
  const place = placeOf(table, key);
  forgetIn(store, place);
  // A copy: what the caller was handed may be changed by it; what is kept may not.
  const copy = { ...row };
  const bytes = sizeOf(copy);
  if (bytes > KNOWN_BYTES) return;
  store.rows.set(place, { row: copy, version, bytes });
  store.bytes += bytes;
  for (const oldest of store.rows.keys()) {
    if (store.bytes <= KNOWN_BYTES) break;
    forgetIn(store, oldest);
  }
}

/** The bytes the kept rows of `db` take, as sizeOf counts them. */
export function knownBytes(db: Db): number {
  return kept.get(db)?.bytes ?? 0;
}

/** Forgets the row of `table` with this key: it changed, or may have, in a way this process did not see. */
export function forget(db: Db, table: string, key: number): void {
  const store = kept.get(db);
  if (store) forgetIn(store, placeOf(table, key));
}

function forgetIn(store: Store, place: string): void {
  const known = store.rows.get(place);
  if (known === undefined) return;
  store.rows.delete(place);
  store.bytes -= known.bytes;
}

/** Forgets every row of `db`: the store failed, and may come back as another (restored from a backup, say). */
export function forgetAll(db: Db): void {
  kept.delete(db);
}
