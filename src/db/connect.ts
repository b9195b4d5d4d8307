import { Kysely, PostgresDialect } from 'kysely';
import { createRequire } from 'node:module';
import type pg from 'pg';
import { canonicalFecha } from '../catalogue/fecha.js';
import { forgetAll } from './knownRows.js';
import type { Database, Db } from './schema.js';
import type { CheckpointMarks } from './checkpoints.js';
import { openSqlite } from './sqlite.js';

export interface StoreOptions {
  /** PostgreSQL: most connections one process holds. */
  poolMax: number;
  /** PostgreSQL: a statement running longer is cancelled by the server. */
  statementTimeoutMs: number;
  /** SQLite: whether a commit is synced to disk before it returns (`full`, the default) or at checkpoints only (`normal`). */
  sqliteSynchronous?: 'full' | 'normal';
  /** SQLite: checkpoints in a worker thread, off the event loop (the service; at the marks given, or CHECKPOINT_MARKS), or in the commits that reach SQLite's mark (a command's). */
  sqliteCheckpointsBeside?: boolean | CheckpointMarks;
  /** SQLite: the most of the store's pages the connection keeps in memory, in KiB (16,000 when absent). */
  sqlitePageCacheKb?: number;
  /** SQLite: what a savepoint or statement must be able to undo kept in memory, not in a temporary file (see SqliteOptions). */
  sqliteUndoInMemory?: boolean;
  /** Told when a connection fails (say, the server restarting); the query on it, if any, fails too. */
  onConnectionError?: (error: Error) => void;
}

export const STORE_DEFAULTS: StoreOptions = { poolMax: 10, statementTimeoutMs: 5000 };

/** Opens the store named by a DATABASE_URL (see docs/configuration.md). */
export function openDatabase(url: string, options: StoreOptions = STORE_DEFAULTS): Db {
  if (url.startsWith('sqlite:')) {
    const { sqliteSynchronous: synchronous = 'full', sqliteCheckpointsBeside: checkpointsBeside = false, sqlitePageCacheKb: pageCacheKb, sqliteUndoInMemory: undoInMemory = false } = options;
    return openSqlite(url.slice('sqlite:'.length), { synchronous, checkpointsBeside, undoInMemory, ...(pageCacheKb !== undefined && { pageCacheKb }) });
  }
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options);
  throw new Error(`DATABASE_URL must start with sqlite:, postgres:// or postgresql:// (got "${url}")`);
}

// What PostgreSQL answers differently from SQLite, made the same here and nowhere else:
// bigint (dni, counts) arrives as text, and timestamps as text in the session's time zone.
/** pg, loaded when a PostgreSQL store is opened: a SQLite process is a few MB smaller without it. */
const loadPg = () => createRequire(import.meta.url)('pg') as typeof pg;

const INT8 = 20;
const TIMESTAMPTZ = 1184;
const typesOf = (driver: typeof pg) => ({
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8) return (text: string) => Number(text);
    if (oid === TIMESTAMPTZ) return canonicalTimestamp;
    return driver.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
});

/**
 * `2025-10-10 10:30:00.5-05` (ISO DateStyle, any session time zone) → `2025-10-10T15:30:00.500+00:00`.
 * No session setting is assumed, so connection poolers that refuse startup options work too.
 */
function canonicalTimestamp(text: string): string {
  const iso = text.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00');
  const canonical = canonicalFecha(iso, 'UTC');
  if (canonical === undefined) throw new Error(`unexpected timestamp from PostgreSQL: ${text}`);
  return canonical;
}

const pools = new WeakMap<Db, pg.Pool>();

/** The connection pool behind a PostgreSQL store (for its gauges); undefined on SQLite. */
export function poolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}

function openPostgres(url: string, options: StoreOptions): Db {
  const driver = loadPg();
  const pool = new driver.Pool({
    connectionString: url,
    max: options.poolMax,
    connectionTimeoutMillis: 5000,
    statement_timeout: options.statementTimeoutMs,
    application_name: 'cartelera',
    types: typesOf(driver),
  });
  // A connection that fails emits 'error'; with no listener that is an uncaught exception. The pool
  // listens only while a connection is idle, not while a query holds it, so listen on every one.
  // A lost connection may be a server that comes back as another (restored): no known row is proof then.
  const onError = (error: Error) => {
    forgetAll(db);
    options.onConnectionError?.(error);
  };
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}
