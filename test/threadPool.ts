import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Holds every thread of libuv's pool, where SQLite's commits are synced (db/sqlite.ts): each waits
 * in the open() of a FIFO until `release` opens it for writing.
 */
export async function holdThreadPool(): Promise<{ release: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'cartelera-pool-'));
  const size = Number(process.env.UV_THREADPOOL_SIZE || 4);
  const fifos = Array.from({ length: size }, (_, i) => join(dir, `fifo-${i}`));
  for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
  const opened = fifos.map((fifo) => open(fifo, 'r'));
  return {
    async release() {
      const writers = fifos.map((fifo) => openSync(fifo, 'w'));
      for (const handle of await Promise.all(opened)) await handle.close();
      writers.forEach(closeSync);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Settles after the next turns of the event loop until `done` holds. */
export async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise(setImmediate);
}
