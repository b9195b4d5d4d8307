// An .xlsx workbook is read as its sheets unpack (src/transfer/read/xlsx.ts): its rows are handed
// on as they are parsed, never held as a list, its sheets still come in the order resources refer
// to each other, and what it tells of its bytes follows all its passes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Incoming } from '../../src/transfer/read/types.js';
import { readXlsx } from '../../src/transfer/read/xlsx.js';
import { workbookOf, type PlainSheet } from '../../src/transfer/write/workbook.js';
import { seededRandom, seedFor } from '../random.js';

const text = (field: string, label: string) => ({ field, label, kind: 'text' as const });
const categories = (names: string[]): PlainSheet => ({ name: 'Categorías', columns: [text('nombre', 'Nombre')], rows: names.map((name) => [name]) });
const movies = (rows: PlainSheet['rows']): PlainSheet => ({
  name: 'Películas',
  columns: [text('titulo', 'Título'), text('sipnosis', 'Sinopsis'), { field: 'duracion', label: 'Duración (minutos)', kind: 'number' }, text('categoria', 'Categoría')],
  rows,
});

/** What had been told when the first record of each resource came, and every record's resource, sheet, row and title or name. */
async function readAll(batches: AsyncIterable<Incoming[]>, told: () => number) {
  const firstAt = new Map<string, number>();
  const records: unknown[][] = [];
  const others: Incoming[] = [];
  for await (const batch of batches) {
    for (const item of batch) {
      if (!('record' in item)) {
        others.push(item);
        continue;
      }
      if (!firstAt.has(item.resource.name)) firstAt.set(item.resource.name, told());
      records.push([item.resource.name, item.place.sheet, item.place.row, item.record.nombre ?? item.record.titulo]);
    }
  }
  return { firstAt, records, others };
}

describe('.xlsx read as it unpacks', () => {
  it('when a sheet holds thousands of rows, then the first records are handed on before the archive is read through, and every row comes in order', async (t) => {
    const random = seededRandom(seedFor(t));
    // Synopses of random letters: the archive stays many pieces long once compressed.
    const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
    const rows = Array.from({ length: 4000 }, (_, i) => [`Película ${i + 1}`, letters(150), 90, 'Drama']);
    const bytes = await workbookOf([categories(['Drama']), movies(rows)]);
    let told = 0;
    const { firstAt, records } = await readAll(readXlsx('catalogo.xlsx', bytes, (n) => (told += n)), () => told);
    assert.ok(bytes.length > 4 * 64 * 1024, `an archive of ${bytes.length} bytes`);
    // Three passes, a third each: the strings and styles, the check, the records.
    const first = firstAt.get('peliculas') ?? Infinity;
    assert.ok(first < bytes.length * (2 / 3 + 1 / 6), `the first movies came when ${first} of ${bytes.length} bytes were told`);
    assert.equal(told, bytes.length);
    assert.deepEqual(records, [['categorias', 'Categorías', 2, 'Drama'], ...rows.map((m, i) => ['peliculas', 'Películas', i + 2, m[0]])]);
  });

  it('when a workbook keeps movies before the categories they name, then the categories come first, a sheet of no resource is a problem, and what is told of its bytes reaches its size only as the movies\' pass ends', async (t) => {
    const random = seededRandom(seedFor(t));
    const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
    const rows = Array.from({ length: 2000 }, (_, i) => [`Película ${i + 1}`, letters(150), 114, 'Drama']);
    const bytes = await workbookOf([movies(rows), { name: 'Notas', columns: [text('x', 'Nota')], rows: [['algo']] }, categories(['Drama']), { name: 'Vacía', columns: [], rows: [] }]);
    let told = 0;
    const { firstAt, records, others } = await readAll(readXlsx('catalogo.xlsx', bytes, (n) => (told += n)), () => told);
    assert.deepEqual(records.slice(0, 2), [['categorias', 'Categorías', 2, 'Drama'], ['peliculas', 'Películas', 2, 'Película 1']]);
    assert.equal(records.length, 2001);
    assert.deepEqual(others.map((item) => ('problem' in item ? item.place.sheet : undefined)), ['Notas']);
    // Four passes, a quarter each: the strings and styles, the check, the categories, the movies.
    const first = firstAt.get('peliculas') ?? Infinity;
    assert.ok(first < bytes.length * 0.9, `the first movies came when ${first} of ${bytes.length} bytes were told`);
    assert.equal(told, bytes.length);
  });
});
