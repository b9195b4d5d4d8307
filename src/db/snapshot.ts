import { dialectOf } from './dialect.js';
import type { Db } from './schema.js';
import { sqliteReader } from './sqlite.js';

/**
 * Runs `read` in one transaction that sees the catalogue as it was when it began, whatever is
 * written meanwhile: every reference in what it reads points at a record it can also read.
 * PostgreSQL needs repeatable read. SQLite's WAL gives every read transaction that view; a file
 * store's is read on a connection of its own (sqliteReader), so that the store's one connection
 * goes on serving every other request between the pages of a long read.
 */
export async function inSnapshot<T>(db: Db, read: (trx: Db) => Promise<T>): Promise<T> {
  if (dialectOf(db) === 'postgres') return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read);
  const reader = sqliteReader(db);
  if (!reader) return db.transaction().execute(read);
  try {
    return await reader.transaction().execute(read);
  } finally {
    await reader.destroy();
  }
}
