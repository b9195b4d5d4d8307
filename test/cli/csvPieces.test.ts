// A CSV file is read a piece at a time (src/transfer/read/csv.ts): its records come in batches as
// the parser reaches them, not after the whole file is parsed, and a file larger than one piece
// reads exactly as a small one would. A file on disk of 1 MiB or more is parsed in a worker thread
// (csvWorker.ts), and reads exactly as its bytes parsed here do.
import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readSpreadsheets, type SpreadsheetFile } from '../../src/transfer/read/index.js';
import { BATCH } from '../../src/transfer/read/types.js';
import { tempDir } from '../tempDir.js';

const FULL = Math.ceil(2300 / BATCH); // batches of BATCH records before the last
const ROWS = FULL * BATCH + 145; // the last batch short; about 150 KB, more than two pieces of 64 KiB

const csv = (rows: number, extra = '') =>
  ['titulo;sipnosis;duracion;categoria_id', ...Array.from({ length: rows }, (_, i) => `Película ${i + 1};"Una familia; un verano\nde cambios.";${60 + (i % 90)};1`), extra].join('\n');

describe('a CSV file read in pieces', () => {
  it('when a CSV file holds more rows than a batch, then its records come in batches of at most BATCH, in order, each at its row', async () => {
    const sizes: number[] = [];
    const rows: number[] = [];
    for await (const batch of readSpreadsheets([{ name: 'peliculas.csv', bytes: Buffer.from(csv(ROWS)) }])) {
      sizes.push(batch.length);
      for (const item of batch) {
        assert.ok('resource' in item, JSON.stringify(item));
        rows.push(item.place.row ?? 0);
        assert.equal(item.record.titulo, `Película ${rows.length}`);
        assert.equal(item.record.sipnosis, 'Una familia; un verano\nde cambios.');
      }
    }
    assert.deepEqual(sizes, [...Array.from({ length: FULL }, () => BATCH), 145]);
    // The header is row 1, and a cell with a line break is one row.
    assert.deepEqual(rows, Array.from({ length: ROWS }, (_, i) => i + 2));
  });

  it('when a quote is left open past the first batches, then the rows before it were already read, and the file ends with that problem at its row', async () => {
    const items = [];
    for await (const batch of readSpreadsheets([{ name: 'peliculas.csv', bytes: Buffer.from(csv(ROWS, '"Sin cerrar;x;90;1')) }])) items.push(...batch);
    // Read whole, the file would have given the problem alone: in pieces, the rows before it came first.
    assert.equal(items.filter((item) => 'resource' in item).length, ROWS);
    const last = items.at(-1);
    assert.ok(last && 'problem' in last);
    assert.equal(last.place.row, ROWS + 2);
    assert.match(last.problem, /^La fila \d+ .*comillas sin cerrar/);
  });

  it('when a CSV file on disk is not UTF-8 only past its first piece, then all of it is read as Windows-1252, as its bytes given whole are', async () => {
    const bytes = Buffer.concat([Buffer.from(csv(ROWS)), Buffer.from('\nCanción;x;90;1\n', 'latin1')]);
    const path = join(tempDir('cartelera-csv-'), 'peliculas.csv');
    writeFileSync(path, bytes);
    const read = async (file: SpreadsheetFile) => {
      const items = [];
      for await (const batch of readSpreadsheets([file])) items.push(...batch);
      return items;
    };
    const onDisk = await read({ name: 'peliculas.csv', path });
    assert.deepEqual(onDisk, await read({ name: 'peliculas.csv', bytes }));
    assert.ok(onDisk[0] && 'notice' in onDisk[0], JSON.stringify(onDisk[0]));
    const last = onDisk.at(-1);
    assert.ok(last && 'resource' in last);
    assert.equal(last.record.titulo, 'Canción');
    assert.equal(onDisk.filter((item) => 'resource' in item).length, ROWS + 1);
  });

  describe('a file parsed in a worker thread', () => {
    const LARGE = 24_000; // about 1.3 MB: past the size parsed in a worker
    const read = async (file: SpreadsheetFile) => {
      const items = [];
      let bytes = 0;
      for await (const batch of readSpreadsheets([file], {}, (n) => (bytes += n))) items.push(...batch);
      return { items, bytes };
    };
    const onDiskAndWhole = async (bytes: Buffer) => {
      const path = join(tempDir('cartelera-csv-'), 'peliculas.csv');
      writeFileSync(path, bytes);
      assert.ok(statSync(path).size >= 1024 * 1024);
      return { onDisk: await read({ name: 'peliculas.csv', path }), whole: await read({ name: 'peliculas.csv', bytes }), size: bytes.length };
    };

    it('when a large CSV file on disk is not UTF-8 and leaves a quote open at its end, then it reads as its bytes do: the notice, every row, the problem at its row, every byte counted', async () => {
      const bytes = Buffer.concat([Buffer.from(csv(LARGE)), Buffer.from('\nCanción;x;90;1\n"Sin cerrar;x;90;1', 'latin1')]);
      const { onDisk, whole, size } = await onDiskAndWhole(bytes);
      assert.deepEqual(onDisk.items, whole.items);
      assert.deepEqual([onDisk.bytes, whole.bytes], [size, size]);
      assert.ok(onDisk.items[0] && 'notice' in onDisk.items[0]);
      assert.equal(onDisk.items.filter((item) => 'resource' in item).length, LARGE + 1);
      const last = onDisk.items.at(-1);
      assert.ok(last && 'problem' in last);
      // After the header, the rows, an empty line and Canción's row.
      assert.equal(last.place.row, LARGE + 4);
    });

    it('when the reading stops after the first batch, then the worker stops with it', async () => {
      const path = join(tempDir('cartelera-csv-'), 'peliculas.csv');
      writeFileSync(path, csv(LARGE));
      for await (const batch of readSpreadsheets([{ name: 'peliculas.csv', path }])) {
        assert.equal(batch.length, BATCH);
        break;
      }
      // A worker left running would keep this file's process alive, and its test run would never end.
    });
  });
});
