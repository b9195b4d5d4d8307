import { Readable } from 'node:stream';
import { allRows } from '../db/listing.js';
import type { Database, Db } from '../db/schema.js';
import { sqliteDurable } from '../db/sqlite.js';
import { etagOf } from './etag.js';
import type { Versions } from './versions.js';

/** A whole-table list: its bytes and their ETag, or, too large to hold, a stream of them. */
export type FullList = { body: Buffer; etag: string } | { stream: Readable };

/**
 * Lists up to this size are answered whole and kept until their table changes; larger ones stream.
 * What was read before a list proved larger is held until it streams out, so this bounds a big
 * list's memory too: the limit keeps a list of 10,000 movies cached and one of 100,000 under the
 * memory target (docs/development.md, "Measured choices").
 */
export const LIST_CACHE_MAX_BYTES = 4 * 1024 * 1024;
const CHUNK = 64 * 1024;

/**
 * The interface's whole-table answer, as fast as it can be: while the table's version is
 * unchanged, the bytes (and ETag) of the last answer. Otherwise the rows are read page by page;
 * a list that outgrows LIST_CACHE_MAX_BYTES is streamed from there on, never held in memory.
 */
export function fullList(db: Db, versions: Versions, table: keyof Database, key: string, serialize: (row: Record<string, unknown>) => string) {
  let cached: { version: number; body: Buffer; etag: string } | undefined;
  // The read under way, if any: requests that miss the cache together wait for it rather than each
  // reading the table (32 concurrent misses on PostgreSQL took seconds to answer the first).
  let reading: { version: number; done: Promise<void> } | undefined;

  return async function answer(): Promise<FullList> {
    // The version is read before the rows: a write in between leaves a cache that the next read refreshes.
    const { version } = await versions.of(table);
    if (reading?.version === version) await reading.done;
    if (cached?.version === version) return cached;

    let finish = () => {};
    const mine = { version, done: new Promise<void>((resolve) => (finish = resolve)) };
    reading = mine;
    try {
      return await read(version);
    } finally {
      // Waiters then find the list cached, or (too large to keep, or failed) read it themselves.
      if (reading === mine) reading = undefined;
      finish();
    }
  };

  async function read(version: number): Promise<FullList> {
    const pages = allRows(db, table, key);
    const chunks: Buffer[] = [];
    let pending = '[';
    let size = 0;
    const take = (rows: Record<string, unknown>[]) => {
      for (const row of rows) pending += (pending.length > 1 || size > 0 ? ',' : '') + serialize(row);
    };
    const flush = () => {
      const chunk = Buffer.from(pending);
      pending = '';
      size += chunk.length;
      return chunk;
    };

    // Stepped by hand: leaving a for-await loop early would close the generator that rest() continues.
    for (let page = await pages.next(); !page.done; page = await pages.next()) {
      take(page.value);
      if (pending.length < CHUNK) continue;
      chunks.push(flush());
      if (size > LIST_CACHE_MAX_BYTES) return { stream: Readable.from(rest()) };
    }
    pending += ']';
    const body = Buffer.concat([...chunks, flush()]);
    cached = { version, body, etag: etagOf(body) };
    return cached;

    /**
     * What was read so far, then the remaining pages as they are read. The answer waited for what
     * the first pages show to be on disk (api/durable.ts); a later page may show a commit made
     * since, so each piece waits for that commit's sync too before it goes out.
     */
    async function* rest() {
      yield* chunks.splice(0);
      for (let page = await pages.next(); !page.done; page = await pages.next()) {
        take(page.value);
        if (pending.length >= CHUNK) yield await onDisk(flush());
      }
      pending += ']';
      yield await onDisk(flush());
    }
  }

  /** The piece, once every commit it may show is on disk (a failed sync is its writes' to report, as for any read). */
  async function onDisk(piece: Buffer): Promise<Buffer> {
    await sqliteDurable(db)?.catch(() => {});
    return piece;
  }
}
