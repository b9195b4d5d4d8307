import { existsSync } from 'node:fs';
import { dialectOf } from '../db/dialect.js';
import { sqliteBackup } from '../db/sqlite.js';
import type { Db } from '../db/schema.js';

export class BackupRefused extends Error {}

/**
 * A consistent copy of a SQLite store in `file`, made with SQLite's online backup while the service
 * goes on serving and writing: the file is the store as it was at one moment, ready to be served.
 * `progress` is told the pages copied and the pages in all.
 */
export async function backupStore(db: Db, file: string, progress: (done: number, total: number) => void = () => {}): Promise<void> {
  if (dialectOf(db) !== 'sqlite') throw new BackupRefused('backup copies a SQLite store; on PostgreSQL use pg_dump, or cartelera export');
  if (existsSync(file)) throw new BackupRefused(`${file} exists; name a new file`);
  await sqliteBackup(db, file, progress);
}
