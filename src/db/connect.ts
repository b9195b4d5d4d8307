import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database, Db } from './schema.js';

/** Opens the store named by a DATABASE_URL (see README, "Configuration"). */
export function openDatabase(url: string): Db {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length));
  if (/^postgres(ql)?:\/\//.test(url)) {
    throw new Error('PostgreSQL is not supported yet; use a sqlite: DATABASE_URL');
  }
  throw new Error(`DATABASE_URL must start with sqlite:, postgres:// or postgresql:// (got "${url}")`);
}

function openSqlite(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  // WAL with synchronous=NORMAL: a committed write survives a crash of this process (it is in
  // the WAL before the commit returns); only an OS crash or power cut can lose the last commits.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
