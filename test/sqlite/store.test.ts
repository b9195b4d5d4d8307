import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { violationOf } from '../../src/db/errors.js';
import { unpeekedLimits } from '../../src/db/sqlite.js';
import { migrateToLatest, migrationNames } from '../../src/db/migrate.js';
import SQLite from 'better-sqlite3';
import type { Db } from '../../src/db/schema.js';
import { categorias } from '../../src/resources/index.js';
import { createRecord } from '../../src/resources/writes.js';
import { withMigratedStore } from '../stores.js';
import { holdThreadPool, until } from '../threadPool.js';

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

  test('when a statement binds its limit or offset, then SQLite is given `limit +?` and `offset +?`, whose values it does not read while it plans, and answers the same rows', () =>
    withMigratedStore(async ({ db }) => {
      // A bare `limit ?` made SQLite plan the statement anew at every run (bench/analysis.md).
      assert.equal(unpeekedLimits('select * from t order by id limit ? offset ?'), 'select * from t order by id limit +? offset +?');
      assert.equal(unpeekedLimits('select 1 from t\n  ORDER BY id LIMIT\n ?'), 'select 1 from t\n  ORDER BY id LIMIT +?');
      // Nothing else is touched: a literal limit, a column or a value that only looks like one.
      for (const untouched of ['select * from t limit 10 offset 20', 'select "limit" from t where "limit" = ?', "select 'limit ?' from t", 'select limits from t where offsets > ?']) {
        assert.equal(unpeekedLimits(untouched), untouched);
      }
      for (const [i, nombre] of ['Cine', 'Danza', 'Música', 'Teatro'].entries()) {
        await db.insertInto('categorias').values({ nombre, nombre_clave: `c${i}` }).execute();
      }
      const page = (limit: number, offset: number) => db.selectFrom('categorias').select('nombre').orderBy('id').limit(limit).offset(offset).execute();
      assert.deepEqual(await page(2, 1), [{ nombre: 'Danza' }, { nombre: 'Música' }]);
      assert.deepEqual(await page(3, 2), [{ nombre: 'Música' }, { nombre: 'Teatro' }]);
    }));

  test('when an event date is not in the canonical text form, then SQLite refuses it as a check', () =>
    withMigratedStore(async ({ db }) => {
      const { id } = await db.insertInto('categorias').values({ nombre: 'Música', nombre_clave: 'musica' }).returning('id').executeTakeFirstOrThrow();
      const event = (fecha: string) =>
        db.insertInto('eventos_urbanos')
          .values({ titulo: fecha, titulo_clave: fecha, descripcion: 'Un evento.', descripcion_clave: 'un evento.', fecha, lugar: 'Plaza', lugar_clave: 'plaza', categoria_id: id })
          .execute();
      await assert.rejects(event('2025-10-10'), (error) => violationOf(error) === 'check');
      await event('2025-10-10T00:00:00.000+00:00');
      assert.equal((await db.selectFrom('eventos_urbanos').select('fecha').execute()).length, 1);
    }));

  test('when opened as the service opens it, then each commit is answered once it is synced to disk, unless SQLITE_SYNCHRONOUS=normal chooses speed', async () => {
    /** Whether a write on the store `open` opens is answered only after its sync (on libuv's pool, held meanwhile). */
    const waitsForSync = async (file: string, open: (url: string) => Db) => {
      const db = open(`sqlite:${join(dir, file)}`);
      await migrateToLatest(db);
      const reader = new SQLite(join(dir, file), { readonly: true });
      const pool = await holdThreadPool();
      try {
        let released = false;
        const written = createRecord(db, categorias, { nombre: 'Ópera' }, { quien: null }).then(() => released);
        // Committed at once: another connection reads it.
        await until(() => reader.prepare("select 1 from categorias where nombre = 'Ópera'").get() !== undefined);
        released = true;
        await pool.release();
        return await written;
      } finally {
        reader.close();
        await db.destroy();
      }
    };
    const configured = (setting?: string) => (url: string) => {
      const config = loadConfig({ DATABASE_URL: url, ...(setting !== undefined && { SQLITE_SYNCHRONOUS: setting }) });
      return openDatabase(config.DATABASE_URL, { poolMax: 1, statementTimeoutMs: 5000, sqliteSynchronous: config.SQLITE_SYNCHRONOUS });
    };
    assert.equal(await waitsForSync('default.sqlite', configured()), true);
    assert.equal(await waitsForSync('full.sqlite', configured('full')), true);
    assert.equal(await waitsForSync('normal.sqlite', configured('normal')), false);
    assert.throws(() => loadConfig({ SQLITE_SYNCHRONOUS: 'off' }), /SQLITE_SYNCHRONOUS/);
    // The command line's stores, opened with no options, are synced as well.
    assert.equal(await waitsForSync('cli.sqlite', (url) => openDatabase(url)), true);
  });
});
