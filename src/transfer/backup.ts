import { existsSync } from 'node:fs';
import { dialectOf } from '../db/dialect.js';
import { sqliteBackup } from '../db/sqlite.js';
import type { Db } from '../db/schema.js';
import { writeWholeFileAt } from './wholeFile.js';

export class BackupRefused extends Error {}

/**
 * A consistent copy of a SQLite store in `file`, made with SQLite's online backup while the service
 * goes on serving and writing: the file is the store as it was at one moment, ready to be served.
 * It is written under a temporary name beside `file` and renamed once whole: a full or read-only
 * disk leaves nothing under `file`. `progress` is told the pages copied and the pages in all.
 */
export async function backupStore(db: Db, file: string, progress: (done: number, total: number) => void = () => {}): Promise<void> {
  if (dialectOf(db) !== 'sqlite') throw new BackupRefused('backup copies a SQLite store; on PostgreSQL use pg_dump, or cartelera export');
  if (existsSync(file)) throw new BackupRefused(`${file} exists; name a new file`);
  await writeWholeFileAt(file, (temporary) => sqliteBackup(db, temporary, progress));
}
