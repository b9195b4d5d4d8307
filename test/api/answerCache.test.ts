import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Versions } from '../../src/cache/versions.js';
import { answerCache } from '../../src/cache/answers.js';

/** A table version the test moves by hand. */
function fakeVersions() {
  let version = 1;
  const versions: Versions = { of: async () => ({ version, rows: 1 }), all: async () => new Map([['peliculas', { version, rows: 1 }]]), changedSince: () => undefined };
  return { versions, bump: () => version++ };
}

/** A store whose commits are all on disk (PostgreSQL's, or a SQLite one with no sync under way). */
const onDisk = () => undefined;

/** A cache whose answers are `key` repeated to `size` bytes, counting how often each was made. */
function counted(limits: { entries: number; bytes: number }, size = 10) {
  const { versions, bump } = fakeVersions();
  const cache = answerCache(versions, 'peliculas', limits, onDisk);
  const made: string[] = [];
  const get = async (key: string) => {
    const answer = await cache(key, async () => {
      made.push(key);
      return { body: key.repeat(size).slice(0, size), headers: { 'x-total-count': '1' } };
    });
    assert.equal(answer?.body.toString(), key.repeat(size).slice(0, size));
    return answer;
  };
  return { get, made, bump };
}

describe('the answer cache', () => {
  it('when an answer is made while a sync is under way, then it is marked on disk once that sync ends, and not when it fails', async () => {
    const { versions } = fakeVersions();
    const syncs: { resolve: () => void; reject: (error: Error) => void }[] = [];
    const durable = () => new Promise<void>((resolve, reject) => syncs.push({ resolve, reject }));
    const cache = answerCache(versions, 'peliculas', { entries: 10, bytes: 1000 }, durable);
    const [synced, failed] = [await cache('a', async () => ({ body: 'a' })), await cache('b', async () => ({ body: 'b' }))];
    assert.deepEqual([synced?.onDisk, failed?.onDisk], [false, false]);
    syncs[0]?.resolve();
    syncs[1]?.reject(new Error('EIO'));
    await new Promise(setImmediate);
    assert.deepEqual([synced?.onDisk, failed?.onDisk], [true, false]);
    assert.equal((await cache('c', async () => ({ body: 'c' })))?.onDisk, false);
    const idle = answerCache(versions, 'peliculas', { entries: 10, bytes: 1000 }, onDisk);
    assert.equal((await idle('a', async () => ({ body: 'a' })))?.onDisk, true, 'with nothing to sync, an answer is on disk as it is made');
  });

  it('when an answer is asked for again under the same version, then it is not made again', async () => {
    const { get, made } = counted({ entries: 10, bytes: 1000 });
    const first = await get('a');
    assert.equal(await get('a'), first);
    assert.deepEqual(first?.headers, { 'content-type': 'application/json; charset=utf-8', 'x-total-count': '1', etag: first?.etag });
    assert.deepEqual(made, ['a']);
  });

  it('when the version moves, then every answer is made again', async () => {
    const { get, made, bump } = counted({ entries: 10, bytes: 1000 });
    await get('a');
    await get('b');
    bump();
    await get('a');
    await get('b');
    assert.deepEqual(made, ['a', 'b', 'a', 'b']);
  });

  it('when more answers than the entry limit are kept, then the oldest leave first', async () => {
    const { get, made } = counted({ entries: 2, bytes: 1000 });
    for (const key of ['a', 'b', 'c', 'b', 'c', 'a']) await get(key);
    assert.deepEqual(made, ['a', 'b', 'c', 'a']);
  });

  it('when the bodies pass the byte limit, then the oldest leave until they fit', async () => {
    const { get, made } = counted({ entries: 100, bytes: 320 }, 20);
    for (const key of 'abcdefghijklmnopq') await get(key); // 17 × 20 bytes: a leaves
    await get('q');
    await get('b');
    await get('a');
    assert.deepEqual(made.slice(17), ['a']);
  });

  it('when one body is over a sixteenth of the byte limit, then it is answered but not kept', async () => {
    const { get, made } = counted({ entries: 100, bytes: 160 }, 11);
    await get('a');
    await get('a');
    assert.deepEqual(made, ['a', 'a']);
  });

  it('when there is nothing to answer, then nothing is kept', async () => {
    const { versions } = fakeVersions();
    const cache = answerCache(versions, 'peliculas', { entries: 10, bytes: 1000 }, onDisk);
    let calls = 0;
    const nothing = async () => {
      calls++;
      return undefined;
    };
    assert.equal(await cache('x', nothing), undefined);
    assert.equal(await cache('x', nothing), undefined);
    assert.equal(calls, 2);
  });

  it('when the version moves and the change log names the records that changed, then only their answers, and the answers about no one record, are made again', async () => {
    let version = 1;
    let changed: Set<number> | undefined = new Set([2]);
    const versions: Versions = { of: async () => ({ version, rows: 3 }), all: async () => new Map([['peliculas', { version, rows: 3 }]]), changedSince: (_, since) => (since === 1 ? changed : undefined) };
    const cache = answerCache(versions, 'peliculas', { entries: 10, bytes: 1000 }, onDisk);
    const made: string[] = [];
    const get = (key: string, record?: number) =>
      cache(key, async () => {
        made.push(key);
        return { body: key, ...(record !== undefined && { record }) };
      });
    await get('uno', 1);
    await get('dos', 2);
    await get('dos-también', 2);
    await get('página');
    version = 2;
    for (const key of ['uno', 'dos', 'dos-también', 'página']) await get(key, { uno: 1, dos: 2, 'dos-también': 2 }[key]);
    assert.deepEqual(made.slice(4), ['dos', 'dos-también', 'página']);

    // Not known which changed: every answer again.
    changed = undefined;
    version = 3;
    await get('uno', 1);
    assert.deepEqual(made.slice(7), ['uno']);
  });
});
