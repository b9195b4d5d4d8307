// A file store's checkpoints run in a worker thread on a connection of their own (db/checkpoints.ts):
// the service's commits append to the WAL and return, and never copy pages into the database file on
// the event loop; a command's store checkpoints as SQLite does, in the commit that reaches its mark.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { closeSync, existsSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CHECKPOINT_MARKS } from '../../src/db/checkpoints.js';
import { openDatabase, STORE_DEFAULTS } from '../../src/db/connect.js';
import { sqliteRestartWrites } from '../../src/db/sqlite.js';
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

/** How many times the WAL started over since its file was made: its header's checkpoint sequence number (bytes 12 to 15). */
function walRestarts(file: string): number {
  const header = Buffer.alloc(16);
  const fd = openSync(`${file}-wal`, 'r');
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32BE(12);
}

describe('checkpoints of a SQLite store', () => {
  it('when the WAL passes its mark and the worker has copied it, then the next write waits for the worker to copy the last pages, and starts the WAL over', { timeout: 20000 }, async () => {
    const file = join(dir, 'marca.sqlite');
    // The WAL's mark at 64 pages; the service's own commits would checkpoint only past a million. The
    // worker at the test's own priority: at the lowest, on a machine busy with other tests, it copies when it can.
    const marks = { ...CHECKPOINT_MARKS, everyMs: 10, restartPages: 64, boundPages: 1_000_000, nice: 0 };
    const db = openDatabase(`sqlite:${file}`, { ...STORE_DEFAULTS, sqliteCheckpointsBeside: marks });
    try {
      await migrateToLatest(db);
      // One commit of about 80 pages, past the mark.
      await sql`create table relleno (datos blob)`.execute(db);
      await sql`insert into relleno values (randomblob(320000))`.execute(db);
      // The worker asks once it has copied all of it; the write that waits for its last copy begins with nothing left to copy.
      let waiting: Promise<void> | undefined;
      await eventually(() => (waiting = sqliteRestartWrites(db)) !== undefined);
      await waiting;
      const before = walRestarts(file);
      await createRecord(db, categorias, { nombre: 'Zarzuela tras la marca' }, { quien: null });
      assert.equal(walRestarts(file), before + 1, 'the write started the WAL over');
    } finally {
      await db.destroy();
    }
  });

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
