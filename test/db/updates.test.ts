import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { categorias, peliculas } from '../../src/resources/index.js';
import { createRecord, patchRecord, replaceRecord } from '../../src/resources/writes.js';
import { backend, withMigratedStore } from '../stores.js';

// An update sets only the columns whose value changes: SQLite rewrites every index on a column an
// UPDATE sets, even to its own value, so setting the rest would cost pages for nothing. A trigger
// on `titulo_clave` (the unique index on a movie's title) tells whether an update set it.

const context = { quien: 'ana' };

it(`when an update leaves a movie's title as it was, then its comparable title is not set; when it renames it, then it is (${backend})`, async () => {
  await withMigratedStore(async ({ db }) => {
    await sql`create table marcas (columna text not null)`.execute(db);
    if (backend === 'sqlite') {
      await sql`create trigger marca after update of titulo_clave on peliculas begin insert into marcas values ('titulo_clave'); end`.execute(db);
    } else {
      await sql`create function marca() returns trigger language plpgsql as $$ begin insert into marcas values ('titulo_clave'); return null; end $$`.execute(db);
      await sql`create trigger marca after update of titulo_clave on peliculas for each row execute function marca()`.execute(db);
    }
    const marks = async () => (await sql<{ n: number | string }>`select count(*) as n from marcas`.execute(db)).rows.map((r) => Number(r.n))[0];
    const { id: categoria_id } = await createRecord(db, categorias, { nombre: 'Drama' }, context);
    const movie = { titulo: 'Alba', sipnosis: 'Una mañana.', duracion: 90, categoria_id };
    const { id } = await createRecord(db, peliculas, movie, context);

    const shown = (row: Record<string, unknown> | undefined) => row && JSON.parse(peliculas.representation(row));
    assert.deepEqual(shown(await replaceRecord(db, peliculas, id as number, { ...movie, duracion: 95 }, context)), { id, ...movie, duracion: 95 });
    assert.deepEqual(shown(await patchRecord(db, peliculas, id as number, { sipnosis: 'Una tarde.' }, context)), { id, ...movie, duracion: 95, sipnosis: 'Una tarde.' });
    assert.equal((await db.selectFrom('peliculas').select('sipnosis_clave').where('id', '=', id as number).executeTakeFirst())?.sipnosis_clave, 'una tarde.', 'the changed field\'s comparable form follows it');
    assert.equal(await marks(), 0, 'the title was not set');

    await patchRecord(db, peliculas, id as number, { titulo: 'Alba Roja' }, context);
    assert.equal(await marks(), 1, 'a rename sets it');
    const found = await peliculas.queries(db).find('alba roja');
    assert.equal(found?.id, id, 'the renamed movie is found by its new title');
    assert.equal(await peliculas.queries(db).find('alba'), undefined);
  });
});
