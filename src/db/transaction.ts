import { CompiledQuery } from 'kysely';
import { dialectOf } from './dialect.js';
import { storeFaultOf, UnconfirmedCommit } from './errors.js';
import { groupCommitQueue, type Pending, type Write } from './groupCommit.js';
import type { Db } from './schema.js';
import { sqliteDurable, sqliteRestartWrites, sqliteStillWritable } from './sqlite.js';

/**
 * Transactions, on both backends: the one place that starts one, tells whether `db` is one, and
 * runs a savepoint; and a write's path to its commit (inTransaction). On PostgreSQL each write has
 * a transaction of its own, over the pool's connections at once, and the server shares one WAL
 * flush among the transactions that commit together (writes on different connections bump
 * different rows of `versiones`, migration 0006, so they do commit together). On SQLite, writes
 * that arrive together share one transaction, each in a savepoint of its own (group commit: its
 * queue is groupCommit.ts); one commit then does for the whole group what it did for each write:
 * SQLite appends each changed page to its WAL once. Grouping on PostgreSQL (one connection, a
 * round trip per statement) answered fewer writes at fsync=on (docs/performance.md).
 */

/**
 * Runs `write` in `db`'s transaction when it is one, else in one of its own (PostgreSQL) or one it
 * may share with the writes that arrive with it (SQLite): either way it settles once its changes
 * are committed.
 */
export function inTransaction<T>(db: Db, write: Write<T>): Promise<T> {
  if (isTransaction(db)) {
    // A write inside another's transaction (an undo's) shares it: its refusal must leave it usable.
    soleWrites.delete(db);
    return write(db);
  }
  if (dialectOf(db) === 'postgres') {
    return alone(db, write).then((result) => {
      counted(1);
      return result;
    });
  }
  let queue = queues.get(db);
  if (!queue) {
    queue = groupCommitQueue((group) => commitGroup(db, group));
    queues.set(db, queue);
  }
  return queue(write);
}

/** Each SQLite store's group commit queue. */
const queues = new WeakMap<Db, <T>(write: Write<T>) => Promise<T>>();

/**
 * Runs `work` in one transaction that holds the store's write lock from its start, on SQLite
 * (BEGIN IMMEDIATE): a long write such as an import then waits its turn for the lock, instead of
 * failing when another connection commits between its first read and its first write. Elsewhere
 * an ordinary transaction.
 */
export async function writeTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (dialectOf(db) === 'postgres') return db.transaction().execute(work);
  // Now and then, a moment for the checkpoint worker to let the WAL start over (db/checkpoints.ts).
  await sqliteRestartWrites(db);
  const result = await db.connection().execute(async (connection) => {
    await connection.executeQuery(BEGIN_IMMEDIATE);
    heldTransactions.add(connection);
    try {
      const result = await work(connection);
      await connection.executeQuery(COMMIT);
      return result;
    } catch (error) {
      await connection.executeQuery(ROLLBACK_ALL).catch(() => {});
      throw error;
    } finally {
      heldTransactions.delete(connection);
    }
  });
  // On disk before it is answered: synced off the event loop, the store's connection free meanwhile
  // for reads (which wait for the same sync before they answer) and for the next group to commit.
  await sqliteDurable(db)?.catch(() => {
    throw new UnconfirmedCommit();
  });
  if (!sqliteStillWritable(db)) throw new UnconfirmedCommit();
  return result;
}

const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK_ALL = CompiledQuery.raw('rollback');

/** Connections writeTransaction holds in a transaction of its own (Kysely's isTransaction does not know them). */
const heldTransactions = new WeakSet<Db>();

/** Whether `db` is a transaction: Kysely's own, or writeTransaction's. */
export const isTransaction = (db: Db): boolean => db.isTransaction || heldTransactions.has(db);

// Savepoints nest under one name: a release or rollback names the innermost.
const SAVEPOINT = CompiledQuery.raw('savepoint cartelera');
const RELEASE = CompiledQuery.raw('release savepoint cartelera');
const ROLLBACK = CompiledQuery.raw('rollback to savepoint cartelera');

/**
 * Runs `work` in a savepoint of transaction `trx`: a statement the store refuses rolls back `work`
 * alone, and leaves the transaction usable (on PostgreSQL, a failed statement fails the whole
 * transaction otherwise), to go on or to say why, as the store stood before `work`.
 */
export async function inSavepoint<T>(trx: Db, work: () => Promise<T>): Promise<T> {
  await trx.executeQuery(SAVEPOINT);
  try {
    const result = await work();
    await trx.executeQuery(RELEASE);
    return result;
  } catch (error) {
    // The store failing fails the whole transaction, whose caller rolls it back: SQLite has already
    // rolled it back on a full disk or an I/O error, and no savepoint is left to return to.
    if (storeFaultOf(error)) throw error;
    await trx.executeQuery(ROLLBACK);
    await trx.executeQuery(RELEASE);
    throw error;
  }
}

/**
 * Runs `work`, a write's statements in transaction `trx`; when the store refuses one, `explain`
 * turns the refusal into what the write answers (throwing it), asking the store why if it must.
 * A write that shares its transaction (a group, an import) runs `work` in a savepoint, and
 * `explain` asks in the transaction, as the store stood before `work`. A write alone in its
 * transaction needs no savepoint (two statements, two round trips on PostgreSQL): its refusal
 * fails the transaction, and `explain` asks the store once the transaction is rolled back, as
 * the store stands then.
 */
export async function refusable<T>(
  trx: Db, work: () => Promise<T>, explain: (refusal: unknown, store: Db) => Promise<never>,
): Promise<T> {
  if (!soleWrites.has(trx)) return inSavepoint(trx, work).catch((refusal: unknown) => explain(refusal, trx));
  try {
    return await work();
  } catch (refusal) {
    throw storeFaultOf(refusal) ? refusal : new ExplainAfterRollback(refusal, explain);
  }
}

/** The transactions that hold one write alone (see refusable). */
const soleWrites = new WeakSet<Db>();

/** A refusal in a write's own transaction, to be explained once the transaction is rolled back. */
class ExplainAfterRollback extends Error {
  constructor(readonly refusal: unknown, readonly explain: (refusal: unknown, store: Db) => Promise<never>) {
    super('the store refused the write', { cause: refusal });
  }
}

/** What this process committed so far: the transactions of writes, and the writes they held (on /metrics). */
export const groupCommits = { groups: 0, writes: 0 };

function counted(writes: number): void {
  groupCommits.groups++;
  groupCommits.writes += writes;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Commits a group of SQLite's queue: one transaction, each write in a savepoint of its own. A
 * refused write rolls back its own savepoint and refuses only itself; the writes before and after
 * it are stored as they would be alone, in their order of arrival. Nothing is answered, and
 * nothing is visible to a read, before the commit. If the transaction fails as a whole (its
 * commit, a lost connection, a lock not granted), each write runs again alone, so that each gets
 * the answer it would get alone.
 */
async function commitGroup(db: Db, group: Pending[]): Promise<void> {
  const [only] = group;
  if (group.length === 1 && only) {
    await alone(db, only.write).then(only.resolve, only.reject);
    counted(1);
    return;
  }
  let outcomes: Outcome[];
  try {
    outcomes = await writeTransaction(db, async (trx) => {
      const done: Outcome[] = [];
      for (const { write } of group) done.push(await inGroup(trx, write));
      return done;
    });
  } catch (error) {
    // Committed, perhaps: none of the group is acknowledged, and none runs again.
    if (error instanceof UnconfirmedCommit) return group.forEach((pending) => pending.reject(error));
    for (const pending of group) await commitGroup(db, [pending]);
    return;
  }
  counted(group.length);
  group.forEach((pending, i) => {
    const outcome = outcomes[i];
    if (outcome?.ok) pending.resolve(outcome.value);
    else pending.reject(outcome?.error);
  });
}

/** One write of a group, in a savepoint of its own: its value, or its refusal. */
async function inGroup(trx: Db, write: Write<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await inSavepoint(trx, () => write(trx)) };
  } catch (error) {
    // The store failing (a deadlock, a lock not granted in time, a lost connection, a full disk) is
    // not this write's refusal: it fails the group, whose writes then run again alone, each to be
    // stored or refused by itself. None of the group is answered as stored: nothing of it was.
    if (storeFaultOf(error)) throw error;
    return { ok: false, error };
  }
}

/**
 * Whether a write on `db` may be one statement outside any transaction, committed by itself
 * (PostgreSQL's autocommit): `db` is PostgreSQL's pool, not a transaction a write shares.
 */
export const autocommits = (db: Db): boolean => dialectOf(db) === 'postgres' && !isTransaction(db);

/**
 * Runs `write`, one statement on PostgreSQL's pool that stores a write whole or not at all (see
 * autocommits): no `begin`, no `commit`, one round trip. A refusal is explained by `explain` on the
 * store, as a write alone's is after its rollback; a deadlock runs it again. Its result is counted
 * as a write committed when `stored` says it stored something (by default, when it is not
 * undefined: an update whose row changed since it was read stores nothing).
 */
export async function inOneStatement<T>(
  db: Db, write: () => Promise<T>, explain: (refusal: unknown, store: Db) => Promise<never>,
  stored: (result: T) => boolean = (result) => result !== undefined,
): Promise<T> {
  const result = await retried(db, async () => {
    try {
      return await write();
    } catch (refusal) {
      throw storeFaultOf(refusal) ? refusal : new ExplainAfterRollback(refusal, explain);
    }
  });
  if (stored(result)) counted(1);
  return result;
}

/**
 * A write in a transaction of its own (no savepoint: see refusable).
 */
function alone<T>(db: Db, write: Write<T>): Promise<T> {
  return retried(db, () => writeTransaction(db, (trx) => {
    soleWrites.add(trx);
    return write(trx).finally(() => soleWrites.delete(trx));
  }));
}

/**
 * Runs `attempt`, a write alone. PostgreSQL may fail it to break a deadlock with another write's
 * transaction (or a serialization failure): it runs again, a few times. Its refusal is explained
 * once nothing of it is left in the store.
 */
async function retried<T>(db: Db, attempt: () => Promise<T>): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await attempt();
    } catch (error) {
      const refusal = error instanceof ExplainAfterRollback ? error.refusal : error;
      const code = (refusal as { code?: unknown }).code;
      if (run < RETRIES && (code === '40P01' || code === '40001')) continue;
      if (error instanceof ExplainAfterRollback) return error.explain(refusal, db);
      throw error;
    }
  }
}

/** Runs of a write alone that a deadlock may cost. */
const RETRIES = 4;
