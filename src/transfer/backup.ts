import { existsSync } from 'node:fs';
import { sqliteOf } from '../db/connect.js';
import type { Db } from '../db/schema.js';

export class BackupRefused extends Error {}

/**
 * A consistent copy of a SQLite store in `file`, made with SQLite's online backup while the service
 * goes on serving and writing: the file is the store as it was at one moment, ready to be served.
 * `progress` is told the pages copied and the pages in all.
 */
export async function backupStore(db: Db, file: string, progress: (done: number, total: number) => void = () => {}): Promise<void> {
  const sqlite = sqliteOf(db)?.handle;
  if (!sqlite) throw new BackupRefused('backup copies a SQLite store; on PostgreSQL use pg_dump, or cartelera export');
  if (existsSync(file)) throw new BackupRefused(`${file} exists; name a new file`);
  await sqlite.backup(file, {
    // After a first small step, everything left in one: a step that copies the rest cannot be
    // restarted by a write in between, however busy the store.
    progress: ({ totalPages, remainingPages }) => {
      progress(totalPages - remainingPages, totalPages);
      return Math.max(remainingPages, 1);
    },
  });
}
