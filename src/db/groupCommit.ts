import type { Db } from './schema.js';

/**
 * SQLite's group commit queue. Writes that arrive together (in one turn of the event loop, or
 * while the previous group was committing) are handed on as one group, to commit in one
 * transaction (db/transaction.ts); a process commits one group at a time.
 */

/** A write: what it does in the transaction it is given. */
export type Write<T> = (trx: Db) => Promise<T>;

/** A write waiting in the queue, and how to answer it once its group committed. */
export interface Pending {
  write: Write<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** The most writes one transaction takes: more would keep reads waiting on SQLite's one connection. */
const MAX_GROUP = 64;

/** A queue that hands `commit` the writes that arrive together, one group at a time; `commit` answers each of them. */
export function groupCommitQueue(commit: (group: Pending[]) => Promise<void>): <T>(write: Write<T>) => Promise<T> {
  let queue: Pending[] = [];
  let scheduled = false;
  let running = false;

  const start = () => {
    scheduled = false;
    if (running || queue.length === 0) return;
    const group = queue.slice(0, MAX_GROUP);
    queue = queue.slice(MAX_GROUP);
    running = true;
    void commit(group).finally(() => {
      running = false;
      start();
    });
  };

  return <T>(write: Write<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (scheduled || running) return;
      scheduled = true;
      // After this turn of the event loop, so that the writes whose requests arrived in it join.
      setImmediate(start);
    });
}
