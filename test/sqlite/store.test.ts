import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { violationOf } from '../../src/db/errors.js';
import { migrateToLatest, migrationNames } from '../../src/db/migrate.js';
import { withMigratedStore } from '../stores.js';

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

  test('when opened as the service opens it, then each commit is synced to disk (synchronous=FULL), unless SQLITE_SYNCHRONOUS=normal chooses speed', async () => {
    const synchronous = async (setting: string | undefined) => {
      const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'store.sqlite')}`, ...(setting !== undefined && { SQLITE_SYNCHRONOUS: setting }) });
      const db = openDatabase(config.DATABASE_URL, { poolMax: 1, statementTimeoutMs: 5000, sqliteSynchronous: config.SQLITE_SYNCHRONOUS });
      try {
        const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
        return rows[0]?.synchronous;
      } finally {
        await db.destroy();
      }
    };
    // SQLite's values: 2 is FULL, 1 is NORMAL.
    assert.equal(await synchronous(undefined), 2);
    assert.equal(await synchronous('full'), 2);
    assert.equal(await synchronous('normal'), 1);
    assert.throws(() => loadConfig({ SQLITE_SYNCHRONOUS: 'off' }), /SQLITE_SYNCHRONOUS/);
    // The command line's stores, opened with no options, are synced as well.
    const cli = openDatabase(`sqlite:${join(dir, 'cli.sqlite')}`);
    try {
      assert.equal((await sql<{ synchronous: number }>`pragma synchronous`.execute(cli)).rows[0]?.synchronous, 2);
    } finally {
      await cli.destroy();
    }
  });
});
