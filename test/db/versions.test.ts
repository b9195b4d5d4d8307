import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { tableVersions } from '../../src/cache/versions.js';
import { artistas, categorias, participaciones, peliculas, resources } from '../../src/resources/index.js';
import { createRecord, patchRecord, removeRecord, replaceRecord } from '../../src/resources/writes.js';
import { backend, withMigratedStore } from '../stores.js';

// What the caches learn from the change log (src/cache/versions.ts): which records changed between
// two versions of a table, or that nobody knows, in which case they drop everything.

const tableOf = Object.fromEntries(resources.map((r) => [r.name, r.table]));
const context = { quien: 'ana' };

describe(`which records changed, from the change log (${backend})`, () => {
  it('when records are written through the service, then the changed keys are known; when a write changes no row, then the version holds; when one logs nothing or bypasses the service, then they are not', async () => {
    await withMigratedStore(async ({ db }) => {
      const versions = tableVersions(db, tableOf);
      const { id: categoria_id } = await createRecord(db, categorias, { nombre: 'Drama' }, context);
      const movie = (titulo: string) => ({ titulo, sipnosis: 's', duracion: 90, categoria_id });
      for (const titulo of ['Alba', 'Brisa', 'Cielo']) await createRecord(db, peliculas, movie(titulo), context);
      await createRecord(db, artistas, { dni: 7, nombre: 'Ana', apellido: 'Paz', tipo: 'actor', descripcion: 'd' }, context);
      const { id: participacion } = await createRecord(db, participaciones, { artistas_dni: 7, tipo_evento: 'pelicula', evento_id: 3 }, context);
      const at = async (table: 'peliculas' | 'participaciones') => (await versions.of(table)).version;

      const start = await at('peliculas');
      const participationsStart = await at('participaciones');
      await patchRecord(db, peliculas, 2, { duracion: 100 }, context);
      const afterPatch = await at('peliculas');
      assert.deepEqual(versions.changedSince('peliculas', start), new Set([2]));

      await createRecord(db, peliculas, movie('Duna'), context);
      await removeRecord(db, peliculas, 3, context);
      const afterDelete = await at('peliculas');
      assert.deepEqual(versions.changedSince('peliculas', afterPatch), new Set([4, 3]));
      assert.deepEqual(versions.changedSince('peliculas', start), new Set([2, 4, 3]), 'steps add up');
      assert.deepEqual(versions.changedSince('participaciones', participationsStart), new Set([participacion]), 'the cascade');

      // A write that changes nothing stores nothing: the version holds.
      await replaceRecord(db, peliculas, 1, movie('Alba'), context);
      assert.equal(await at('peliculas'), afterDelete);
      assert.deepEqual(versions.changedSince('peliculas', afterDelete), new Set());

      // An update that changes no row (a record no longer at the version its writer knew, say) moves nothing.
      await sql`update peliculas set duracion = 1 where id = -1`.execute(db);
      assert.equal(await at('peliculas'), afterDelete);
      assert.deepEqual(versions.changedSince('peliculas', afterDelete), new Set());

      // An edit made outside the service moves the version and logs nothing.
      await sql`update peliculas set duracion = 95 where id = 1`.execute(db);
      assert.notEqual(await at('peliculas'), afterDelete);
      assert.equal(versions.changedSince('peliculas', afterDelete), undefined);
      assert.equal(versions.changedSince('peliculas', start), undefined, 'nor is anything known across it');

      // Known again from the next step on.
      const later = await at('peliculas');
      await patchRecord(db, peliculas, 1, { duracion: 96 }, context);
      await at('peliculas');
      assert.deepEqual(versions.changedSince('peliculas', later), new Set([1]));
    });
  });
});
