// The change log: what every write records, who wrote it, GET /cambios, and the undo.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { pruneChanges } from '../../src/changes/retention.js';
import { categorias } from '../../src/resources/index.js';
import { createRecord } from '../../src/resources/writes.js';
import { assertError, buildTestApp, type Json } from '../helpers.js';
import { backend, withMigratedStore } from '../stores.js';

const KEYS = 'ana:clave-de-ana-00000000001,clave-sin-nombre-000000002';
const ANA = { authorization: 'Bearer clave-de-ana-00000000001' };
const SECOND = { authorization: 'Bearer clave-sin-nombre-000000002' };
const CUANDO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

async function withKeys(test: (app: FastifyInstance) => Promise<void>) {
  const app = await buildTestApp({ API_KEYS: KEYS });
  try {
    await test(app);
  } finally {
    await app.close();
  }
}

async function call(app: FastifyInstance, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = ANA) {
  return app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
}
async function ok(app: FastifyInstance, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers?: Record<string, string>) {
  const res = await call(app, method, url, payload, headers);
  assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<Json & Json[]>();
}
const changes = async (app: FastifyInstance, query = '') => (await ok(app, 'GET', `/cambios${query}`)) as unknown as Json[];
/** A change without its instant, which is checked on its own. */
const plain = ({ cuando, ...change }: Json) => {
  assert.match(String(cuando), CUANDO);
  return change;
};
/** Every list of the catalogue, and the log's length: what a refused undo must leave as it was. */
async function state(app: FastifyInstance) {
  const lists = await Promise.all(['/categorias', '/peliculas', '/artistas', '/participaciones'].map(async (path) => (await call(app, 'GET', path)).body));
  return { lists, changes: (await call(app, 'GET', '/cambios?_limit=1')).headers['x-total-count'] };
}

/** A category, a movie in it, an artist and their participation. */
async function catalogue(app: FastifyInstance) {
  const categoria = await ok(app, 'POST', '/categorias', { nombre: 'Drama' });
  const pelicula = await ok(app, 'POST', '/peliculas', { titulo: 'Roma', sipnosis: 'Cleo.', duracion: 135, categoria_id: categoria.id });
  const artista = await ok(app, 'POST', '/artistas', { dni: 30111222, nombre: 'Yalitza', apellido: 'Aparicio', tipo: 'actriz', descripcion: 'Actriz.' });
  const participacion = await ok(app, 'POST', '/participaciones', { artistas_dni: 30111222, tipo_evento: 'pelicula', evento_id: pelicula.id });
  return { categoria, pelicula, artista, participacion };
}

describe(`the change log (${backend})`, () => {
  it('when records are created, changed and deleted, then each write records one change with the record before and after, the changed fields and who wrote it', () =>
    withKeys(async (app) => {
      const { categoria, pelicula } = await catalogue(app);
      await ok(app, 'PATCH', `/peliculas/${pelicula.id}`, { duracion: 136 }, SECOND);
      const updated = { ...pelicula, duracion: 136 };
      await ok(app, 'PUT', `/peliculas/${pelicula.id}`, updated);
      const log = await changes(app);
      assert.deepEqual(log.map(plain), [
        { id: 1, recurso: 'categorias', clave: categoria.id, operacion: 'alta', antes: null, despues: categoria, campos: ['id', 'nombre'], quien: 'ana', causa: null, deshace: null },
        { id: 2, recurso: 'peliculas', clave: pelicula.id, operacion: 'alta', antes: null, despues: pelicula, campos: ['id', 'titulo', 'sipnosis', 'duracion', 'categoria_id'], quien: 'ana', causa: null, deshace: null },
        { id: 3, recurso: 'artistas', clave: 30111222, operacion: 'alta', antes: null, despues: log[2]?.despues, campos: ['dni', 'nombre', 'apellido', 'tipo', 'descripcion'], quien: 'ana', causa: null, deshace: null },
        { id: 4, recurso: 'participaciones', clave: 1, operacion: 'alta', antes: null, despues: log[3]?.despues, campos: ['id', 'artistas_dni', 'tipo_evento', 'evento_id'], quien: 'ana', causa: null, deshace: null },
        // The PUT that changed nothing recorded nothing.
        { id: 5, recurso: 'peliculas', clave: pelicula.id, operacion: 'modificacion', antes: pelicula, despues: updated, campos: ['duracion'], quien: 'clave 2', causa: null, deshace: null },
      ]);
      assert.deepEqual(await ok(app, 'GET', '/cambios/5'), log[4]);
    }));

  it('when a movie with artists is deleted, then its baja comes first and each participation it took has the baja as causa', () =>
    withKeys(async (app) => {
      const { pelicula, participacion } = await catalogue(app);
      await ok(app, 'DELETE', `/peliculas/${pelicula.id}`);
      const [baja, cascaded] = await changes(app, '?operacion=baja');
      assert.deepEqual(plain(baja ?? {}), { id: 5, recurso: 'peliculas', clave: pelicula.id, operacion: 'baja', antes: pelicula, despues: null, campos: ['id', 'titulo', 'sipnosis', 'duracion', 'categoria_id'], quien: 'ana', causa: null, deshace: null });
      assert.deepEqual(plain(cascaded ?? {}), { id: 6, recurso: 'participaciones', clave: participacion.id, operacion: 'baja', antes: participacion, despues: null, campos: ['id', 'artistas_dni', 'tipo_evento', 'evento_id'], quien: 'ana', causa: 5, deshace: null });
    }));

  it('when writes need no key, then quien is null', async () => {
    const app = await buildTestApp();
    try {
      await ok(app, 'POST', '/categorias', { nombre: 'Drama' }, {});
      assert.equal((await changes(app))[0]?.quien, null);
    } finally {
      await app.close();
    }
  });

  it('when the log is listed, then it filters, sorts and pages as the resources do, and answers the first 1,000 when no page is asked for', () =>
    withKeys(async (app) => {
      await catalogue(app);
      const res = await call(app, 'GET', '/cambios?recurso=peliculas&clave=1');
      assert.equal(res.headers['x-total-count'], '1');
      assert.deepEqual(res.json<Json[]>().map((c) => c.id), [2]);
      assert.deepEqual((await changes(app, '?_sort=-id&_limit=2')).map((c) => c.id), [4, 3]);
      assert.deepEqual((await changes(app, '?quien=ANA&id_gte=3')).map((c) => c.id), [3, 4]);
      assert.deepEqual((await changes(app, '?cuando_gte=2000-01-01&operacion_ne=alta')).map((c) => c.id), []);
      assertError(await call(app, 'GET', '/cambios?operacion=borrado'), 400, { details: /operacion/ });
      assertError(await call(app, 'GET', '/cambios/0'), 400, { details: /id/ });
      assertError(await call(app, 'GET', '/cambios/99'), 404, { details: 'No se encontró el cambio con id: 99' });

      for (let i = 0; i < 1000; i++) await ok(app, 'POST', '/categorias', { nombre: `Categoría ${i}` });
      const all = await call(app, 'GET', '/cambios');
      assert.equal(all.json<Json[]>().length, 1000);
      assert.equal(all.headers['x-total-count'], '1004');
      assert.match(String(all.headers.link), /<\/cambios\?_page=2&_limit=1000>; rel="next"/);
    }));
});

describe(`undoing a change (${backend})`, () => {
  it('when a deleted movie\'s baja is undone, then it comes back with its key and its participations, and the undo is changes of its own', () =>
    withKeys(async (app) => {
      const { pelicula, participacion } = await catalogue(app);
      await ok(app, 'DELETE', `/peliculas/${pelicula.id}`);
      const made = (await ok(app, 'POST', '/cambios/5/deshacer', undefined, SECOND)) as unknown as Json[];
      assert.deepEqual(made.map(plain), [
        { id: 7, recurso: 'peliculas', clave: pelicula.id, operacion: 'alta', antes: null, despues: pelicula, campos: ['id', 'titulo', 'sipnosis', 'duracion', 'categoria_id'], quien: 'clave 2', causa: null, deshace: 5 },
        { id: 8, recurso: 'participaciones', clave: participacion.id, operacion: 'alta', antes: null, despues: participacion, campos: ['id', 'artistas_dni', 'tipo_evento', 'evento_id'], quien: 'clave 2', causa: null, deshace: 5 },
      ]);
      assert.deepEqual(await ok(app, 'GET', '/peliculas'), [pelicula]);
      assert.deepEqual(await ok(app, 'GET', '/participaciones'), [participacion]);

      // The undo of the undo deletes it again, cascade and all.
      const again = (await ok(app, 'POST', '/cambios/7/deshacer')) as unknown as Json[];
      assert.deepEqual(again.map((c) => [c.recurso, c.operacion, c.causa, c.deshace]), [['peliculas', 'baja', null, 7], ['participaciones', 'baja', 9, 7]]);
      assert.deepEqual(await ok(app, 'GET', '/participaciones'), []);
    }));

  it('when a modification is undone, then the fields come back; when a creation is undone, then the record goes', () =>
    withKeys(async (app) => {
      const { pelicula } = await catalogue(app);
      await ok(app, 'PATCH', `/peliculas/${pelicula.id}`, { duracion: 140, titulo: 'Roma (2018)' });
      const [undone] = (await ok(app, 'POST', '/cambios/5/deshacer')) as unknown as Json[];
      assert.deepEqual([undone?.operacion, undone?.campos, undone?.deshace], ['modificacion', ['titulo', 'duracion'], 5]);
      assert.deepEqual(await ok(app, 'GET', '/peliculas'), [pelicula]);

      const categoria = await ok(app, 'POST', '/categorias', { nombre: 'Comedia' });
      const [baja] = (await ok(app, 'POST', `/cambios/${Number(undone?.id) + 1}/deshacer`)) as unknown as Json[];
      assert.deepEqual([baja?.recurso, baja?.operacion, baja?.clave], ['categorias', 'baja', categoria.id]);
      assertError(await call(app, 'GET', `/categorias/Comedia`), 404, { details: /Comedia/ });
    }));

  it('when a change is undone a second time, then 409 says it was already undone and by which change, and nothing is stored; once that undo is undone, it can be undone again', () =>
    withKeys(async (app) => {
      const { pelicula } = await catalogue(app);
      await ok(app, 'PATCH', `/peliculas/${pelicula.id}`, { duracion: 140 });
      const [undo] = (await ok(app, 'POST', '/cambios/5/deshacer')) as unknown as Json[];
      const before = await state(app);
      assertError(await call(app, 'POST', '/cambios/5/deshacer'), 409, { details: `El cambio 5 ya fue deshecho por el cambio ${String(undo?.id)}; no se puede deshacer otra vez.` });
      assert.deepEqual(await state(app), before);

      // A deletion undone twice: the record's key is taken by its own restoration.
      await ok(app, 'DELETE', '/artistas/30111222');
      const [deleted] = (await ok(app, 'GET', '/cambios?recurso=artistas&operacion=baja')) as unknown as Json[];
      const [restored] = (await ok(app, 'POST', `/cambios/${String(deleted?.id)}/deshacer`)) as unknown as Json[];
      assertError(await call(app, 'POST', `/cambios/${String(deleted?.id)}/deshacer`), 409, {
        details: `El cambio ${String(deleted?.id)} ya fue deshecho por el cambio ${String(restored?.id)}; no se puede deshacer otra vez.`,
      });

      // Undoing the undo puts the movie back as change 5 left it: change 5 can be undone again.
      await ok(app, 'POST', `/cambios/${String(undo?.id)}/deshacer`);
      const [again] = (await ok(app, 'POST', '/cambios/5/deshacer')) as unknown as Json[];
      assert.deepEqual([again?.deshace, again?.campos], [5, ['duracion']]);
      assert.equal((await ok(app, 'GET', `/peliculas/Roma`)).duracion, 135);
    }));

  it('when the record changed since, its key is taken, or the store refuses, then 409 says why and nothing is stored', () =>
    withKeys(async (app) => {
      const { pelicula, categoria } = await catalogue(app);
      await ok(app, 'PATCH', `/peliculas/${pelicula.id}`, { duracion: 140 });
      await ok(app, 'PATCH', `/peliculas/${pelicula.id}`, { duracion: 141 });
      const before = await state(app);
      assertError(await call(app, 'POST', '/cambios/5/deshacer'), 409, { details: 'La película con id: 1 cambió después del cambio 5; no se puede deshacer.' });
      // The category is in use: undoing its creation would delete it.
      assertError(await call(app, 'POST', '/cambios/1/deshacer'), 409, {
        details: `No se puede deshacer el cambio 1: La categoría "${String(categoria.nombre)}" está en uso por 1 película; no se puede eliminar.`,
      });
      assertError(await call(app, 'POST', '/cambios/99/deshacer'), 404, { details: 'No se encontró el cambio con id: 99' });
      assert.deepEqual(await state(app), before);

      await ok(app, 'DELETE', '/participaciones/1');
      await ok(app, 'DELETE', '/artistas/30111222');
      await ok(app, 'POST', '/artistas', { dni: 30111222, nombre: 'Otra', apellido: 'Persona', tipo: 'actriz', descripcion: 'Otra.' });
      const taken = await state(app);
      const bajaDelArtista = (await changes(app, '?recurso=artistas&operacion=baja'))[0]?.id;
      assertError(await call(app, 'POST', `/cambios/${bajaDelArtista}/deshacer`), 409, {
        details: `Ya existe el artista con el dni: 30111222; no se puede deshacer el cambio ${bajaDelArtista}.`,
      });
      // Its participation's movie is gone: bringing the participation back is refused.
      await ok(app, 'DELETE', '/artistas/30111222');
      const bajaDeLaParticipacion = (await changes(app, '?recurso=participaciones&operacion=baja'))[0]?.id;
      await ok(app, 'DELETE', `/peliculas/${pelicula.id}`);
      const gone = await state(app);
      assert.equal((await call(app, 'POST', `/cambios/${bajaDeLaParticipacion}/deshacer`)).statusCode, 409);
      assert.deepEqual(await state(app), gone);
      assert.notDeepEqual(gone, taken);
    }));

  it('when API_KEYS is set, then an undo needs the write key', () =>
    withKeys(async (app) => {
      await catalogue(app);
      assert.equal((await call(app, 'POST', '/cambios/1/deshacer', undefined, {})).statusCode, 401);
    }));
});

describe(`the change log's retention (${backend})`, () => {
  it('when changes are older than CHANGES_KEEP_DAYS, then pruning removes them and only them', async () => {
    await withMigratedStore(async ({ db }) => {
      for (const nombre of ['Drama', 'Comedia', 'Música']) await createRecord(db, categorias, { nombre }, { quien: 'prueba' });
      await db.updateTable('cambios').set({ cuando: '2020-01-01T00:00:00.000+00:00' }).where('id', '<=', 2).execute();
      assert.equal(await pruneChanges(db, 365), 2);
      assert.deepEqual((await db.selectFrom('cambios').select('id').execute()).map((c) => Number(c.id)), [3]);
      assert.equal(await pruneChanges(db, 365), 0);
    });
  });

  it('when old changes fill several batches and a newer one sits among them (the clock went back), then every old one goes and no newer one', async () => {
    await withMigratedStore(async ({ db }) => {
      const old = '2020-01-01T00:00:00.000+00:00';
      const recent = new Date().toISOString().replace('Z', '+00:00');
      // 1,200 changes by id: old but for id 600 and the last 100.
      const cuandoOf = (id: number) => (id === 600 || id > 1100 ? recent : old);
      const rows = Array.from({ length: 1200 }, (_, i) => ({
        id: i + 1, recurso: 'categorias', clave: i + 1, operacion: 'alta' as const, antes: null, despues: '{}', campos: '[]', quien: null, quien_clave: null, cuando: cuandoOf(i + 1), causa: null, deshace: null,
      }));
      for (let i = 0; i < rows.length; i += 300) await db.insertInto('cambios').values(rows.slice(i, i + 300)).execute();
      assert.equal(await pruneChanges(db, 365), 1099);
      const left = (await db.selectFrom('cambios').select('id').orderBy('id').execute()).map((c) => Number(c.id));
      assert.deepEqual(left, [600, ...Array.from({ length: 100 }, (_, i) => 1101 + i)]);
    });
  });
});
