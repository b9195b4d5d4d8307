import { randomInt } from 'node:crypto';
import type { TestContext } from 'node:test';

/**
 * The seed of a random test: TEST_SEED when set, which replays a run, else a new one. The test
 * prints it as its diagnostic, which the report shows whether the test passes or fails.
 */
export function seedFor(t: TestContext): number {
  const given = process.env.TEST_SEED;
  const seed = given === undefined || given === '' ? randomInt(2 ** 31) : Number(given);
  if (!Number.isSafeInteger(seed)) throw new Error(`TEST_SEED must be an integer (got "${given}")`);
  t.diagnostic(`seed ${seed} (TEST_SEED=${seed} replays it)`);
  return seed;
}

/** Numbers in [0, 1), the same sequence for the same seed (mulberry32): Math.random for a test that replays. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}
