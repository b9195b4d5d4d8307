import type { Database } from '../db/schema.js';
import type { Versions } from '../db/versions.js';
import { etagOf } from './conditional.js';

export interface CachedAnswer {
  body: Buffer;
  etag: string;
}

/**
 * Serialized answers that depend on one table only, kept while that table's version holds (any
 * write to the table, by any process, drops them all). At most `maxEntries`, the oldest leaving
 * first. A hit skips the query, the serialization and the hashing of the ETag: about a third of
 * a lookup's time on SQLite.
 */
export function answerCache(versions: Versions, table: keyof Database, maxEntries: number) {
  const answers = new Map<string, CachedAnswer>();
  let version = -1;

  /** The answer kept under `key`, or the one `make` serializes (undefined: nothing to answer). */
  return async function answer(key: string, make: () => Promise<string | undefined>): Promise<CachedAnswer | undefined> {
    // Read before the rows: a write in between leaves an answer that the next version check drops.
    const current = await versions.of(table);
    if (current !== version) {
      answers.clear();
      version = current;
    }
    const kept = answers.get(key);
    if (kept) return kept;
    const serialized = await make();
    if (serialized === undefined) return undefined;
    const made = { body: Buffer.from(serialized), etag: etagOf(serialized) };
    // Kept only if no newer version was seen while the rows were read.
    if (current === version) {
      if (answers.size >= maxEntries) answers.delete(answers.keys().next().value as string);
      answers.set(key, made);
    }
    return made;
  };
}
