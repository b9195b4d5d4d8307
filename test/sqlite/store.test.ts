import assert from 'node:assert/strict';
import { copyFileSync, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { openDatabase, sqliteOf } from '../../src/db/connect.js';
import { violationOf } from '../../src/db/errors.js';
import { migrateToLatest, migrationNames } from '../../src/db/migrate.js';

describe('a SQLite store', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cartelera-sqlite-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('when the SQLite file lies in folders that do not exist, then they are created', async () => {
    const file = join(dir, 'a', 'b', 'c', 'store.sqlite');
    const db = openDatabase(`sqlite:${file}`);
    try {
      assert.deepEqual(await migrateToLatest(db), migrationNames);
      assert.ok(existsSync(file));
    } finally {
      await db.destroy();
    }
  });

  test('when writes commit, then a thread of its own moves them into the database file, and closing leaves no WAL', async () => {
    const file = join(dir, 'store.sqlite');
    const db = openDatabase(`sqlite:${file}`);
    try {
      await migrateToLatest(db);
      // No checkpoint inside a commit: the writing connection leaves them to the background thread.
      assert.equal(sqliteOf(db)?.handle.pragma('wal_autocheckpoint', { simple: true }), 0);
      const nombres = Array.from({ length: 300 }, (_, i) => `Categoría ${i}`);
      for (const nombre of nombres) await db.insertInto('categorias').values({ nombre, nombre_clave: nombre.toLowerCase() }).execute();
      // The database file alone, without its WAL, holds the rows once a checkpoint has copied them.
      const copy = join(dir, 'file-only.sqlite');
      const inFile = () => {
        copyFileSync(file, copy);
        const alone = new SQLite(copy, { readonly: true });
        try {
          // Before the first checkpoint, even the tables are only in the WAL.
          return alone.prepare("select count(*) from sqlite_master where name = 'categorias'").pluck().get() === 1
            ? alone.prepare('select count(*) from categorias').pluck().get()
            : undefined;
        } finally {
          alone.close();
        }
      };
      const deadline = Date.now() + 5000;
      while (inFile() !== nombres.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(inFile(), nombres.length);
    } finally {
      await db.destroy();
    }
    assert.equal(existsSync(`${file}-wal`), false);
  });

  test('when an event date is not in the canonical text form, then SQLite refuses it as a check', async () => {
    const db = openDatabase(`sqlite:${join(dir, 'store.sqlite')}`);
    try {
      await migrateToLatest(db);
      const { id } = await db.insertInto('categorias').values({ nombre: 'Música', nombre_clave: 'musica' }).returning('id').executeTakeFirstOrThrow();
      const event = (fecha: string) =>
        db.insertInto('eventos_urbanos')
          .values({ titulo: fecha, titulo_clave: fecha, descripcion: 'Un evento.', descripcion_clave: 'un evento.', fecha, lugar: 'Plaza', lugar_clave: 'plaza', categoria_id: id })
          .execute();
      await assert.rejects(event('2025-10-10'), (error) => violationOf(error) === 'check');
      await event('2025-10-10T00:00:00.000+00:00');
      assert.equal((await db.selectFrom('eventos_urbanos').select('fecha').execute()).length, 1);
    } finally {
      await db.destroy();
    }
  });
});
