import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Db } from './schema.js';

/**
 * What differs between SQLite and PostgreSQL in the live code's SQL. (Each migration carries its
 * own copy of what it needed, as it was when written: changing this file never rewrites history.)
 */
export type DialectName = 'sqlite' | 'postgres';

export function dialectOf<DB>(db: Kysely<DB>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Inside a transaction, holds the row until commit so a check on it (If-Match) stays true until
 * the write. SQLite needs nothing: one connection per process writes at a time.
 */
export async function lockRow(trx: Db, table: string, key: string, value: number): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    await sql`select 1 from ${sql.table(table)} where ${sql.ref(key)} = ${value} for update`.execute(trx);
  }
}

/**
 * After rows were stored with keys of their own (a restore), new rows must not be handed those
 * keys. SQLite's AUTOINCREMENT moves past them by itself; a PostgreSQL identity does not.
 */
export async function moveSequencePastKeys(db: Db, table: string, key: string): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`select setval(pg_get_serial_sequence(${table}, ${key}), greatest(coalesce((select max(${sql.ref(key)}) from ${sql.table(table)}), 0), 1), (select count(*) > 0 from ${sql.table(table)}))`.execute(db);
}
