import { dialectOf } from '../db/dialect.js';
import type { Db } from '../db/schema.js';

/**
 * Runs `read` in one transaction that sees the catalogue as it was when it began, whatever is
 * written meanwhile: every reference in what it reads points at a record it can also read.
 * SQLite's WAL gives every read transaction that view; PostgreSQL needs repeatable read.
 */
export function inSnapshot<T>(db: Db, read: (trx: Db) => Promise<T>): Promise<T> {
  const transaction = db.transaction();
  return (dialectOf(db) === 'postgres' ? transaction.setIsolationLevel('repeatable read').setAccessMode('read only') : transaction).execute(read);
}
