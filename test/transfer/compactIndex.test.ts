import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CompactIndex } from '../../src/transfer/compactIndex.js';
import { PlaceCodes } from '../../src/transfer/placeCodes.js';
import type { Place } from '../../src/transfer/read/types.js';
import { seedFor } from '../random.js';

// What an import knows of every title and key (src/transfer/import.ts) is held in CompactIndex,
// outside the heap: each of its columns must answer exactly as a Map of its own would, for any
// texts and numbers.

type Operation<K> = ({ set: K; value: number } | { delete: K } | { get: K }) & { column: number };

const COLUMNS = 2;

function operations<K>(key: fc.Arbitrary<K>): fc.Arbitrary<Operation<K>[]> {
  const value = fc.oneof(fc.integer({ min: 1, max: 2 ** 31 }), fc.constant(2 ** 53 - 1));
  const column = fc.integer({ min: 0, max: COLUMNS - 1 });
  return fc.array(fc.oneof(fc.record({ set: key, value, column }), fc.record({ delete: key, column }), fc.record({ get: key, column })), { maxLength: 3000 });
}

/** Runs the operations on a CompactIndex of two columns and on a Map per column, and answers whether every get answered the same, and then every key. */
function sameAsMap<K extends string | number>(ops: Operation<K>[]): void {
  const index = new CompactIndex<K>(COLUMNS);
  const maps = Array.from({ length: COLUMNS }, () => new Map<K, number>());
  for (const op of ops) {
    const map = maps[op.column] as Map<K, number>;
    if ('set' in op) {
      index.set(op.set, op.value, op.column);
      map.set(op.set, op.value);
    } else if ('delete' in op) {
      index.delete(op.delete, op.column);
      map.delete(op.delete);
    } else assert.equal(index.get(op.get, op.column), map.get(op.get), `get ${String(op.get)} of column ${op.column}`);
  }
  for (const op of ops) {
    const key = 'set' in op ? op.set : 'delete' in op ? op.delete : op.get;
    maps.forEach((map, column) => {
      assert.equal(index.get(key, column), map.get(key), `at the end, get ${String(key)} of column ${column}`);
      assert.equal(index.has(key, column), map.has(key));
    });
  }
}

describe('CompactIndex and PlaceCodes', () => {
  it('when texts of any characters (titles that differ in one accent, long ones, empty ones) are set, deleted and got, then each column answers as a Map does', (t) => {
    // A small alphabet makes keys meet often: prefixes of each other, equal, differing in one accent.
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'á', 'b', ' ', 'ß', '😀', '\u0301'), maxLength: 6 }),
      fc.string({ unit: 'grapheme', maxLength: 400 }),
    );
    fc.assert(fc.property(operations(text), sameAsMap), { seed: seedFor(t), numRuns: 60 });
  });

  it('when numbers (ids, dnis up to 2^53 - 1) are set, deleted and got, then each column answers as a Map does', (t) => {
    const key = fc.oneof(fc.integer({ min: 1, max: 5000 }), fc.constant(2 ** 53 - 1), fc.integer({ min: 1, max: 2 ** 31 }));
    fc.assert(fc.property(operations(key), sameAsMap), { seed: seedFor(t), numRuns: 60 });
  });

  it('when 100,000 titles are set, then each answers its own value, and one never set answers nothing', () => {
    const index = new CompactIndex<string>();
    for (let i = 1; i <= 100_000; i++) index.set(`película ${i}`, i);
    for (let i = 1; i <= 100_000; i++) assert.equal(index.get(`película ${i}`), i);
    assert.equal(index.get('película 100001'), undefined);
    assert.equal(index.get('pelicula 1'), undefined);
  });

  it('when places of every kind are coded, then each comes back as it was', () => {
    const codes = new PlaceCodes();
    const places: Place[] = [
      { file: 'peliculas.csv', row: 2 },
      { file: 'peliculas.csv', row: 230_001 },
      { file: 'catalogo.xlsx', sheet: 'Películas', row: 3 },
      { file: 'catalogo.xlsx', sheet: 'Obras', row: 3 },
      { file: 'catalogo.json', list: 'peliculas', position: 1 },
      { file: 'catalogo.json', list: 'Obras', position: 8_000_000_000 },
      { file: 'catalogo.ndjson', line: 7 },
      { file: 'catalogo.json' },
    ];
    const coded = places.map((place) => codes.code(place));
    assert.deepEqual(coded.map((code) => codes.place(code)), places);
    assert.equal(new Set(coded).size, places.length);
  });

  it('when places that share a file but not a shape come one after another, then each comes back as it was', () => {
    const codes = new PlaceCodes();
    const places: Place[] = [
      { file: 'catalogo.json', list: 'peliculas', position: 2 },
      { file: 'catalogo.json', list: 'peliculas', position: 3 },
      { file: 'catalogo.json', list: 'Obras', position: 3 },
      { file: 'catalogo.json' },
      { file: 'catalogo.xlsx', sheet: 'Películas', row: 4 },
      { file: 'catalogo.xlsx', row: 4 },
      { file: 'catalogo.xlsx', line: 4 },
      { file: 'catalogo.xlsx', sheet: 'Películas', row: 5 },
    ];
    const coded = places.map((place) => codes.code(place));
    assert.deepEqual(coded.map((code) => codes.place(code)), places);
    assert.equal(new Set(coded).size, places.length);
  });
});
