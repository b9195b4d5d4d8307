import { changeSignals, type ChangeSignals } from '../db/sqlite.js';
import type { Database, Db } from '../db/schema.js';

/** A table as `versiones` describes it: its version and how many rows it holds. */
export interface TableState {
  version: number;
  rows: number;
}

/**
 * Whether a table changed, and its size: its row in `versiones`, which the store's own triggers
 * keep on every change, whichever connection or process made it (migrations 0003 and 0004). Every
 * cache keeps its answers under the version it read them at, and drops them when the version
 * moves: that is the one invalidation rule, and no writer needs to know about caches.
 */
export interface Versions {
  of(table: keyof Database): Promise<TableState>;
}

type States = Map<string, TableState>;
const NONE: TableState = { version: 0, rows: 0 };

export function tableVersions(db: Db): Versions {
  // Every table's row at once: six short rows cost about what one does.
  const readAll = async (): Promise<States> => {
    const rows = await db.selectFrom('versiones').select(['tabla', 'version', 'filas']).execute();
    return new Map(rows.map((row) => [row.tabla, { version: Number(row.version), rows: Number(row.filas) }]));
  };
  const signals = changeSignals(db);
  return signals ? sqliteVersions(signals, readAll) : sharedReads(readAll);
}

/**
 * PostgreSQL: a query per request would cost as much as the lookup it saves. Requests that arrive
 * in one turn of the event loop share one read, sent once that turn is over: it starts after each of
 * them arrived, so it sees every write acknowledged before any of them was sent.
 */
function sharedReads(readAll: () => Promise<States>): Versions {
  let next: Promise<States> | undefined;
  return {
    async of(table) {
      next ??= new Promise<States>((resolve, reject) =>
        setImmediate(() => {
          next = undefined;
          readAll().then(resolve, reject);
        }),
      );
      return (await next).get(table) ?? NONE;
    },
  };
}

/**
 * SQLite: data_version changes only when another connection commits, and the connections of this
 * process count their own writes; while neither moved, the states last read still hold without
 * reading a table.
 */
function sqliteVersions(signals: ChangeSignals, readAll: () => Promise<States>): Versions {
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
  return {
    async of(table) {
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
      return states.get(table) ?? NONE;
    },
  };
}
