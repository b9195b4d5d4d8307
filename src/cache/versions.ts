import { dialectOf } from '../db/dialect.js';
import { changeSignals, type ChangeSignals } from '../db/sqlite.js';
import { sql } from 'kysely';
import type { Database, Db } from '../db/schema.js';

/** A table as `versiones` describes it: its version and how many rows it holds. */
export interface TableState {
  version: number;
  rows: number;
}

/**
 * Whether a table changed, and its size: the sums of its rows in `versiones` (one on SQLite, one
 * per connection slot on PostgreSQL: migration 0006), which the store's own triggers keep on every
 * change, whichever connection or process made it (migrations 0003 and 0004). Every cache keeps
 * its answers under the version it read them at, and looks again when the version moves: no
 * writer needs to know about caches.
 *
 * Which records changed comes from the change log, read in the same statement as the versions (so
 * from the same snapshot): the changes logged since the last look, by table. When they account for
 * every step of a table's version (one step per row written on SQLite, per statement on
 * PostgreSQL; one change per row changed), a cache may drop the answers of those records alone.
 * When they do not (a write that changed nothing, a change committed out of id order on
 * PostgreSQL, an edit made outside the service, a burst larger than CHANGES_READ), nobody knows
 * which records changed, and caches drop everything.
 */
export interface Versions {
  of(table: keyof Database): Promise<TableState>;
  /** Every table's state, as `of` answers each: one look for an answer that reads several tables. */
  all(): Promise<ReadonlyMap<string, TableState>>;
  /**
   * The keys of the table's records changed from version `since` to the version last answered by
   * `of`; undefined when that is not known.
   */
  changedSince(table: keyof Database, since: number): ReadonlySet<number> | undefined;
}

type States = Map<string, TableState>;
const NONE: TableState = { version: 0, rows: 0 };

/** Changes read at most per look; past that, caches drop everything they hold of the tables that moved. */
const CHANGES_READ = 2000;
/** Steps of a table's version remembered; a cache further behind drops everything. */
const HISTORY = 64;

/** One step of a table's version: the keys changed, or undefined when they are not known. */
interface Step {
  from: number;
  to: number;
  keys: Set<number> | undefined;
}

/**
 * A row of the read below as the store answers it: the function of migration 0006 names its
 * columns `kind`, `a`, `b`, `c`, and `kind` says what the others hold.
 */
type VersionsRow = { kind: number; a: string; b: number | string; c: number | string };

/** What a row says: a table's version and row count, a change logged since the last look, or the newest change's id. */
type VersionsFact =
  | { is: 'table'; table: string; state: TableState }
  | { is: 'change'; recurso: string; clave: number; id: number }
  | { is: 'newest'; id: number };

function decoded(row: VersionsRow): VersionsFact {
  switch (Number(row.kind)) {
    case 0:
      return { is: 'table', table: row.a, state: { version: Number(row.b), rows: Number(row.c) } };
    case 1:
      return { is: 'change', recurso: row.a, clave: Number(row.b), id: Number(row.c) };
    default:
      return { is: 'newest', id: Number(row.b) };
  }
}

/** `tableOf`: the table each resource of the change log (`cambios.recurso`) lives in. */
export function tableVersions(db: Db, tableOf: Record<string, string>): Versions {
  const history = new Map<string, Step[]>();
  let states: States | undefined;
  let lastChange: number | undefined;

  // Every table's version and row count at once (the sums of its rows, migration 0006), the changes
  // since the last look, and the newest change's id: one statement, one snapshot. On PostgreSQL, a
  // function that runs the same three queries with their plans kept (migration 0006).
  const postgres = dialectOf(db) === 'postgres';
  const readAll = async (): Promise<States> => {
    // The first look reads no change: it is where the history starts.
    const since = lastChange ?? 0;
    const limit = lastChange === undefined ? 0 : CHANGES_READ + 1;
    const { rows } = await (postgres
      ? sql<VersionsRow>`select * from cartelera_versiones(${since}, ${limit})`
      : sql<VersionsRow>`
      select 0 as kind, tabla as a, sum(version) as b, sum(filas) as c from versiones group by tabla
      union all select * from (select 1 as kind, recurso as a, clave as b, id as c from cambios where id > ${since} order by id limit ${limit}) as changes
      union all select 2 as kind, '' as a, coalesce(max(id), 0) as b, 0 as c from cambios`
    ).execute(db);
    const next: States = new Map();
    const logged = new Map<string, number[]>();
    let newest = 0;
    let changes = 0;
    // Reads may overlap (PostgreSQL's pool): a change an earlier read already counted is not counted again.
    const counted = lastChange ?? Number.MAX_SAFE_INTEGER;
    for (const row of rows.map(decoded)) {
      if (row.is === 'table') next.set(row.table, row.state);
      else if (row.is === 'change') {
        changes++;
        if (row.id <= counted) continue;
        const table = tableOf[row.recurso] ?? row.recurso;
        let keys = logged.get(table);
        if (!keys) logged.set(table, (keys = []));
        keys.push(row.clave);
      } else newest = row.id;
    }
    // A read that finished after a newer one: its states are older; it changes nothing here.
    if ([...next].some(([table, state]) => state.version < (states?.get(table)?.version ?? 0))) return next;
    const complete = lastChange !== undefined && changes <= CHANGES_READ;
    for (const [table, state] of next) {
      const before = states?.get(table);
      if (!before || before.version === state.version) continue;
      const keys = logged.get(table) ?? [];
      const step: Step = { from: before.version, to: state.version, keys: complete && keys.length === state.version - before.version ? new Set(keys) : undefined };
      const steps = history.get(table) ?? [];
      steps.push(step);
      if (steps.length > HISTORY) steps.shift();
      history.set(table, steps);
    }
    states = next;
    lastChange = Math.max(lastChange ?? 0, newest);
    return next;
  };

  const changedSince = (table: keyof Database, since: number): ReadonlySet<number> | undefined => {
    if (states?.get(table)?.version === since) return new Set();
    const steps = history.get(table) ?? [];
    const first = steps.findIndex((step) => step.from === since);
    if (first < 0) return undefined;
    const keys = new Set<number>();
    for (const step of steps.slice(first)) {
      if (!step.keys) return undefined;
      for (const key of step.keys) keys.add(key);
    }
    return keys;
  };

  const signals = changeSignals(db);
  const all = signals ? sqliteVersions(signals, readAll) : sharedReads(readAll);
  return { of: async (table) => (await all()).get(table) ?? NONE, all, changedSince };
}

/**
 * PostgreSQL: a query per request would cost as much as the lookup it saves. Requests that arrive
 * in one turn of the event loop share one read, sent once that turn is over: it starts after each of
 * them arrived, so it sees every write acknowledged before any of them was sent.
 */
function sharedReads(readAll: () => Promise<States>): () => Promise<States> {
  let next: Promise<States> | undefined;
  return () =>
    (next ??= new Promise<States>((resolve, reject) =>
      setImmediate(() => {
        next = undefined;
        readAll().then(resolve, reject);
      }),
    ));
}

/**
 * SQLite: data_version changes only when another connection commits, and the connections of this
 * process count their own writes; while neither moved, the states last read still hold without
 * reading a table.
 */
function sqliteVersions(signals: ChangeSignals, readAll: () => Promise<States>): () => Promise<States> {
  // Requests handled in one turn of the event loop were all in flight together, so a commit by
  // another connection that one of them cannot see is concurrent with all of them: one look per
  // turn serves them all. Writes from this process are counted instead, so they show at once.
  let thisTurn: number | undefined;
  const dataVersionOf = () => {
    if (thisTurn === undefined) {
      thisTurn = signals.dataVersion();
      setImmediate(() => (thisTurn = undefined));
    }
    return thisTurn;
  };
  let known: States | undefined;
  let seen = { dataVersion: -1, writes: -1 };
  return async () => {
    const dataVersion = dataVersionOf();
    const writes = signals.writesInProcess();
    if (dataVersion !== seen.dataVersion || writes !== seen.writes) {
      known = undefined;
      seen = { dataVersion, writes };
    }
    let states = known;
    if (states === undefined) {
      states = await readAll();
      // A write may have landed while reading; keep the states only if nothing moved meanwhile.
      if (signals.writesInProcess() === seen.writes) known = states;
    }
    return states;
  };
}
