import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type { CheckpointWork } from './checkpoints.js';

// A file store's checkpoints, in a worker thread on a connection of its own (db/checkpoints.ts): the
// pages the WAL holds are copied into the database file here, never inside a commit of the service.
const { path, everyMs, restartPages, nice } = workerData as CheckpointWork;

lowerPriority();
const sqlite = new SQLite(path, { fileMustExist: true });
sqlite.pragma('busy_timeout = 5000');
// The WAL is synced before its pages are copied and the database file after: the WAL starts over
// (overwriting what it held) only once all of it is on disk in the file.
sqlite.pragma('synchronous = NORMAL');
// PASSIVE: copies what no reader still needs, and never waits for the service's writes or reads.
const checkpoint = sqlite.prepare('PRAGMA wal_checkpoint(PASSIVE)');

/** Copies what it can; what the WAL held (`log`) and how much of it is now in the file (`checkpointed`), in pages. */
function copy(): { busy: number; log: number; checkpointed: number } | undefined {
  try {
    return checkpoint.get() as { busy: number; log: number; checkpointed: number };
  } catch {
    // A full disk, a read-only file system: every commit is still in the WAL; the next tick tries again.
    return undefined;
  }
}

let asked = false;
const ticking = setInterval(() => {
  const copied = copy();
  // All of a long WAL copied: the service's writes wait a moment for the last pages (checkpoints.ts, restartWrites).
  if (!asked && copied && !copied.busy && copied.log >= restartPages && copied.checkpointed === copied.log) {
    asked = true;
    parentPort?.postMessage('restart');
  }
}, everyMs);

parentPort?.on('message', (message: 'copy' | 'stop') => {
  if (message === 'copy') {
    // No write begins until this is answered: what this copies is the WAL's last page.
    copy();
    asked = false;
    parentPort?.postMessage('copied');
    return;
  }
  clearInterval(ticking);
  sqlite.close();
  parentPort?.close();
});

/** Below the event loop's thread (Linux: a thread's own nice value; CheckpointMarks.nice). */
function lowerPriority(): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), nice);
  } catch {
    // No /proc/thread-self: the checkpoints run at the service's priority.
  }
}
