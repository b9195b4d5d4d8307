// An .ods workbook is read as its content.xml unpacks (src/transfer/read/ods.ts): its rows are
// handed on as they are parsed, never held as a list, and its sheets still come in the order
// resources refer to each other, whatever order the workbook keeps them in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { readOds } from '../../src/transfer/read/ods.js';
import type { Incoming } from '../../src/transfer/read/types.js';
import { seededRandom, seedFor } from '../random.js';

const NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
].join(' ');

const cell = (value: string | number) =>
  typeof value === 'number'
    ? `<table:table-cell office:value-type="float" office:value="${value}"><text:p>${value}</text:p></table:table-cell>`
    : `<table:table-cell office:value-type="string"><text:p>${value}</text:p></table:table-cell>`;

/** An .ods archive as LibreOffice lays it out: the mimetype first and stored, then content.xml. */
function workbook(sheets: { name: string; rows: (string | number)[][] }[]): Buffer {
  const tables = sheets.map((s) => `<table:table table:name="${s.name}">${s.rows.map((r) => `<table:table-row>${r.map(cell).join('')}</table:table-row>`).join('')}</table:table>`);
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}><office:body><office:spreadsheet>${tables.join('')}</office:spreadsheet></office:body></office:document-content>`;
  return Buffer.from(zipSync({ mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }], 'content.xml': strToU8(content) }));
}

/** What had been told when the first record of each resource came. */
async function toldAtFirstOf(batches: AsyncIterable<Incoming[]>, told: () => number): Promise<Map<string, number>> {
  const at = new Map<string, number>();
  for await (const batch of batches) for (const item of batch) if ('record' in item && !at.has(item.resource.name)) at.set(item.resource.name, told());
  return at;
}

const recordsOf = (items: Incoming[]) => items.flatMap((item) => ('record' in item ? [[item.resource.name, item.place.sheet, item.place.row, item.record.nombre ?? item.record.titulo]] : []));

describe('.ods read as it unpacks', () => {
  it('when a sheet holds thousands of rows, then the first records are handed on before the archive is read through, and every row comes in order', async (t) => {
    const random = seededRandom(seedFor(t));
    // Synopses of random letters: the archive stays many pieces long once compressed.
    const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
    const movies = Array.from({ length: 4000 }, (_, i) => [`Película ${i + 1}`, letters(150), 90, 1]);
    const bytes = workbook([{ name: 'peliculas', rows: [['titulo', 'sipnosis', 'duracion', 'categoria_id'], ...movies] }]);
    let told = 0;
    let toldAtFirst: number | undefined;
    const read: Incoming[] = [];
    for await (const batch of readOds('catalogo.ods', bytes, (n) => (told += n))) {
      if (toldAtFirst === undefined && batch.some((item) => 'record' in item)) toldAtFirst = told;
      read.push(...batch);
    }
    assert.ok(bytes.length > 4 * 64 * 1024, `an archive of ${bytes.length} bytes`);
    // The check's pass is the first half of what is told, the records' pass the second.
    assert.ok(toldAtFirst !== undefined && toldAtFirst < bytes.length * 0.75, `the first records came after ${toldAtFirst} of ${bytes.length} bytes`);
    assert.equal(told, bytes.length);
    assert.deepEqual(recordsOf(read), movies.map((m, i) => ['peliculas', 'peliculas', i + 2, m[0]]));
  });

  it('when a workbook keeps movies before the categories they name, then what is told of its bytes reaches its size only as the movies\' pass ends', async (t) => {
    const random = seededRandom(seedFor(t));
    const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
    const bytes = workbook([
      { name: 'Películas', rows: [['Título', 'Sinopsis', 'Duración', 'Categoría'], ...Array.from({ length: 2000 }, (_, i) => [`Película ${i + 1}`, letters(150), 90, 'Drama'])] },
      { name: 'Categorías', rows: [['Nombre'], ['Drama']] },
    ]);
    let told = 0;
    const at = await toldAtFirstOf(readOds('catalogo.ods', bytes, (n) => (told += n)), () => told);
    // Three passes, a third each: the check, the categories, the movies.
    assert.ok((at.get('peliculas') ?? Infinity) < bytes.length * 0.9, `the first movies came when ${at.get('peliculas')} of ${bytes.length} bytes were told`);
    assert.equal(told, bytes.length);
  });

  it('when a workbook keeps movies before the categories they name, then the categories come first, and a sheet of no resource is a problem', async () => {
    const bytes = workbook([
      { name: 'Películas', rows: [['Título', 'Sinopsis', 'Duración', 'Categoría'], ['Nueve reinas', 's', 114, 'Drama']] },
      { name: 'Notas', rows: [['algo']] },
      { name: 'Categorías', rows: [['Nombre'], ['Drama']] },
      { name: 'Vacía', rows: [] },
    ]);
    const read: Incoming[] = [];
    for await (const batch of readOds('catalogo.ods', bytes)) read.push(...batch);
    assert.deepEqual(recordsOf(read), [['categorias', 'Categorías', 2, 'Drama'], ['peliculas', 'Películas', 2, 'Nueve reinas']]);
    assert.deepEqual(read.flatMap((item) => ('problem' in item ? [item.place.sheet] : [])), ['Notas']);
  });
});
