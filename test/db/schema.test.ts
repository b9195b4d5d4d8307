import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { openDatabase } from '../../src/db/connect.js';
import { violationOf, type Violation } from '../../src/db/errors.js';
import { migrateToLatest, migrationNames, migrationProvider } from '../../src/db/migrate.js';
import { checkStore } from '../../src/transfer/check.js';
import { comparable } from '../../src/catalogue/comparable.js';
import type { TipoEvento } from '../../src/catalogue/fields.js';
import type { Db } from '../../src/db/schema.js';
import { backend, freshStore, migratedStore, type MigratedStore, type TestStore } from '../stores.js';

/** Asserts the store refused the write, for the given integrity rule. */
async function assertRefused(write: () => Promise<unknown>, expected: Violation): Promise<void> {
  await assert.rejects(write, (error) => {
    assert.equal(violationOf(error), expected, String(error));
    return true;
  });
}

// Rows written straight into the store, with overrides; every test builds the rows it needs.
let counter = 0;
const title = (prefix: string) => `${prefix} ${++counter}`;

function insertCategoria(db: Db, o: { nombre?: string; nombre_clave?: string } = {}) {
  const nombre = o.nombre ?? title('categoría');
  return db.insertInto('categorias').values({ nombre, nombre_clave: nombre, ...o }).returningAll().executeTakeFirstOrThrow();
}

async function insertPelicula(db: Db, o: { id?: number; titulo?: string; duracion?: number; categoria_id?: number } = {}) {
  const categoria_id = o.categoria_id ?? (await insertCategoria(db)).id;
  const titulo = o.titulo ?? title('película');
  return db
    .insertInto('peliculas')
    .values({ titulo, titulo_clave: title('clave'), sipnosis: 'Una historia.', sipnosis_clave: 'una historia.', duracion: 100, categoria_id, ...o })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function insertObra(db: Db, o: { id?: number; categoria_id?: number } = {}) {
  const categoria_id = o.categoria_id ?? (await insertCategoria(db)).id;
  const titulo = title('obra');
  return db
    .insertInto('obras')
    .values({ titulo, titulo_clave: titulo, descripcion: 'Una obra.', descripcion_clave: 'una obra.', duracion: 90, categoria_id, ...o })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function insertEventoUrbano(db: Db, o: { fecha?: string; categoria_id?: number } = {}) {
  const categoria_id = o.categoria_id ?? (await insertCategoria(db)).id;
  const titulo = title('evento');
  return db
    .insertInto('eventos_urbanos')
    .values({
      titulo, titulo_clave: titulo, descripcion: 'Un evento.', descripcion_clave: 'un evento.',
      fecha: '2025-10-10T00:00:00.000+00:00', lugar: 'Plaza Mayor', lugar_clave: 'plaza mayor', categoria_id, ...o,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

function insertArtista(db: Db, o: { dni?: number } = {}) {
  return db
    .insertInto('artistas')
    .values({
      dni: 30000000 + ++counter, nombre: 'Ana', nombre_clave: 'ana', apellido: 'Pérez', apellido_clave: 'perez',
      tipo: 'actriz', tipo_clave: 'actriz', descripcion: 'Actriz.', descripcion_clave: 'actriz.', ...o,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function insertParticipacion(db: Db, o: { artistas_dni?: number; tipo_evento: TipoEvento; evento_id: number }) {
  const artistas_dni = o.artistas_dni ?? (await insertArtista(db)).dni;
  return db
    .insertInto('participaciones')
    .values({ ...o, artistas_dni })
    .returning(['id', 'artistas_dni', 'tipo_evento', 'evento_id'])
    .executeTakeFirstOrThrow();
}

const participacionIds = async (db: Db) =>
  (await db.selectFrom('participaciones').select('id').orderBy('id').execute()).map((p) => p.id);

/** An image of `recurso`'s record `clave`, with its file (written first: the image's id is the file's key). */
async function insertImagen(db: Db, recurso: string, clave: number) {
  const id = 1000 + ++counter;
  await db.insertInto('imagen_archivos').values({ imagen_id: id, digest: '0'.repeat(64), datos: new Uint8Array([1, 2, 3]) }).execute();
  await db
    .insertInto('imagenes')
    .values({ id, recurso, clave, alt: 'Un cartel', alt_clave: 'un cartel', foco_x: 50, foco_y: 50, orden: 1, ancho: 1, alto: 1, tipo: 'image/png', bytes: 3 })
    .execute();
  // Read back: SQLite sets `url` after the insert.
  return db.selectFrom('imagenes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const imagenIds = async (db: Db) => (await db.selectFrom('imagenes').select('id').orderBy('id').execute()).map((i) => i.id);

describe(`the store enforces integrity by itself (${backend})`, () => {
  let store: MigratedStore;
  let db: Db;
  beforeEach(async () => {
    store = await migratedStore();
    db = store.db;
  });
  afterEach(() => store.drop());

  test('when a referenced row is deleted, then the rows that refer to it are found by an index: every foreign key leads one', async () => {
    // Without one, each deleted row (a cascade, a check, a `set null`) reads the whole referring table.
    const foreignKeys = (
      backend === 'sqlite'
        ? await sql<{ tabla: string; columna: string }>`
            select m.name as tabla, f."from" as columna from sqlite_master m, pragma_foreign_key_list(m.name) f where m.type = 'table'`.execute(db)
        : await sql<{ tabla: string; columna: string }>`
            select c.conrelid::regclass::text as tabla, a.attname as columna from pg_constraint c
            join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
            where c.contype = 'f' and c.connamespace = current_schema()::regnamespace`.execute(db)
    ).rows;
    const leading = (
      backend === 'sqlite'
        ? await sql<{ tabla: string; columna: string }>`
            select m.name as tabla, i.name as columna from sqlite_master m, pragma_index_list(m.name) l, pragma_index_info(l.name) i
            where m.type = 'table' and i.seqno = 0
            union all -- an INTEGER PRIMARY KEY is the rowid: the table's own order
            select m.name, c.name from sqlite_master m, pragma_table_info(m.name) c where m.type = 'table' and c.pk = 1 and lower(c.type) = 'integer'`.execute(db)
        : await sql<{ tabla: string; columna: string }>`
            select x.indrelid::regclass::text as tabla, a.attname as columna from pg_index x
            join pg_class t on t.oid = x.indrelid and t.relnamespace = current_schema()::regnamespace
            join pg_attribute a on a.attrelid = x.indrelid and a.attnum = x.indkey[0]`.execute(db)
    ).rows.map((r) => `${r.tabla}.${r.columna}`);
    assert.ok(foreignKeys.length >= 8, `foreign keys found: ${foreignKeys.length}`);
    assert.deepEqual(foreignKeys.map((k) => `${k.tabla}.${k.columna}`).filter((k) => !leading.includes(k)), []);
  });

  test('when two categories share a nombre_clave, then the second is refused as unique', async () => {
    await insertCategoria(db, { nombre: 'Drama', nombre_clave: 'drama' });

    await assertRefused(() => insertCategoria(db, { nombre: 'DRAMA', nombre_clave: 'drama' }), 'unique');

    const rows = await db.selectFrom('categorias').select('nombre').where('nombre_clave', '=', 'drama').execute();
    assert.deepEqual(rows, [{ nombre: 'Drama' }]);
  });

  test('when a movie names a category that does not exist, then it is refused as a foreign key', async () => {
    await assertRefused(() => insertPelicula(db, { categoria_id: 999999 }), 'foreign_key');

    assert.deepEqual(await db.selectFrom('peliculas').selectAll().execute(), []);
  });

  test("when a participation of kind 'obra' names a movie's id and no work has it, then it is refused as a foreign key", async () => {
    const pelicula = await insertPelicula(db);
    const artista = await insertArtista(db);
    assert.equal(await db.selectFrom('obras').select('id').where('id', '=', pelicula.id).executeTakeFirst(), undefined);

    await assertRefused(
      () => insertParticipacion(db, { artistas_dni: artista.dni, tipo_evento: 'obra', evento_id: pelicula.id }),
      'foreign_key',
    );

    assert.deepEqual(await participacionIds(db), []);
  });

  test("when a participation's tipo_evento is not one of the three kinds, then it is refused as a check", async () => {
    const pelicula = await insertPelicula(db);
    const artista = await insertArtista(db);

    await assertRefused(
      () =>
        sql`insert into participaciones (artistas_dni, tipo_evento, evento_id)
            values (${artista.dni}, 'concierto', ${pelicula.id})`.execute(db),
      'check',
    );

    assert.deepEqual(await participacionIds(db), []);
  });

  test('when a movie lasts 0 minutes, then it is refused as a check', async () => {
    await assertRefused(() => insertPelicula(db, { duracion: 0 }), 'check');
  });

  test('when a movie title is empty, then it is refused as a check', async () => {
    await assertRefused(() => insertPelicula(db, { titulo: '' }), 'check');
  });

  test('when a movie title has 256 characters, then it is refused as a check', async () => {
    await assertRefused(() => insertPelicula(db, { titulo: 'x'.repeat(256) }), 'check');

    const accepted = await insertPelicula(db, { titulo: 'x'.repeat(255) });
    assert.equal(accepted.titulo.length, 255);
  });

  test('when an artist has dni 0, then it is refused as a check', async () => {
    await assertRefused(() => insertArtista(db, { dni: 0 }), 'check');

    assert.deepEqual(await db.selectFrom('artistas').selectAll().execute(), []);
  });

  test('when the same artist takes part in the same item twice, then the second is refused as unique', async () => {
    const pelicula = await insertPelicula(db);
    const first = await insertParticipacion(db, { tipo_evento: 'pelicula', evento_id: pelicula.id });

    await assertRefused(
      () => insertParticipacion(db, { artistas_dni: first.artistas_dni, tipo_evento: 'pelicula', evento_id: pelicula.id }),
      'unique',
    );

    assert.deepEqual(await participacionIds(db), [first.id]);
  });

  test("when a participation's tipo_evento is changed to a kind without that item, then it is refused as a foreign key", async () => {
    const pelicula = await insertPelicula(db);
    const participacion = await insertParticipacion(db, { tipo_evento: 'pelicula', evento_id: pelicula.id });
    assert.equal(await db.selectFrom('obras').select('id').where('id', '=', pelicula.id).executeTakeFirst(), undefined);

    await assertRefused(
      () => db.updateTable('participaciones').set({ tipo_evento: 'obra' }).where('id', '=', participacion.id).execute(),
      'foreign_key',
    );

    const stored = await db
      .selectFrom('participaciones')
      .select(['id', 'artistas_dni', 'tipo_evento', 'evento_id'])
      .where('id', '=', participacion.id)
      .executeTakeFirst();
    assert.deepEqual(stored, participacion);
  });

  test('when a category is in use, then deleting it is refused as a foreign key and it is still there', async () => {
    const categoria = await insertCategoria(db);
    await insertObra(db, { categoria_id: categoria.id });

    await assertRefused(() => db.deleteFrom('categorias').where('id', '=', categoria.id).execute(), 'foreign_key');

    assert.deepEqual(await db.selectFrom('categorias').selectAll().where('id', '=', categoria.id).executeTakeFirst(), categoria);
  });

  test("when a movie is deleted, then its participations go with it but a work's participation with the same evento_id stays", async () => {
    const pelicula = await insertPelicula(db, { id: 7 });
    const obra = await insertObra(db, { id: 7 });
    const artista = await insertArtista(db);
    const ofPelicula = await insertParticipacion(db, { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: pelicula.id });
    const ofObra = await insertParticipacion(db, { artistas_dni: artista.dni, tipo_evento: 'obra', evento_id: obra.id });

    await db.deleteFrom('peliculas').where('id', '=', pelicula.id).execute();

    assert.deepEqual(await participacionIds(db), [ofObra.id]);
    assert.notEqual(ofPelicula.id, ofObra.id);
    assert.ok(await db.selectFrom('obras').select('id').where('id', '=', obra.id).executeTakeFirst());
  });

  test("when an image names a record that does not exist, or a resource's key that another resource holds, then it is refused as a foreign key", async () => {
    const obra = await insertObra(db);
    await assertRefused(() => insertImagen(db, 'peliculas', obra.id + 1000), 'foreign_key');
    await assertRefused(() => insertImagen(db, 'peliculas', obra.id), 'foreign_key');
    const artista = await insertArtista(db);
    await assertRefused(() => insertImagen(db, 'lugares', artista.dni), 'foreign_key');

    assert.deepEqual(await imagenIds(db), []);
  });

  test('when an image is moved to a record that does not exist, then it is refused as a foreign key and stays where it was', async () => {
    const artista = await insertArtista(db);
    const imagen = await insertImagen(db, 'artistas', artista.dni);

    await assertRefused(() => db.updateTable('imagenes').set({ clave: artista.dni + 1 }).where('id', '=', imagen.id).execute(), 'foreign_key');
    await assertRefused(() => db.updateTable('imagenes').set({ recurso: 'peliculas' }).where('id', '=', imagen.id).execute(), 'foreign_key');

    assert.deepEqual(await db.selectFrom('imagenes').selectAll().where('id', '=', imagen.id).executeTakeFirst(), imagen);
  });

  test("when a record is deleted, then its images go with it but another resource's image with the same key stays", async () => {
    const pelicula = await insertPelicula(db, { id: 9 });
    const obra = await insertObra(db, { id: 9 });
    await insertImagen(db, 'peliculas', pelicula.id);
    await insertImagen(db, 'peliculas', pelicula.id);
    const ofObra = await insertImagen(db, 'Obras', obra.id);

    await db.deleteFrom('peliculas').where('id', '=', pelicula.id).execute();

    assert.deepEqual(await imagenIds(db), [ofObra.id]);
  });

  test("when a record with images has its key changed, then it is refused as a foreign key; without images it is not", async () => {
    const artista = await insertArtista(db);
    await insertImagen(db, 'artistas', artista.dni);
    await assertRefused(() => db.updateTable('artistas').set({ dni: artista.dni + 1 }).where('dni', '=', artista.dni).execute(), 'foreign_key');
    assert.ok(await db.selectFrom('artistas').select('dni').where('dni', '=', artista.dni).executeTakeFirst());

    const otro = await insertArtista(db);
    await db.updateTable('artistas').set({ dni: otro.dni + 500 }).where('dni', '=', otro.dni).execute();
    assert.ok(await db.selectFrom('artistas').select('dni').where('dni', '=', otro.dni + 500).executeTakeFirst());
  });
});

describe(`event dates in the store (${backend})`, () => {
  let store: MigratedStore;
  let db: Db;
  beforeEach(async () => {
    store = await migratedStore();
    db = store.db;
  });
  afterEach(() => store.drop());

  for (const fecha of ['2025-10-10T00:00:00.000+00:00', '2025-10-10T15:30:00.500+00:00', '0001-01-01T00:00:00.000+00:00', '9999-12-31T23:59:59.999+00:00']) {
    test(`when ${fecha} is stored, then it reads back exactly`, async () => {
      const { id } = await insertEventoUrbano(db, { fecha });
      const row = await db.selectFrom('eventos_urbanos').select('fecha').where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.fecha, fecha);
    });
  }
});

describe(`migrations (${backend})`, () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await freshStore();
  });
  afterEach(async () => {
    await store.drop();
  });

  const applied = async (db: Db) =>
    (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name);
  // Every table, column and index the store has, to compare before and after.
  const schemaOf = async (db: Db) =>
    backend === 'sqlite'
      ? (await sql`select type, name, sql from sqlite_master order by type, name`.execute(db)).rows
      : (await sql`select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
                   where table_schema = 'public' order by table_name, column_name`.execute(db)).rows
          .concat((await sql`select indexname, indexdef from pg_indexes where schemaname = 'public' order by indexname`.execute(db)).rows);

  test('when a fresh store is migrated, then the catalogue migration is applied and recorded', async () => {
    const db = openDatabase(store.url);
    try {
      assert.deepEqual(await migrateToLatest(db), migrationNames);

      assert.deepEqual(await applied(db), migrationNames);
    } finally {
      await db.destroy();
    }
  });

  test('when a migrated store is migrated again, then nothing is applied and nothing changes', async () => {
    const db = openDatabase(store.url);
    try {
      await migrateToLatest(db);
      const categoria = await insertCategoria(db);
      const schema = await schemaOf(db);

      assert.deepEqual(await migrateToLatest(db), []);

      assert.deepEqual(await applied(db), migrationNames);
      assert.deepEqual(await schemaOf(db), schema);
      assert.deepEqual(await db.selectFrom('categorias').selectAll().execute(), [categoria]);
    } finally {
      await db.destroy();
    }
  });

  test('when a store from before migration 0006 is migrated, then each table keeps its version and row count, and counts what comes after', async () => {
    const db = openDatabase(store.url);
    const table = async () => {
      const [row] = await db
        .selectFrom('versiones')
        .select([(eb) => eb.fn.sum<number | string>('version').as('version'), (eb) => eb.fn.sum<number | string>('filas').as('filas')])
        .where('tabla', '=', 'categorias')
        .execute();
      return { version: Number(row?.version), filas: Number(row?.filas) };
    };
    try {
      const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo('0005_change_log');
      assert.equal(error, undefined);
      // Keys as the service writes them, which check verifies.
      const categoria = (nombre: string) => insertCategoria(db, { nombre, nombre_clave: comparable(nombre) });
      for (const nombre of ['Drama', 'Comedia', 'Música']) await categoria(nombre);
      const before = await table();
      assert.equal(before.filas, 3);

      assert.deepEqual(await migrateToLatest(db), migrationNames.filter((name) => name > '0005_change_log'));
      assert.deepEqual(await table(), before);
      await categoria('Documental');
      const after = await table();
      assert.equal(after.filas, 4);
      assert.ok(after.version > before.version, `the version moved: ${before.version} → ${after.version}`);
      assert.deepEqual((await checkStore(db)).problems, []);
    } finally {
      await db.destroy();
    }
  });

  test('when the same store is opened again and migrated, then nothing is applied and the data is kept', async () => {
    const url = store.url;
    const first = openDatabase(url);
    await migrateToLatest(first);
    const categoria = await insertCategoria(first);
    await first.destroy();

    const second = openDatabase(url);
    try {
      assert.deepEqual(await migrateToLatest(second), []);

      assert.deepEqual(await applied(second), migrationNames);
      assert.deepEqual(await second.selectFrom('categorias').selectAll().execute(), [categoria]);
    } finally {
      await second.destroy();
    }
  });
});

describe('opening a store', () => {
  test('when the URL names an unsupported store, then opening it throws an error naming DATABASE_URL', () => {
    assert.throws(() => openDatabase('mysql://x'), { name: 'Error', message: /DATABASE_URL/ });
  });
});
