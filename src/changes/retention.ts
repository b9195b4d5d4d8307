import { sql } from 'kysely';
import type { Db } from '../db/schema.js';

/** Changes pruned per statement: each a short transaction, so writes never wait long behind one. */
const BATCH = 500;

/**
 * Deletes the changes older than `keepDays`, oldest first, a batch per statement, yielding to
 * other work between batches. Answers how many went.
 */
export async function pruneChanges(db: Db, keepDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - keepDays * 86_400_000).toISOString().replace('Z', '+00:00');
  let pruned = 0;
  for (;;) {
    const result = await sql`delete from cambios where id in (select id from cambios where cuando < ${cutoff} order by id limit ${BATCH})`.execute(db);
    const count = Number(result.numAffectedRows ?? 0);
    pruned += count;
    if (count < BATCH) return pruned;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Prunes at start and then every `everyMs`; the returned function stops it, and waits for a run under way. */
export function pruneRegularly(db: Db, keepDays: number, log: (pruned: number) => void, onError: (error: unknown) => void, everyMs = 3_600_000): () => Promise<void> {
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    running ??= pruneChanges(db, keepDays)
      .then(
        (n) => (n > 0 ? log(n) : undefined),
        (error: unknown) => (stopped ? undefined : onError(error)),
      )
      .finally(() => (running = undefined));
  };
  run();
  const timer = setInterval(run, everyMs).unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
