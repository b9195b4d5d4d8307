import { sql } from 'kysely';
import { dialectOf } from '../db/dialect.js';
import { filtersOf, type Condition } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import { sqliteDurable } from '../db/sqlite.js';
import { changeList, changesWhere, type ChangeRow } from './read.js';

/** What a stream is told: each change once, in id order, no faster than its reader takes them. */
export interface Subscriber {
  /** The change id it starts after. */
  last: number;
  /** Changes after `last` that were already committed when the stream opened: not sent (see `opening`). */
  committedBefore?: ReadonlySet<number>;
  matches: (change: ChangeRow) => boolean;
  /** Writes one change; false when the reader has not taken what was written before (wait for `drained`). */
  send: (change: ChangeRow) => boolean;
  /** Settles once the reader has taken what was written (or the stream is gone). */
  drained: () => Promise<void>;
  /** Ends the stream: the store could not be read for it. It resumes from its last id. */
  fail: (error: unknown) => void;
}

/**
 * A subscriber and how it is fed. `live`: by the poller, with everyone, from what each poll reads.
 * Otherwise catching up: it reads the log itself, a page at a time, as fast as its reader takes it.
 */
interface Follower {
  subscriber: Subscriber;
  live: boolean;
  /** The id up to which it was handed every change it follows, sent or not. */
  position: number;
  /** The resources it follows (its `recurso=` filter), or undefined for all of them. */
  resources: readonly string[] | undefined;
  conditions: Condition[];
  stopped: boolean;
}

/** How often the store is asked for newly committed changes while anyone listens. */
const POLL_MS = 250;
/** How soon the store is asked again while the horizon waits for transactions in progress (PostgreSQL). */
const AGAIN_MS = 50;
/** Changes read per query by the poller. */
const PAGE = 1000;
/** Changes read per query by a stream catching up: what it holds in memory beside its socket's buffer. */
const CATCH_UP_PAGE = 50;

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
 * later is higher, because sequences only grow. This holds because every write stores its record
 * before its change (resources/writes.ts): a transaction has an xid before it takes a change id,
 * and nextval alone gives it none. See docs/api.md, "The live feed".
 *
 * A stream is fed at the pace its reader reads: below the horizon it reads the log itself, a page
 * at a time, waiting for its reader between pages; at the horizon it joins the poller's delivery;
 * when its reader falls behind there, it leaves again and catches up from where it was.
 */
export class ChangeFeed {
  private readonly followers = new Set<Follower>();
  /** The followers of every resource, and those of each resource: a change is looked at by the ones it may concern only. */
  private readonly ofEverything = new Set<Follower>();
  private readonly ofResource = new Map<string, Set<Follower>>();
  /** Highest id up to which every change is visible, and was handed to the live followers. */
  private horizon: number | undefined;
  /** PostgreSQL: ids seen, each waiting for the transactions its snapshot saw in progress. */
  private pending: { snapshot: string; max: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** PostgreSQL: the next look, soon, while the horizon waits for transactions that were in progress. */
  private again: NodeJS.Timeout | undefined;
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

  /** Follows `subscriber` from its `last`, catching up from the store first. The returned function stops it. */
  subscribe(subscriber: Subscriber, conditions: Condition[]): () => void {
    const follower: Follower = { subscriber, live: false, position: subscriber.last, resources: resourcesOf(conditions), conditions, stopped: false };
    this.add(follower);
    this.start();
    void this.catchUp(follower, false);
    return () => {
      follower.stopped = true;
      this.remove(follower);
      if (this.followers.size === 0) this.stop();
    };
  }

  close(): void {
    this.closed = true;
    for (const follower of this.followers) {
      follower.stopped = true;
      this.remove(follower);
    }
    this.stop();
  }

  /**
   * Reads the log for `follower` from its position up to the horizon, a page at a time, writing a
   * change only once its reader has taken those before; then hands it to the poller. Only a reader
   * that stops reading holds it: `drained` settles when it reads again or its stream is gone.
   */
  private async catchUp(follower: Follower, full: boolean): Promise<void> {
    const { subscriber } = follower;
    try {
      if (full) await subscriber.drained();
      for (;;) {
        await new Promise(setImmediate);
        if (this.horizon === undefined) await this.poll();
        if (follower.stopped) return;
        // Read and compared with no wait in between: the poller moves the horizon only before it hands out what lies below it.
        const horizon = this.horizon ?? 0;
        if (follower.position >= horizon) {
          follower.live = true;
          return;
        }
        const rows = await changesWhere(this.db, sql`id > ${follower.position} and id <= ${horizon} ${filters(this.db, follower.conditions)}`, CATCH_UP_PAGE);
        for (const row of rows) {
          if (follower.stopped) return;
          if (!hand(follower, row, true)) await subscriber.drained();
        }
        if (rows.length < CATCH_UP_PAGE) follower.position = Math.max(follower.position, horizon);
      }
    } catch (error) {
      if (!follower.stopped) subscriber.fail(error);
    }
  }

  /** A live follower whose reader has not taken what it was sent: it catches up from the store once it has. */
  private fallBehind(follower: Follower, full: boolean): void {
    if (!follower.live) return;
    follower.live = false;
    void this.catchUp(follower, full);
  }

  private start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => void this.poll().catch(this.onError), POLL_MS);
  }

  private stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.again);
    this.timer = undefined;
  }

  /** One look at the store: advance the horizon, and hand what it uncovers to the live followers. */
  private poll(): Promise<void> {
    this.polling ??= this.advance().finally(() => (this.polling = undefined));
    return this.polling;
  }

  private async advance(): Promise<void> {
    const next = dialectOf(this.db) === 'postgres' ? await this.postgresHorizon() : await this.sqliteHorizon();
    // Those transactions are most often a write's, over in milliseconds: looked at again then, not a whole POLL_MS later.
    if (this.pending.length > 0 && this.timer && !this.again) {
      this.again = setTimeout(() => {
        this.again = undefined;
        void this.poll().catch(this.onError);
      }, AGAIN_MS);
    }
    const from = this.horizon;
    // Moved before anything below it is handed out: a follower that catches up to it reads that much itself.
    this.horizon = Math.max(from ?? 0, next);
    if (from === undefined || this.horizon <= from || this.followers.size === 0) return;
    try {
      await this.handOut(from, this.horizon);
    } catch (error) {
      // What a live follower was not handed, it reads from the store itself.
      for (const follower of this.followers) this.fallBehind(follower, false);
      throw error;
    }
  }

  /** The changes in (from, to] to the live followers of their resources. */
  private async handOut(from: number, to: number): Promise<void> {
    // Only the changes of resources someone follows are read.
    if (this.ofEverything.size === 0 && this.ofResource.size === 0) return;
    const wanted = this.ofEverything.size > 0 ? sql`` : sql`and recurso in (${sql.join([...this.ofResource.keys()])})`;
    let after = from;
    for (;;) {
      const rows = await changesWhere(this.db, sql`id > ${after} and id <= ${to} ${wanted}`, PAGE);
      for (const row of rows) {
        for (const followers of [this.ofEverything, this.ofResource.get(row.recurso)]) {
          for (const follower of followers ?? []) {
            if (follower.live && !hand(follower, row, follower.subscriber.matches(row))) this.fallBehind(follower, true);
          }
        }
      }
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]?.id ?? after;
    }
    for (const follower of this.followers) if (follower.live) follower.position = Math.max(follower.position, to);
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
    // Nothing is handed out before it is on disk (db/sqlite.ts): a write this process or another
    // committed may still be syncing. A failed sync is its writes' to report (503, not confirmed);
    // the feed goes on with the store as it stands, as reads do.
    await sqliteDurable(this.db)?.catch(() => {});
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

/**
 * Moves `follower` past `row`, sending it when it matches, is new to it and was not committed
 * before its stream opened. False when its reader has not yet taken what it was sent.
 */
function hand(follower: Follower, row: ChangeRow, matches: boolean): boolean {
  if (row.id <= follower.position) return true;
  follower.position = row.id;
  if (!matches || follower.subscriber.committedBefore?.has(row.id)) return true;
  return follower.subscriber.send(row);
}

/** The list's own filters (db/listing.ts), for a stream's catch-up. */
function filters(db: Db, conditions: Condition[]) {
  const where = filtersOf(db, changeList, conditions);
  return where.length === 0 ? sql`` : sql`and ${sql.join(where, sql` and `)}`;
}
