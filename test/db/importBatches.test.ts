import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { dialectOf } from '../../src/db/dialect.js';
import type { Db } from '../../src/db/schema.js';
import { transferred } from '../../src/resources/index.js';
import { importCatalogue } from '../../src/transfer/import.js';
import { readImport } from '../../src/transfer/read/index.js';
import { backend, withMigratedStore } from '../stores.js';
import { tempDir } from '../tempDir.js';

// An import stores its new records many a statement (src/transfer/import.ts, storeHeld). These
// tests hold that path to what storing them one by one gave: keys, references by name, the change
// log in file order, and, when the store refuses one row of a statement, that row named alone.

const MOVIES = 1234; // more than one statement's worth, and not a multiple of it

function document(movies: { titulo: string; id?: number }[]): string {
  const dir = tempDir('cartelera-import-');
  const file = join(dir, 'catalogo.json');
  const peliculas = movies.map((m) => ({ ...m, sipnosis: 's', duracion: 90, categoria: 'Drama' }));
  writeFileSync(file, JSON.stringify({ formato: 'cartelera', version: 1, categorias: [{ nombre: 'Drama' }], peliculas }));
  return file;
}

const importFile = (db: Db, file: string) => importCatalogue(db, readImport([file]), { onConflict: 'error', dryRun: false, quien: 'ana', timeZone: 'UTC' });

/** A trigger that refuses one title as the store refuses a broken reference, which no check before the insert foresees. */
async function refuseTitle(db: Db, titulo: string): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    await sql.raw(`create trigger rechaza before insert on peliculas when new.titulo = '${titulo}' begin select raise(abort, 'FOREIGN KEY constraint failed'); end`).execute(db);
  } else {
    await sql.raw(`create function rechaza() returns trigger language plpgsql as $$ begin if new.titulo = '${titulo}' then raise foreign_key_violation; end if; return new; end $$`).execute(db);
    await sql.raw('create trigger rechaza before insert on peliculas for each row execute function rechaza()').execute(db);
  }
}

describe(`import, many records a statement (${backend})`, () => {
  it('when a file holds more movies than one statement takes, then each is stored with the key the store hands out, named by its category, and logged in file order', async () => {
    await withMigratedStore(async ({ db }) => {
      // A key the store handed out before is never handed out again, even once its record is gone.
      await sql`insert into categorias (nombre, nombre_clave) values ('Vieja', 'vieja')`.execute(db);
      await sql`delete from categorias`.execute(db);
      const result = await importFile(db, document(Array.from({ length: MOVIES }, (_, i) => ({ titulo: `Película ${i + 1}` }))));
      assert.deepEqual(result.problems, []);
      assert.deepEqual(result.counts, { categorias: { created: 1, updated: 0, skipped: 0 }, peliculas: { created: MOVIES, updated: 0, skipped: 0 } });
      const { rows: categorias } = await sql<{ id: number }>`select id from categorias`.execute(db);
      assert.deepEqual(categorias.map((c) => Number(c.id)), [2]);
      const { rows: peliculas } = await sql<{ id: number; titulo: string; categoria_id: number }>`select id, titulo, categoria_id from peliculas order by id`.execute(db);
      assert.equal(peliculas.length, MOVIES);
      peliculas.forEach((p, i) => assert.deepEqual([Number(p.id), p.titulo, Number(p.categoria_id)], [i + 1, `Película ${i + 1}`, 2]));
      const { rows: cambios } = await sql<{ recurso: string; clave: number; despues: string; quien: string }>`select recurso, clave, despues, quien from cambios order by id`.execute(db);
      assert.deepEqual(cambios.map((c) => [c.recurso, Number(c.clave)]), [['categorias', 2], ...peliculas.map((p) => ['peliculas', Number(p.id)])]);
      assert.deepEqual(JSON.parse(cambios[MOVIES]?.despues ?? '{}'), { id: MOVIES, titulo: `Película ${MOVIES}`, sipnosis: 's', duracion: 90, categoria_id: 2 });
      assert.ok(cambios.every((c) => c.quien === 'ana'));
    });
  });

  it('when an import creates records of every resource, then each change holds the record exactly as the API answers it from the store', async () => {
    await withMigratedStore(async ({ db }) => {
      // Values a store could answer otherwise than given: accents, a boolean, coordinates, dates with and without a time, a null, a default, the largest dni.
      const file = join(tempDir('cartelera-import-'), 'catalogo.json');
      writeFileSync(file, JSON.stringify({
        formato: 'cartelera', version: 1,
        categorias: [{ nombre: 'Drama' }, { nombre: 'Música' }],
        peliculas: [{ titulo: 'Roma', sipnosis: 'Ciudad de México, 1970.', duracion: 135, categoria: 'Drama' }],
        Obras: [{ titulo: 'La Celestina', descripcion: 'Tragicomedia.', duracion: 120, categoria: 'Drama' }],
        eventosUrbanos: [{ titulo: 'Milonga', descripcion: 'Al aire libre.', fecha: '2026-09-20', lugar: 'Plaza Dorrego', categoria: 'Música' }],
        artistas: [{ dni: 9007199254740991, nombre: 'Alfonso', apellido: 'Cuarón', tipo: 'director', descripcion: 'Director.' }],
        participaciones: [{ artistas_dni: 9007199254740991, tipo_evento: 'pelicula', evento: 'Roma' }],
        lugares: [{ nombre: 'Teatro Colón', direccion: 'Cerrito 628', latitud: -34.601066, longitud: -58.383217, accesible: true }, { nombre: 'Sala', direccion: 'Corrientes 1' }],
        funciones: [{ tipo_evento: 'obra', evento: 'La Celestina', lugar: 'Teatro Colón', inicio: '2026-12-25T20:00:00-03:00', fin: null }],
      }));
      const result = await importFile(db, file);
      assert.deepEqual(result.problems, []);
      const { rows: cambios } = await sql<{ recurso: string; clave: number; despues: string }>`select recurso, clave, despues from cambios order by id`.execute(db);
      assert.equal(cambios.length, 10);
      for (const { recurso, clave, despues } of cambios) {
        const resource = transferred.find((r) => r.name === recurso);
        const stored = await resource?.queries(db).get(Number(clave));
        assert.ok(resource && stored, `${recurso} ${clave} is stored`);
        assert.equal(despues, resource.representation(stored));
      }
    });
  });

  it('when one statement holds movies that give their key and movies that do not, then each change is logged for its own record', async () => {
    await withMigratedStore(async ({ db }) => {
      // Keys given out of order, some above and some below those the store hands out: each row's answer must meet its record.
      const movies = [{ titulo: 'Sin clave 1' }, { titulo: 'Con clave 900', id: 900 }, { titulo: 'Sin clave 2' }, { titulo: 'Con clave 3', id: 3 }, { titulo: 'Sin clave 3' }];
      const result = await importFile(db, document(movies));
      assert.deepEqual(result.problems, []);
      const { rows: peliculas } = await sql<{ id: number; titulo: string }>`select id, titulo from peliculas order by id`.execute(db);
      const keyOf = new Map(peliculas.map((p) => [p.titulo, Number(p.id)]));
      assert.equal(keyOf.get('Con clave 900'), 900);
      assert.equal(keyOf.get('Con clave 3'), 3);
      const { rows: cambios } = await sql<{ clave: number; despues: string }>`select clave, despues from cambios where recurso = 'peliculas' order by id`.execute(db);
      assert.deepEqual(cambios.map((c) => [Number(c.clave), (JSON.parse(c.despues) as { id: number; titulo: string }).titulo]), movies.map((m) => [keyOf.get(m.titulo), m.titulo]));
      assert.ok(cambios.every((c) => (JSON.parse(c.despues) as { id: number }).id === Number(c.clave)));
    });
  });

  it('when the store refuses one row of a statement, then that row is named with its place and nothing is stored', async () => {
    await withMigratedStore(async ({ db }) => {
      await refuseTitle(db, 'Película 700');
      const result = await importFile(db, document(Array.from({ length: MOVIES }, (_, i) => ({ titulo: `Película ${i + 1}` }))));
      assert.deepEqual(
        result.problems.map((p) => [p.place.file.endsWith('catalogo.json'), p.place.list, p.place.position, p.resource, p.sentence]),
        [[true, 'peliculas', 700, 'peliculas', 'El registro hace referencia a otro que no existe.']],
      );
      for (const table of ['categorias', 'peliculas', 'cambios']) {
        const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
        assert.equal(Number(rows[0]?.n), 0, `${table} is empty`);
      }
    });
  });

  it('when the store refuses a row of the last statement, then that row is named with its place and nothing is stored', async () => {
    await withMigratedStore(async ({ db }) => {
      await refuseTitle(db, `Película ${MOVIES}`);
      const result = await importFile(db, document(Array.from({ length: MOVIES }, (_, i) => ({ titulo: `Película ${i + 1}` }))));
      assert.deepEqual(result.problems.map((p) => [p.place.position, p.sentence]), [[MOVIES, 'El registro hace referencia a otro que no existe.']]);
      for (const table of ['categorias', 'peliculas', 'cambios']) {
        const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
        assert.equal(Number(rows[0]?.n), 0, `${table} is empty`);
      }
    });
  });

  it('when a file has more problems than a report lists, then the first 1,000 are listed in file order, the rest counted, and nothing is stored', async () => {
    await withMigratedStore(async ({ db }) => {
      // Every movie after the first repeats its title: 1,233 problems, each naming where the title first came.
      const result = await importFile(db, document(Array.from({ length: MOVIES }, (_, i) => (i % 2 === 0 ? { titulo: 'Película' } : { titulo: 'película ', id: 7 }))));
      assert.equal(result.problems.length, 1000);
      assert.equal(result.unlisted, MOVIES - 1 - 1000);
      assert.deepEqual(result.problems.slice(0, 3).map((p) => [p.place.position, p.field, p.sentence]), [
        [2, 'titulo', 'película está repetido en la posición 1 de este archivo.'],
        [3, 'titulo', 'Película está repetido en la posición 1 de este archivo.'],
        [4, 'titulo', 'película está repetido en la posición 1 de este archivo.'],
      ]);
      assert.deepEqual(result.problems.map((p) => p.place.position), Array.from({ length: 1000 }, (_, i) => i + 2));
      for (const table of ['categorias', 'peliculas', 'cambios']) {
        const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
        assert.equal(Number(rows[0]?.n), 0, `${table} is empty`);
      }
    });
  });

  it('when a file gives the same id twice, then the second is named with where the first came', async () => {
    await withMigratedStore(async ({ db }) => {
      const result = await importFile(db, document([{ titulo: 'Uno', id: 40 }, { titulo: 'Dos', id: 41 }, { titulo: 'Tres', id: 40 }]));
      assert.deepEqual(result.problems.map((p) => [p.place.position, p.field, p.sentence]), [[3, 'id', 'Id 40 está repetido en la posición 1 de este archivo.']]);
    });
  });
});
