import { CompiledQuery } from 'kysely';
import { dialectOf } from './dialect.js';
import { isStoreUnavailable } from './errors.js';
import type { Db } from './schema.js';
import { writeTransaction } from './sqlite.js';

/**
 * Group commit. Writes that arrive together (in one turn of the event loop, or while the previous
 * group was committing) run in one transaction, each in a savepoint of its own, and are all answered
 * once that transaction has committed. A refused write rolls back its own savepoint and refuses only
 * itself; the writes before and after it in the group are stored as they would be alone, in their
 * order of arrival. One commit then does for the whole group what it did for each write: SQLite
 * appends each changed page to its WAL once (the change log's, the row counts', the index pages
 * every write touches).
 *
 * Nothing is answered, and nothing is visible to a read, before the group's commit. If the group's
 * transaction fails as a whole (its commit, a lost connection, a lock not granted), each of its
 * writes runs again alone, so that each gets the answer it would get alone.
 *
 * A process commits one group at a time. This is SQLite's: on PostgreSQL every write has a
 * transaction of its own (see groupCommitter), and the server shares one WAL flush among the
 * transactions that commit together.
 */
export type Write<T> = (trx: Db) => Promise<T>;

interface Pending {
  write: Write<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** The most writes one transaction takes: more would keep reads waiting on SQLite's one connection. */
const MAX_GROUP = 64;


// Savepoints nest under one name: a release or rollback names the innermost.
const SAVEPOINT = CompiledQuery.raw('savepoint cartelera');
const RELEASE = CompiledQuery.raw('release savepoint cartelera');
const ROLLBACK = CompiledQuery.raw('rollback to savepoint cartelera');

/** What this process committed so far: groups, and the writes they held (on /metrics). */
export const groupCommits = { groups: 0, writes: 0 };

const committers = new WeakMap<Db, <T>(write: Write<T>) => Promise<T>>();

/** Runs `write` in a transaction it may share with the writes that arrive with it; settles after the commit. */
export function committed<T>(db: Db, write: Write<T>): Promise<T> {
  let commit = committers.get(db);
  if (!commit) {
    commit = groupCommitter(db);
    committers.set(db, commit);
  }
  return commit(write);
}

function groupCommitter(db: Db): <T>(write: Write<T>) => Promise<T> {
  // PostgreSQL groups commits itself: transactions that commit while the WAL is being flushed share
  // the next flush (writes on different connections bump different rows of `versiones`, so they do
  // commit together: migration 0006). Each write keeps a transaction of its own there, over the
  // pool's connections at once; measured at fsync=on, grouping them as below (one connection, a
  // round trip per statement) answered fewer writes (docs/performance.md).
  if (dialectOf(db) === 'postgres') {
    return async <T>(write: Write<T>) => {
      const result = (await alone(db, write)) as T;
      counted(1);
      return result;
    };
  }
  let queue: Pending[] = [];
  let scheduled = false;
  let running = false;

  const start = () => {
    scheduled = false;
    if (running || queue.length === 0) return;
    const group = queue.slice(0, MAX_GROUP);
    queue = queue.slice(MAX_GROUP);
    running = true;
    void commitGroup(db, group).finally(() => {
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
  } catch {
    // The group failed as a whole: each write alone, so that each gets its own answer.
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

/**
 * A write in a transaction of its own. PostgreSQL may fail it to break a deadlock with a group
 * committing at the same time (or a serialization failure): it runs again, a few times.
 */
async function alone(db: Db, write: Write<unknown>): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeTransaction(db, write);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= RETRIES || (code !== '40P01' && code !== '40001')) throw error;
    }
  }
}

/** Runs of a write alone that a deadlock may cost. */
const RETRIES = 4;

function counted(writes: number): void {
  groupCommits.groups++;
  groupCommits.writes += writes;
}

/** One write of a group, in a savepoint of its own: its value, or its refusal. */
async function inGroup(trx: Db, write: Write<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await inSavepoint(trx, () => write(trx)) };
  } catch (error) {
    // The store failing (a deadlock, a lock not granted in time, a lost connection) is not this
    // write's refusal: it fails the group, whose writes then run again alone.
    if (isStoreUnavailable(error)) throw error;
    return { ok: false, error };
  }
}

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
    await trx.executeQuery(ROLLBACK);
    await trx.executeQuery(RELEASE);
    throw error;
  }
}
