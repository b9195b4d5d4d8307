import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** When the worker checkpoints, and the WAL's sizes that matter, in pages (4 KiB each). */
export interface CheckpointMarks {
  /**
   * How often the worker copies the WAL into the database file. Each copy ends with a sync of the
   * file; four a second keep the WAL a few MB under a steady load of writes.
   */
  everyMs: number;
  /**
   * Past this size, once the worker has copied everything, the next write waits until it has
   * copied the last pages too (restartWrites): that write then starts the WAL over from its
   * beginning, as SQLite does only when a write begins with every page copied, which a steady
   * load of writes, each committing before the last copy ends, never lets happen.
   */
  restartPages: number;
  /**
   * Past this size the service's commits checkpoint again themselves, on the event loop: the bound
   * on the WAL when the worker falls behind or stops answering (a reader that never lets go of
   * its snapshot, a CPU the event loop never leaves).
   */
  boundPages: number;
  /**
   * The worker thread's nice value (Linux): 19, the lowest priority, so that on a CPU shared with the
   * event loop a checkpoint takes the time the loop leaves instead of taking turns with it.
   */
  nice: number;
}

export const CHECKPOINT_MARKS: CheckpointMarks = { everyMs: 250, restartPages: 4000, boundPages: 10_000, nice: 19 };

/** What the worker is given (checkpointWorker.ts): the store's file, and the marks it acts on (the bound is the connection's). */
export type CheckpointWork = Omit<CheckpointMarks, 'boundPages'> & { path: string };

/** SQLite's own default: the WAL's size, in pages, past which a commit checkpoints. */
const SQLITE_DEFAULT_PAGES = 1000;

/** The longest a write waits for the worker's last copy before it goes on (the WAL then starts over another time). */
const RESTART_WAIT_MS = 50;

export interface Checkpoints {
  /** Stops the worker and closes its connection; the store's own connection, closed after, makes the last checkpoint. */
  stop(): Promise<void>;
  /**
   * Undefined, or, when the WAL is past `restartPages` and the worker asks for it, settles once the
   * worker has copied the WAL's last pages with no write begun meanwhile (or after RESTART_WAIT_MS):
   * a write that waits for it before it begins starts the WAL over. Only writes wait; reads go on.
   */
  restartWrites(): Promise<void> | undefined;
}

/**
 * The checkpoints of a file store's connection `sqlite` move to a worker thread, on a connection of
 * their own: a commit then appends to the WAL and returns, instead of copying a thousand pages into
 * the database file and syncing it on the event loop, every thousand pages. The connection
 * checkpoints by itself again only past `boundPages`, and, if the worker stops, at SQLite's default.
 */
export function checkpointsBeside(sqlite: SQLite.Database, marks: CheckpointMarks): Checkpoints {
  const { boundPages, ...acted } = marks;
  sqlite.pragma(`wal_autocheckpoint = ${boundPages}`);
  const work: CheckpointWork = { path: sqlite.name, ...acted };
  const worker = new Worker(new URL('./checkpointWorker.js', import.meta.url), { name: 'sqlite-checkpoints', workerData: work });
  // The store's own close ends it (stop); a process that exits without closing the store does not wait for it.
  worker.unref();
  let asked = false;
  let restart: { settled: Promise<void>; settle: () => void } | undefined;
  const ended = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
      asked = false;
      restart?.settle();
      resolve();
    }),
  );
  worker.on('message', (message: 'restart' | 'copied') => {
    if (message === 'restart') asked = true;
    else restart?.settle();
  });
  // A worker that failed (its connection could not open) has exited: the connection checkpoints as SQLite does.
  worker.on('error', () => {});
  return {
    async stop() {
      worker.postMessage('stop');
      await ended;
    },
    restartWrites() {
      if (restart) return restart.settled;
      if (!asked) return undefined;
      asked = false;
      let settle = () => {};
      const settled = new Promise<void>((resolve) => {
        const timer = setTimeout(() => settle(), RESTART_WAIT_MS);
        settle = () => {
          clearTimeout(timer);
          restart = undefined;
          resolve();
        };
      });
      restart = { settled, settle };
      worker.postMessage('copy');
      return settled;
    },
  };
}
