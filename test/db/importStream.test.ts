import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { importCatalogue } from '../../src/transfer/import.js';
import { readImport } from '../../src/transfer/read/index.js';
import { backend, withMigratedStore } from '../stores.js';
import { tempDir } from '../tempDir.js';

// A CSV file on disk is read as it is parsed, 64 KiB at a time (src/transfer/read/csv.ts), never
// whole. These tests hold a file of several pieces to what a small one gives: all of it, or none.

const MOVIES = 2345; // about 190 KB: three pieces, and more than two batches

function folder(lastRow = ''): string {
  const dir = tempDir('cartelera-stream-');
  writeFileSync(join(dir, 'categorias.csv'), 'Nombre\nDrama\n');
  const rows = Array.from({ length: MOVIES }, (_, i) => `Película ${i + 1};"Una familia; un verano\nde cambios, ${'y más '.repeat(8)}";${60 + (i % 90)};Drama`);
  writeFileSync(join(dir, 'peliculas.csv'), ['titulo;sipnosis;duracion;categoria', ...rows, lastRow].join('\n'));
  return dir;
}

describe(`import of CSV files read as they are parsed (${backend})`, () => {
  it('when a CSV file on disk is larger than a piece, then every row is stored in order and every byte is counted once', async () => {
    await withMigratedStore(async ({ db }) => {
      const dir = folder();
      let read = 0;
      const result = await importCatalogue(db, readImport([dir], (n) => (read += n)), { onConflict: 'error', dryRun: false, quien: 'ana', timeZone: 'UTC' });
      assert.deepEqual(result.problems, []);
      assert.deepEqual(result.counts.peliculas, { created: MOVIES, updated: 0, skipped: 0 });
      assert.equal(read, statSync(join(dir, 'peliculas.csv')).size + statSync(join(dir, 'categorias.csv')).size);
      const { rows } = await sql<{ titulo: string; sipnosis: string }>`select titulo, sipnosis from peliculas order by id`.execute(db);
      assert.equal(rows.length, MOVIES);
      rows.forEach((row, i) => assert.equal(row.titulo, `Película ${i + 1}`));
      assert.equal(rows.at(-1)?.sipnosis, `Una familia; un verano\nde cambios, ${'y más '.repeat(8).trim()}`);
    });
  });

  it('when only the last row of a CSV file of several pieces has a problem, then that row is named and nothing is stored', async () => {
    await withMigratedStore(async ({ db }) => {
      const result = await importCatalogue(db, readImport([folder('Película 1;Otra;90;Drama')]), { onConflict: 'error', dryRun: false, quien: 'ana', timeZone: 'UTC' });
      assert.deepEqual(result.problems.map((p) => [p.place.file.endsWith('peliculas.csv'), p.place.row, p.field]), [[true, MOVIES + 2, 'titulo']]);
      assert.match(result.problems[0]?.sentence ?? '', /Película 1.*fila 2/);
      const { rows } = await sql<{ n: number }>`select (select count(*) from peliculas) + (select count(*) from categorias) + (select count(*) from cambios) as n`.execute(db);
      assert.equal(Number(rows[0]?.n), 0);
    });
  });
});
