// A file store's checkpoints run in a worker thread on a connection of their own (db/checkpoints.ts):
// the service's commits append to the WAL and return, and never copy pages into the database file on
// the event loop; a command's store checkpoints as SQLite does, in the commit that reaches its mark.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { categorias } from '../../src/resources/index.js';
import { createRecord } from '../../src/resources/writes.js';
import { buildTestApp, send } from '../helpers.js';
import { tempDir } from '../tempDir.js';

const dir = tempDir('cartelera-checkpoints-');
after(() => rmSync(dir, { recursive: true, force: true }));

/** Whether the database file itself, without its WAL, holds `text`: whether a checkpoint copied the page that holds it. */
const inFileAlone = (file: string, text: string) => readFileSync(file).includes(Buffer.from(text));

/** Settles once `done` holds, looking every few milliseconds (the worker checkpoints on a timer of its own). */
async function eventually(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('checkpoints of a SQLite store', () => {
  it("when the service commits a write, then a worker's connection copies it into the database file, though SQLite's own checkpoint waits for 1,000 pages; and when the service closes, the file holds everything and no WAL is left", { timeout: 20000 }, async () => {
    const file = join(dir, 'servicio.sqlite');
    const app = await buildTestApp({ DATABASE_URL: `sqlite:${file}` });
    const nombre = 'Zarzuela copiada aparte';
    try {
      const created = await send(app, 'POST', '/categorias', { nombre });
      assert.equal(created.statusCode, 201, created.body);
      await eventually(() => inFileAlone(file, nombre));
      const second = await send(app, 'POST', '/categorias', { nombre: 'Sainete tras el primer checkpoint' });
      assert.equal(second.statusCode, 201, second.body);
    } finally {
      await app.close();
    }
    assert.equal(existsSync(`${file}-wal`), false, 'the last checkpoint emptied the WAL, and SQLite removed it');
    assert.equal(inFileAlone(file, 'Sainete tras el primer checkpoint'), true);
  });

  it('when a command commits a write, then it stays in the WAL until SQLite checkpoints at its mark or at close', async () => {
    const file = join(dir, 'comando.sqlite');
    const db = openDatabase(`sqlite:${file}`);
    const nombre = 'Zarzuela en el WAL';
    try {
      await migrateToLatest(db);
      await createRecord(db, categorias, { nombre }, { quien: null });
      assert.equal(inFileAlone(file, nombre), false);
    } finally {
      await db.destroy();
    }
    assert.equal(inFileAlone(file, nombre), true);
  });
});
