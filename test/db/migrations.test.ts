import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Migrator, sql } from 'kysely';
import { openDatabase } from '../../src/db/connect.js';
import { comparable } from '../../src/catalogue/comparable.js';
import { migrateToLatest, migrationNames } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/schema.js';
import { freshStore, type TestStore } from '../stores.js';

// Migration 0002 adds a `<field>_clave` column for every text field that had none, and fills it
// for the rows already there, with the same comparable every later write uses.

type Row = Record<string, unknown>;

/** Every text field of each table, each of which must end up with its normalized key column. */
const TEXT_FIELDS = {
  categorias: ['nombre'],
  peliculas: ['titulo', 'sipnosis'],
  obras: ['titulo', 'descripcion'],
  eventos_urbanos: ['titulo', 'descripcion', 'lugar'],
  artistas: ['nombre', 'apellido', 'tipo', 'descripcion'],
} as const;

/** Applies migration 0001 only, as a store created before 0002 existed. */
async function migrateToFirst(db: Db): Promise<void> {
  const catalogue = await import('../../src/db/migrations/0001_catalogue.js');
  const migrator = new Migrator({ db, provider: { getMigrations: async () => ({ '0001_catalogue': catalogue }) } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw error;
  assert.deepEqual(results.map((r) => [r.migrationName, r.status]), [['0001_catalogue', 'Success']]);
}

const rowsOf = async (db: Db, table: keyof typeof TEXT_FIELDS): Promise<Row[]> =>
  (await sql<Row>`select * from ${sql.table(table)}`.execute(db)).rows;

describe('migration 0002_text_keys', () => {
  let store: TestStore;
  let db: Db;
  beforeEach(async () => {
    store = await freshStore();
    db = openDatabase(store.url);
  });
  afterEach(async () => {
    await db.destroy();
    await store.drop();
  });

  it('when a store at 0001 already holds rows, then migrating to the latest fills every <field>_clave with comparable(field)', async () => {
    await migrateToFirst(db);
    // Written as 0001 knew the tables: only the unique titles and names had a key column then.
    const texts = ['  La Canción  ', 'ÁRBOL de Navidad', 'Straße Ñandú', 'Çà et là', 'ﬁn'];
    for (const [i, text] of texts.entries()) {
      const nombre = `Categoría ${i}`;
      const { id } = (await sql<{ id: number }>`insert into categorias (nombre, nombre_clave) values (${nombre}, ${comparable(nombre)}) returning id`.execute(db)).rows[0] ?? { id: 0 };
      const titulo = `${text} ${i}`;
      await sql`insert into peliculas (titulo, titulo_clave, sipnosis, duracion, categoria_id) values (${titulo}, ${comparable(titulo)}, ${`Sinopsis: ${text}`}, 100, ${id})`.execute(db);
      await sql`insert into obras (titulo, titulo_clave, descripcion, duracion, categoria_id) values (${titulo}, ${comparable(titulo)}, ${`Obra: ${text}`}, 90, ${id})`.execute(db);
      await sql`insert into eventos_urbanos (titulo, titulo_clave, descripcion, fecha, lugar, categoria_id) values (${titulo}, ${comparable(titulo)}, ${`Evento: ${text}`}, ${'2025-10-10T00:00:00.000+00:00'}, ${`Plaza ${text}`}, ${id})`.execute(db);
      await sql`insert into artistas (dni, nombre, apellido, tipo, descripcion) values (${30000000 + i}, ${text}, ${`Pérez ${text}`}, ${`ACTRIZ ${text}`}, ${`Descripción ${text}`})`.execute(db);
    }
    for (const table of ['peliculas', 'obras', 'eventos_urbanos', 'artistas'] as const) {
      const columns = Object.keys((await rowsOf(db, table))[0] ?? {});
      assert.deepEqual(columns.filter((c) => c.endsWith('_clave') && c !== 'titulo_clave'), [], `${table} has no new key column before 0002`);
    }

    assert.deepEqual(await migrateToLatest(db), migrationNames.slice(1));

    for (const [table, fields] of Object.entries(TEXT_FIELDS) as [keyof typeof TEXT_FIELDS, readonly string[]][]) {
      const rows = await rowsOf(db, table);
      assert.equal(rows.length, texts.length, table);
      for (const row of rows) {
        const keyColumns = Object.keys(row).filter((c) => c.endsWith('_clave')).sort();
        assert.deepEqual(keyColumns, fields.map((f) => `${f}_clave`).sort(), `${table}: one key column per text field`);
        for (const field of fields) {
          assert.equal(row[`${field}_clave`], comparable(String(row[field])), `${table}.${field}_clave for ${JSON.stringify(row[field])}`);
        }
      }
    }
    // Spot checks against literal keys, so a change to comparable cannot hide a wrong backfill.
    const [artista] = (await sql<Row>`select * from artistas where dni = ${30000000}`.execute(db)).rows;
    assert.deepEqual(
      [artista?.nombre_clave, artista?.apellido_clave, artista?.tipo_clave, artista?.descripcion_clave],
      ['la cancion', 'perez   la cancion', 'actriz   la cancion', 'descripcion   la cancion'],
    );
    const [strasse] = (await sql<Row>`select * from artistas where dni = ${30000002}`.execute(db)).rows;
    assert.equal(strasse?.nombre_clave, 'strasse nandu');
  });

  it('when a store at 0001 is empty, then 0002 applies, and a second run applies nothing', async () => {
    await migrateToFirst(db);
    assert.deepEqual(await migrateToLatest(db), migrationNames.slice(1));
    assert.deepEqual(await migrateToLatest(db), []);
    for (const table of Object.keys(TEXT_FIELDS) as (keyof typeof TEXT_FIELDS)[]) assert.deepEqual(await rowsOf(db, table), [], table);
  });

  it('when a new store is migrated, then both migrations apply in order, and a second run applies nothing', async () => {
    assert.deepEqual(await migrateToLatest(db), migrationNames);
    assert.deepEqual(await migrateToLatest(db), []);
  });
});

describe('migration 0010_venues_showtimes', () => {
  it('when a store at 0007 holds a change log, then 0010 keeps every change with its id and references, never reuses an id, and the log takes venues and showtimes alone besides', async () => {
    const store = await freshStore();
    const db = openDatabase(store.url);
    try {
      const all = await import('../../src/db/migrate.js').then(({ migrationProvider }) => migrationProvider.getMigrations());
      const before = Object.fromEntries(Object.entries(all).filter(([name]) => name < '0010'));
      const { error } = await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
      if (error) throw error;
      const change = (recurso: string, operacion: string, causa: number | null, deshace: number | null) =>
        sql`insert into cambios (recurso, clave, operacion, antes, despues, campos, cuando, causa, deshace)
            values (${recurso}, 1, ${operacion}, ${operacion === 'alta' ? null : '{}'}, ${operacion === 'baja' ? null : '{}'}, '[]', '2026-11-26T10:00:00.000+00:00', ${causa}, ${deshace})`.execute(db);
      await change('peliculas', 'alta', null, null);
      await change('peliculas', 'baja', null, null);
      await change('participaciones', 'baja', 2, null);
      await change('peliculas', 'alta', null, 2);
      await change('categorias', 'alta', null, null);
      // The newest change pruned: its id must still not be given again.
      await sql`delete from cambios where id = 5`.execute(db);
      const logged = (await sql<Row>`select id, recurso, operacion, causa, deshace from cambios order by id`.execute(db)).rows;

      await migrateToLatest(db);
      assert.deepEqual((await sql<Row>`select id, recurso, operacion, causa, deshace from cambios order by id`.execute(db)).rows, logged);
      await change('lugares', 'alta', null, null);
      await change('funciones', 'alta', null, null);
      const { rows } = await sql<{ id: number; recurso: string }>`select id, recurso from cambios where id > 4 order by id`.execute(db);
      assert.deepEqual(rows.map((r) => [Number(r.id), r.recurso]), [[6, 'lugares'], [7, 'funciones']]);
      await assert.rejects(change('libros', 'alta', null, null), 'an unknown resource is still refused');
      // The references still hold: deleting a change clears what referred to it.
      await sql`delete from cambios where id = 2`.execute(db);
      assert.deepEqual((await sql<Row>`select causa, deshace from cambios where id in (3, 4) order by id`.execute(db)).rows.map((r) => [r.causa, r.deshace]), [[null, null], [null, null]]);
    } finally {
      await db.destroy();
      await store.drop();
    }
  });
});
