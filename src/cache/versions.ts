import { sqliteOf } from '../db/connect.js';
import type { Database, Db } from '../db/schema.js';

/**
 * Whether a table changed: its row in `versiones`, which the store's own triggers bump on every
 * change, whichever connection or process made it (migration 0003). Every cache keeps its answers
 * under the version it read them at, and drops them when the version moves: that is the one
 * invalidation rule, and no writer needs to know about caches.
 */
export interface Versions {
  /** The table's current version. */
  of(table: keyof Database): Promise<number>;
  /**
   * Whether of() usually answers from memory. When it must ask the database (PostgreSQL), reading
   * a version costs as much as a one-row query, so only answers dearer than that are worth caching.
   */
  inMemory: boolean;
}

export function tableVersions(db: Db): Versions {
  const read = async (table: keyof Database) =>
    Number((await db.selectFrom('versiones').select('version').where('tabla', '=', table).executeTakeFirst())?.version ?? 0);
  const sqlite = sqliteOf(db);
  if (!sqlite) return { of: read, inMemory: false };

  // SQLite: data_version changes only when another connection commits, and the connections of this
  // process count their own writes; while neither moved, the versions last read still hold without reading a table.
  // Prepared once: pragma() would prepare the statement on every call.
  const dataVersionStatement = sqlite.handle.prepare('PRAGMA data_version').pluck();
  // Requests handled in one turn of the event loop were all in flight together, so a commit by
  // another connection that one of them cannot see is concurrent with all of them: one look per
  // turn serves them all. Writes from this process are counted instead, so they show at once.
  let thisTurn: number | undefined;
  const dataVersionOf = () => {
    if (thisTurn === undefined) {
      thisTurn = dataVersionStatement.get() as number;
      setImmediate(() => (thisTurn = undefined));
    }
    return thisTurn;
  };
  const known = new Map<string, number>();
  let seen = { dataVersion: -1, writes: -1 };
  return {
    async of(table) {
      const dataVersion = dataVersionOf();
      const writes = sqlite.writes();
      if (dataVersion !== seen.dataVersion || writes !== seen.writes) {
        known.clear();
        seen = { dataVersion, writes };
      }
      let version = known.get(table);
      if (version === undefined) {
        version = await read(table);
        // A write may have landed while reading; keep it only if nothing moved meanwhile.
        if (sqlite.writes() === seen.writes) known.set(table, version);
      }
      return version;
    },
    inMemory: true,
  };
}
