import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** What the checkpoint worker is given (checkpointWorker.ts). */
export interface CheckpointWork {
  path: string;
  everyMs: number;
}

/**
 * How often the worker copies the WAL into the database file: under a load of writes (1,000 pages a
 * second or more) no more often than SQLite's own mark would, so the file is not synced more often.
 */
const EVERY_MS = 1000;
/** SQLite's own default: the WAL's size, in pages, past which a commit checkpoints. */
const SQLITE_DEFAULT_PAGES = 1000;
/**
 * Past this size, in pages (40 MB at 4 KiB), the service's commits checkpoint again themselves:
 * the bound on the WAL when the worker falls behind (a reader that never lets go of its snapshot,
 * a CPU the event loop never leaves).
 */
const BOUND_PAGES = 10_000;

export interface Checkpoints {
  /** Stops the worker and closes its connection; the store's own connection, closed after, makes the last checkpoint. */
  stop(): Promise<void>;
}

/**
 * The checkpoints of a file store's connection `sqlite` move to a worker thread, on a connection of
 * their own: a commit then appends to the WAL and returns, instead of copying a thousand pages into
 * the database file and syncing it on the event loop, every thousand pages. The connection
 * checkpoints by itself again only past BOUND_PAGES, and, if the worker stops, at SQLite's default.
 */
export function checkpointsBeside(sqlite: SQLite.Database): Checkpoints {
  sqlite.pragma(`wal_autocheckpoint = ${BOUND_PAGES}`);
  const work: CheckpointWork = { path: sqlite.name, everyMs: EVERY_MS };
  const worker = new Worker(new URL('./checkpointWorker.js', import.meta.url), { name: 'sqlite-checkpoints', workerData: work });
  // The store's own close ends it (stop); a process that exits without closing the store does not wait for it.
  worker.unref();
  const ended = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
      resolve();
    }),
  );
  // A worker that failed (its connection could not open) has exited: the connection checkpoints as SQLite does.
  worker.on('error', () => {});
  return {
    async stop() {
      worker.postMessage('stop');
      await ended;
    },
  };
}
