import { sql } from 'kysely';
import { dialectOf } from '../db/dialect.js';
import { filtersOf, type Condition } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import { changeList, changesWhere, type ChangeRow } from './read.js';

/** What a stream is told: each change once, in id order. The feed moves `last` past what it sends. */
export interface Subscriber {
  /** The last change id it was sent (or chose to start after). */
  last: number;
  /** Changes after `last` that were already committed when the stream opened: not sent (see `opening`). */
  committedBefore?: ReadonlySet<number>;
  matches: (change: ChangeRow) => boolean;
  send: (change: ChangeRow) => void;
}

/** A subscriber, and what the poller uncovered for it while it was still catching up. */
interface Follower {
  subscriber: Subscriber;
  queued: ChangeRow[] | undefined;
  /** The resources it follows (its `recurso=` filter), or undefined for all of them. */
  resources: readonly string[] | undefined;
}

/** How often the store is asked for newly committed changes while anyone listens. */
const POLL_MS = 250;
/** Changes read per query, catching up or following. */
const PAGE = 1000;

/**
 * The changes committed to the store, by whichever process, delivered to this process's streams
 * exactly once and in id order. One poller per process, running while any stream listens.
 *
 * The delicate part is the *horizon*: the id up to which every change that will ever exist is
 * already visible. On SQLite, writers take turns, so an id is committed before the next is
 * taken: the highest visible id is the horizon. On PostgreSQL, ids are taken in one order and
 * committed in another: a transaction can hold id 10, uncommitted, while 11 is visible. So each
 * poll notes the highest visible id with the snapshot it was read in; that id becomes the horizon
 * once every transaction the snapshot saw in progress has ended (pg_xact_status). Any id taken
 * later is higher, because sequences only grow. See docs/api.md, "The live feed".
 */
export class ChangeFeed {
  private readonly followers = new Set<Follower>();
  /** The followers of every resource, and those of each resource: a change is looked at by the ones it may concern only. */
  private readonly ofEverything = new Set<Follower>();
  private readonly ofResource = new Map<string, Set<Follower>>();
  /** Highest id up to which every change is visible, and was handed to the subscribers. */
  private horizon: number | undefined;
  /** PostgreSQL: ids seen, each waiting for the transactions its snapshot saw in progress. */
  private pending: { snapshot: string; max: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void,
  ) {}

  get size(): number {
    return this.followers.size;
  }

  /** The horizon now (polling once if this process has not yet). */
  async currentHorizon(): Promise<number> {
    if (this.horizon === undefined) await this.poll();
    return this.horizon ?? 0;
  }

  /**
   * Where a stream that names no start begins: after the horizon, skipping the changes beyond it
   * that are already visible. The horizon may lag behind what is committed (between two polls, or
   * on PostgreSQL while a transaction that took a lower id is in progress), and such a stream
   * must get only what is committed after it opened, and all of it.
   */
  async opening(): Promise<Pick<Subscriber, 'last' | 'committedBefore'>> {
    const last = await this.currentHorizon();
    const { rows } = await sql<{ id: number | string }>`select id from cambios where id > ${last}`.execute(this.db);
    return { last, committedBefore: new Set(rows.map((r) => Number(r.id))) };
  }

  /**
   * Follows `subscriber` from its `last`: the changes up to the horizon are read from the store
   * first, then it is fed as the horizon advances. The returned function stops it.
   */
  async subscribe(subscriber: Subscriber, conditions: Condition[]): Promise<() => void> {
    const follower: Follower = { subscriber, queued: [], resources: resourcesOf(conditions) };
    this.add(follower);
    this.start();
    const stop = () => {
      this.remove(follower);
      if (this.followers.size === 0) this.stop();
    };
    try {
      const horizon = await this.currentHorizon();
      for (;;) {
        const rows = await changesWhere(this.db, sql`id > ${subscriber.last} and id <= ${horizon} ${filters(this.db, conditions)}`, PAGE);
        for (const row of rows) deliver(subscriber, row);
        if (rows.length < PAGE) break;
      }
      const queued = follower.queued ?? [];
      follower.queued = undefined;
      for (const row of queued) if (subscriber.matches(row)) deliver(subscriber, row);
    } catch (error) {
      stop();
      throw error;
    }
    return stop;
  }

  close(): void {
    this.closed = true;
    for (const follower of this.followers) this.remove(follower);
    this.stop();
  }

  private start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => void this.poll().catch(this.onError), POLL_MS);
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One look at the store: advance the horizon, and hand what it uncovers to the subscribers. */
  private poll(): Promise<void> {
    this.polling ??= this.advance().finally(() => (this.polling = undefined));
    return this.polling;
  }

  private async advance(): Promise<void> {
    const next = dialectOf(this.db) === 'postgres' ? await this.postgresHorizon() : await this.sqliteHorizon();
    const from = this.horizon;
    this.horizon = Math.max(from ?? 0, next);
    if (from === undefined || this.horizon <= from || this.followers.size === 0) return;
    // Only the changes of resources someone follows are read.
    if (this.ofEverything.size === 0 && this.ofResource.size === 0) return;
    const wanted = this.ofEverything.size > 0 ? sql`` : sql`and recurso in (${sql.join([...this.ofResource.keys()])})`;
    let after = from;
    for (;;) {
      const rows = await changesWhere(this.db, sql`id > ${after} and id <= ${this.horizon} ${wanted}`, PAGE);
      for (const row of rows) {
        for (const followers of [this.ofEverything, this.ofResource.get(row.recurso)]) {
          for (const { subscriber, queued } of followers ?? []) {
            if (queued) queued.push(row);
            else if (subscriber.matches(row)) deliver(subscriber, row);
          }
        }
      }
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1]?.id ?? after;
    }
  }

  private add(follower: Follower): void {
    this.followers.add(follower);
    if (!follower.resources) this.ofEverything.add(follower);
    for (const resource of follower.resources ?? []) {
      let set = this.ofResource.get(resource);
      if (!set) this.ofResource.set(resource, (set = new Set()));
      set.add(follower);
    }
  }

  private remove(follower: Follower): void {
    this.followers.delete(follower);
    this.ofEverything.delete(follower);
    for (const resource of follower.resources ?? []) {
      const set = this.ofResource.get(resource);
      set?.delete(follower);
      if (set?.size === 0) this.ofResource.delete(resource);
    }
  }

  private async sqliteHorizon(): Promise<number> {
    const { rows } = await sql<{ max: number | null }>`select max(id) as max from cambios`.execute(this.db);
    return Number(rows[0]?.max ?? 0);
  }

  private async postgresHorizon(): Promise<number> {
    const { rows } = await sql<{ snapshot: string; max: number | null }>`select pg_current_snapshot()::text as snapshot, (select max(id) from cambios) as max`.execute(this.db);
    const seen = rows[0];
    // One entry per new highest id: while a long transaction holds the horizon back, the list
    // grows only as fast as ids are committed, not with every poll.
    const max = Number(seen?.max ?? 0);
    if (seen && max > (this.pending.at(-1)?.max ?? this.horizon ?? -1)) this.pending.push({ snapshot: seen.snapshot, max });
    let horizon = this.horizon ?? 0;
    while (this.pending.length > 0) {
      const [oldest] = this.pending;
      if (!oldest) break;
      const { rows: open } = await sql<{ n: number | string }>`
        select count(*) as n from pg_snapshot_xip(${oldest.snapshot}::pg_snapshot) as x(xid) where pg_xact_status(x.xid) = 'in progress'`.execute(this.db);
      if (Number(open[0]?.n ?? 0) > 0) break;
      horizon = Math.max(horizon, oldest.max);
      this.pending.shift();
    }
    return horizon;
  }
}

/** The resources a stream's `recurso=` filter names; undefined when it has none. */
function resourcesOf(conditions: Condition[]): string[] | undefined {
  const named = conditions.filter((c) => c.field === 'recurso' && c.op === 'eq');
  if (named.length === 0) return undefined;
  // Several `recurso=` conditions must all hold: the resources each of them names.
  return named.map((c) => c.values.map(String)).reduce((a, b) => a.filter((r) => b.includes(r)));
}

/** Sends `row` unless the subscriber has it already (or it predates the stream), and moves its `last` past it. */
function deliver(subscriber: Subscriber, row: ChangeRow): void {
  if (row.id <= subscriber.last) return;
  subscriber.last = row.id;
  if (!subscriber.committedBefore?.has(row.id)) subscriber.send(row);
}

/** The list's own filters (db/listing.ts), for a stream's catch-up. */
function filters(db: Db, conditions: Condition[]) {
  const where = filtersOf(db, changeList, conditions);
  return where.length === 0 ? sql`` : sql`and ${sql.join(where, sql` and `)}`;
}
