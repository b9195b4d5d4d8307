import { sql } from 'kysely';
import type { Db } from '../db/schema.js';

/** Changes pruned per statement: each a short transaction, so writes never wait long behind one. */
const BATCH = 500;

/**
 * Deletes the changes older than `keepDays`, oldest first, a batch per statement, yielding to
 * other work between batches. Answers how many went.
 *
 * Each statement looks at the BATCH oldest changes by id and deletes those older than the cutoff:
 * it reads those rows and no more. Asked for "the oldest changes older than the cutoff" instead,
 * the store walks the log by id until it has found a batch, which with nothing to prune is the
 * whole log. Ids and dates run together (a change is dated as it is stored); where the clock went
 * back, a newer change among old ones stays, and the old ones around it still go.
 */
export async function pruneChanges(db: Db, keepDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - keepDays * 86_400_000).toISOString().replace('Z', '+00:00');
  let pruned = 0;
  for (;;) {
    const result = await sql`delete from cambios where id in (
      select id from (select id, cuando from cambios order by id limit ${BATCH}) as oldest where cuando < ${cutoff})`.execute(db);
    const count = Number(result.numAffectedRows ?? 0);
    pruned += count;
    if (count === 0) {
      await pruneImageFiles(db);
      return pruned;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Deletes the originals that neither an image nor a change of the log refers to any more: the
 * files of images deleted longer ago than the log keeps (an undo could still bring back the others).
 */
export async function pruneImageFiles(db: Db): Promise<number> {
  const result = await sql`delete from imagen_archivos where
    not exists (select 1 from imagenes i where i.id = imagen_archivos.imagen_id) and
    not exists (select 1 from cambios c where c.recurso = 'imagenes' and c.clave = imagen_archivos.imagen_id)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
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
