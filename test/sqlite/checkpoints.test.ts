// A file store's checkpoints run in a worker thread on a connection of their own (db/checkpoints.ts):
// the service's commits append to the WAL and return, and never copy pages into the database file on
// the event loop; a command's store checkpoints as SQLite does, in the commit that reaches its mark.
import assert from 'node:assert/strict';
import { closeSync, existsSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CHECKPOINT_MARKS } from '../../src/db/checkpoints.js';
import { openDatabase, STORE_DEFAULTS } from '../../src/db/connect.js';
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

/**
 * Eight writers, each sending its next write as soon as the last is answered, 4,000 writes in all: a
 * commit is always under way, so the worker's copy never ends with nothing new in the WAL behind it.
 * How many times the WAL started over meanwhile, and the most pages it held (its file's size).
 */
async function withoutPause(name: string, restartPages: number): Promise<{ restarts: number; pages: number }> {
  const file = join(dir, `${name}.sqlite`);
  // The worker at the test's own priority: at the lowest, on a machine busy with other work, it would copy when it could.
  const marks = { ...CHECKPOINT_MARKS, everyMs: 10, restartPages, boundPages: 1_000_000, nice: 0 };
  const db = openDatabase(`sqlite:${file}`, { ...STORE_DEFAULTS, sqliteCheckpointsBeside: marks });
  try {
    await migrateToLatest(db);
    const before = walRestarts(file);
    const writer = async (n: number) => {
      for (let i = 0; i < 500; i++) await createRecord(db, categorias, { nombre: `Escritor ${n}, categoría ${i} ${'·'.repeat(40)}` }, { quien: null });
    };
    await Promise.all(Array.from({ length: 8 }, (_, n) => writer(n)));
    return { restarts: walRestarts(file) - before, pages: Math.round(statSync(`${file}-wal`).size / 4096) };
  } finally {
    await db.destroy();
  }
}

describe('checkpoints of a SQLite store', () => {
  it('when writes follow each other without a pause, then the WAL still starts over once the worker has copied it, its commits never checkpointing themselves', { timeout: 120000 }, async () => {
    // A WAL past 64 pages asks for a start over; the service's own commits would checkpoint only past
    // a million. The same writes with no start over asked for are the yardstick: both runs share the
    // machine as it is, and a loaded machine slows the worker in both.
    const asked = await withoutPause('asked', 64);
    const unasked = await withoutPause('unasked', 1_000_000_000);
    const seen = `asked: ${asked.restarts} starts over, ${asked.pages} pages; not asked: ${unasked.restarts}, ${unasked.pages}`;
    assert.ok(asked.restarts > unasked.restarts, seen);
    assert.ok(asked.pages * 2 <= unasked.pages, seen);
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
