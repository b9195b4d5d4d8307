import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
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
  /**
   * The body gzipped, made the first time a client that takes gzip asks (off the event loop), then
   * kept with the answer; absent where compressing is not worth it.
   */
  gzipped?: () => Promise<Buffer>;
  /**
   * Whether every commit the answer shows is known to be on disk (SQLite syncs a commit after
   * reads can see it: db/sqlite.ts, Durability): a hit then answers without waiting for a sync
   * under way, which can only be of commits it does not show.
   */
  onDisk: boolean;
}

/** Undefined when every commit a read may see is on disk; else settles once it is (db/sqlite.ts, sqliteDurable). */
export type Durable = () => Promise<void> | undefined;

/**
 * `answer`, just made, marked on disk once the commits its read may have seen are: at once when
 * they already are, else when the sync under way or the next one ends (a failed sync leaves it
 * unmarked, its hits waiting as any read does).
 */
function onDiskOnce(answer: CachedAnswer, durable: Durable): CachedAnswer {
  const syncing = durable();
  if (syncing === undefined) answer.onDisk = true;
  else syncing.then(() => (answer.onDisk = true), () => {});
  return answer;
}

/** An answer smaller than this is sent as it is: gzip would save less than a packet. */
const WORTH_COMPRESSING = 1400;
const gzipAsync = promisify(gzip);

/** `body`'s gzip, made once, when first asked for. */
function gzippedOnce(body: Buffer): () => Promise<Buffer> {
  let made: Promise<Buffer> | undefined;
  return () => (made ??= gzipAsync(body));
}

const JSON_TYPE = 'application/json; charset=utf-8';

export interface CacheLimits {
  entries: number;
  /** All bodies together; an answer over a sixteenth of this is not kept. */
  bytes: number;
}

/**
 * Serialized answers that depend on one table only, the oldest leaving first past `limits`. A hit
 * skips the queries, the serialization and the hashing of the ETag. An answer is kept while the
 * table's version holds; when it moves (a write by any process), an answer about one record (a
 * lookup) is dropped only if that record changed, when the change log says which did
 * (Versions.changedSince); every other answer (a page: any write may move it) is dropped.
 */
export function answerCache(versions: Versions, table: keyof Database, limits: CacheLimits, durable: Durable) {
  const answers = new Map<string, CachedAnswer>();
  /** The record each answer is about, if it is about one; what was asked for the answers about each record, and for the others. */
  const recordOf = new Map<string, number>();
  const ofRecord = new Map<number, Set<string>>();
  const ofTable = new Set<string>();
  let bytes = 0;
  let version = -1;

  function forget(asked: string) {
    const answer = answers.get(asked);
    if (!answer) return;
    answers.delete(asked);
    bytes -= answer.body.length;
    const record = recordOf.get(asked);
    if (record === undefined) return void ofTable.delete(asked);
    recordOf.delete(asked);
    const asks = ofRecord.get(record);
    asks?.delete(asked);
    if (asks?.size === 0) ofRecord.delete(record);
  }

  function keep(asked: string, answer: CachedAnswer, record: number | undefined) {
    if (answer.body.length > limits.bytes / 16) return;
    forget(asked);
    answers.set(asked, answer);
    bytes += answer.body.length;
    if (record === undefined) ofTable.add(asked);
    else {
      recordOf.set(asked, record);
      let asks = ofRecord.get(record);
      if (!asks) ofRecord.set(record, (asks = new Set()));
      asks.add(asked);
    }
    for (const oldest of answers.keys()) {
      if (answers.size <= limits.entries && bytes <= limits.bytes) break;
      forget(oldest);
    }
  }

  /** After the table's version moved from `version`: drop what may have changed. */
  function moved(changed: ReadonlySet<number> | undefined) {
    if (changed === undefined) {
      answers.clear();
      recordOf.clear();
      ofRecord.clear();
      ofTable.clear();
      bytes = 0;
      return;
    }
    for (const asked of ofTable) forget(asked);
    for (const record of changed) for (const asked of ofRecord.get(record) ?? []) forget(asked);
  }

  /**
   * The answer kept for `asked` (what the request asked: a list's URL, a lookup's value), or the
   * one `make` serializes (undefined: nothing to answer). An answer about one record says which
   * (`record`, its key); one whose ETag is not its bytes' hash (a rendition's) gives it (`etag`).
   */
  return async function answer(
    asked: string,
    make: (state: TableState) => Promise<{ body: string | Buffer; etag?: string; headers?: Record<string, string>; record?: number } | undefined>,
  ): Promise<CachedAnswer | undefined> {
    // Read before the rows: a write in between leaves an answer that the next version check drops.
    const state = await versions.of(table);
    const current = state.version;
    if (current !== version) {
      moved(version < 0 ? undefined : versions.changedSince(table, version));
      version = current;
    }
    const kept = answers.get(asked);
    if (kept) return kept;
    const made = await make(state);
    if (made === undefined) return undefined;
    const etag = made.etag ?? etagOf(made.body);
    const body = typeof made.body === 'string' ? Buffer.from(made.body) : made.body;
    const answer = onDiskOnce({ body, etag, headers: { 'content-type': JSON_TYPE, ...made.headers, etag }, onDisk: false }, durable);
    // Kept only if no newer version was seen while the rows were read.
    if (current === version) keep(asked, answer, made.record);
    return answer;
  };
}

/**
 * Serialized answers that depend on several tables (what's on: showtimes, venues, items,
 * categories, artists), kept while none of their versions moves and all dropped when one does, the
 * oldest leaving first past `limits`. `asked` must say everything the answer depends on besides
 * the tables (the request's URL, the window's days, the public address).
 */
export function tablesAnswerCache(versions: Versions, tables: readonly (keyof Database)[], limits: CacheLimits, durable: Durable) {
  const answers = new Map<string, CachedAnswer>();
  /** Answers being made, by what was asked and the versions: requests that ask the same meanwhile wait for the one answer. */
  const making = new Map<string, Promise<CachedAnswer>>();
  let bytes = 0;
  let seen: number[] = [];

  function keep(asked: string, answer: CachedAnswer) {
    if (answer.body.length > limits.bytes / 16) return;
    answers.set(asked, answer);
    bytes += answer.body.length;
    for (const [oldest, old] of answers) {
      if (answers.size <= limits.entries && bytes <= limits.bytes) break;
      answers.delete(oldest);
      bytes -= old.body.length;
    }
  }

  return async function answer(asked: string, type: string, make: () => Promise<{ body: string; headers?: Record<string, string> }>): Promise<CachedAnswer> {
    // Read before the rows: a write in between leaves an answer that the next look drops.
    const states = await versions.all();
    let now = tables.map((t) => states.get(t)?.version ?? 0);
    if (now.some((version, i) => version !== seen[i])) {
      answers.clear();
      bytes = 0;
      seen = now;
    } else now = seen;
    const kept = answers.get(asked);
    if (kept) return kept;
    const key = `${now.join(',')} ${asked}`;
    let made = making.get(key);
    if (!made) {
      made = make().then((m) => {
        const etag = etagOf(m.body);
        const body = Buffer.from(m.body);
        const answer = onDiskOnce({
          body, etag, headers: { 'content-type': type, ...m.headers, etag }, onDisk: false,
          ...(body.length >= WORTH_COMPRESSING && { gzipped: gzippedOnce(body) }),
        }, durable);
        // Kept only if no newer version was seen while the rows were read.
        if (seen === now) keep(asked, answer);
        return answer;
      });
      making.set(key, made);
      const forget = () => making.delete(key);
      made.then(forget, forget);
    }
    return made;
  };
}
