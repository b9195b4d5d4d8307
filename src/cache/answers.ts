import type { Database } from '../db/schema.js';
import { etagOf } from './etag.js';
import type { TableState, Versions } from './versions.js';

export interface CachedAnswer {
  body: Buffer;
  etag: string;
  /**
   * Every header the answer carries of its own, built once with it: its type, a page's
   * X-Total-Count and Link, and its ETag. A hit then sets them in one call.
   */
  headers: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export interface CacheLimits {
  entries: number;
  /** All bodies together; an answer over a sixteenth of this is not kept. */
  bytes: number;
}

/**
 * Serialized answers that depend on one table only, kept while that table's version holds (any
 * write to the table, by any process, drops them all), the oldest leaving first past `limits`. A hit
 * skips the queries, the serialization and the hashing of the ETag.
 */
export function answerCache(versions: Versions, table: keyof Database, limits: CacheLimits) {
  const answers = new Map<string, CachedAnswer>();
  let bytes = 0;
  let version = -1;

  function keep(key: string, answer: CachedAnswer) {
    if (answer.body.length > limits.bytes / 16) return;
    answers.set(key, answer);
    bytes += answer.body.length;
    for (const [oldest, old] of answers) {
      if (answers.size <= limits.entries && bytes <= limits.bytes) break;
      answers.delete(oldest);
      bytes -= old.body.length;
    }
  }

  /** The answer kept under `key`, or the one `make` serializes (undefined: nothing to answer). */
  return async function answer(
    key: string,
    make: (state: TableState) => Promise<{ body: string; headers?: Record<string, string> } | undefined>,
  ): Promise<CachedAnswer | undefined> {
    // Read before the rows: a write in between leaves an answer that the next version check drops.
    const state = await versions.of(table);
    const current = state.version;
    if (current !== version) {
      answers.clear();
      bytes = 0;
      version = current;
    }
    const kept = answers.get(key);
    if (kept) return kept;
    const made = await make(state);
    if (made === undefined) return undefined;
    const etag = etagOf(made.body);
    const answer = { body: Buffer.from(made.body), etag, headers: { 'content-type': JSON_TYPE, ...made.headers, etag } };
    // Kept only if no newer version was seen while the rows were read.
    if (current === version) keep(key, answer);
    return answer;
  };
}
