import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { etagOf } from '../../src/cache/etag.js';
import { LIST_CACHE_MAX_BYTES } from '../../src/cache/fullList.js';
import {
  artistaBody, assertError, buildTestApp, withApp, categoriaBody, createArtista, createCategoria, createEventoUrbano, createObra,
  createPelicula, eventoUrbanoBody, obraBody, peliculaBody, send, unique, type Json,
} from '../helpers.js';
import { freshStore } from '../stores.js';

// The whole-table answer of GET {path} (no list parameters) is kept as bytes and an ETag while its
// table's version is unchanged, and streamed when it outgrows LIST_CACHE_MAX_BYTES. Each test
// builds its own app, so that a whole list is exactly the rows the test made.

const STRONG_TAG = /^"[A-Za-z0-9_-]{27}"$/;

async function post(app: FastifyInstance, path: string, body: Json): Promise<Json> {
  const res = await send(app, 'POST', path, body);
  assert.equal(res.statusCode, 201, `POST ${path}: ${res.body}`);
  return res.json<Json>();
}

async function ok(res: Promise<LightMyRequestResponse>, what: string): Promise<Json> {
  const answer = await res;
  assert.equal(answer.statusCode, 200, `${what}: ${answer.body}`);
  return answer.json<Json>();
}

/**
 * GET of a whole list, answered whole: asserts its exact bytes are `expected` (records as the
 * service answered them, so their fields are in schema order) and returns its ETag.
 */
async function assertWholeList(app: FastifyInstance, path: string, expected: Json[], headers: Record<string, string> = {}): Promise<string> {
  const res = await app.inject({ method: 'GET', url: path, headers });
  assert.equal(res.statusCode, 200, `GET ${path}: ${res.body}`);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(res.body, JSON.stringify(expected), `GET ${path}`);
  const etag = String(res.headers.etag);
  assert.match(etag, STRONG_TAG, `GET ${path}`);
  assert.equal(etag, etagOf(res.rawPayload), `GET ${path}: the ETag of the exact bytes`);
  return etag;
}

/** A conditional GET that must answer 304 with no body. */
async function assertNotModified(app: FastifyInstance, path: string, etag: string): Promise<void> {
  const res = await app.inject({ method: 'GET', url: path, headers: { 'if-none-match': etag } });
  assert.equal(res.statusCode, 304, `GET ${path} If-None-Match ${etag}: ${res.body}`);
  assert.equal(res.body, '');
  assert.equal(res.headers.etag, etag);
}

/** Exact text equality that, for megabytes of text, reports where they first differ. */
function assertSameText(actual: string, expected: string, what: string): void {
  if (actual === expected) return;
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i++;
  assert.fail(
    `${what}: lengths ${actual.length} and ${expected.length}, first difference at ${i}:\n` +
      `actual:   …${actual.slice(Math.max(0, i - 80), i + 80)}…\nexpected: …${expected.slice(Math.max(0, i - 80), i + 80)}…`,
  );
}

/** Every row of a list through the parameterized answer, page by page. */
async function pagedRows(app: FastifyInstance, path: string): Promise<Json[]> {
  const rows: Json[] = [];
  for (let page = 1; ; page++) {
    const res = await send(app, 'GET', `${path}?_page=${page}&_limit=1000`);
    assert.equal(res.statusCode, 200, `${path} page ${page}: ${res.body}`);
    const chunk = res.json<Json[]>();
    rows.push(...chunk);
    if (chunk.length < 1000) return rows;
  }
}

const without = (record: Json, key: string): Json => Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));

interface Resource {
  path: string;
  key: string;
  /** A valid create body, unlike any other in every field the test changes; makes what it refers to. */
  body(app: FastifyInstance): Promise<Json>;
  /** The field a PATCH changes (to the value of another fresh body). */
  patched: string;
}

const resources: Resource[] = [
  { path: '/categorias', key: 'id', body: async () => categoriaBody(), patched: 'nombre' },
  {
    path: '/peliculas', key: 'id', patched: 'sipnosis',
    body: async (app) => peliculaBody((await createCategoria(app)).id, { sipnosis: unique('Sinopsis') }),
  },
  { path: '/Obras', key: 'id', patched: 'titulo', body: async (app) => obraBody((await createCategoria(app)).id) },
  { path: '/eventosUrbanos', key: 'id', patched: 'lugar', body: async (app) => eventoUrbanoBody((await createCategoria(app)).id, { lugar: unique('Plaza'), fecha: '2025-10-10T20:00:00.000+00:00' }) },
  { path: '/artistas', key: 'dni', patched: 'nombre', body: async () => artistaBody({ nombre: unique('Ana') }) },
  {
    path: '/participaciones', key: 'id', patched: 'artistas_dni',
    body: async (app) => ({ artistas_dni: (await createArtista(app)).dni, tipo_evento: 'pelicula', evento_id: (await createPelicula(app)).id }),
  },
];

describe('the cached whole-table list under concurrent misses', () => {
  it('when many requests miss the cache at once, after a write, then every one answers the new list, byte for byte', () =>
    withApp(async (app) => {
      const categoria = await createCategoria(app);
      const movies: Json[] = [];
      for (let i = 0; i < 30; i++) movies.push(await post(app, '/peliculas', peliculaBody(categoria.id)));
      for (let round = 0; round < 3; round++) {
        movies.push(await post(app, '/peliculas', peliculaBody(categoria.id)));
        const answers = await Promise.all(Array.from({ length: 20 }, () => app.inject({ method: 'GET', url: '/peliculas' })));
        for (const res of answers) {
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.body, JSON.stringify(movies));
          assert.equal(res.headers.etag, etagOf(res.rawPayload));
        }
      }
    }));
});

describe('the cached whole-table list: every write invalidates it', () => {
  for (const r of resources) {
    it(`when ${r.path} is written by POST, PUT, PATCH and DELETE, then each next GET ${r.path} is the new list with a new ETag`, () =>
      withApp(async (app) => {
        const records = [await post(app, r.path, await r.body(app)), await post(app, r.path, await r.body(app))];
        const first = await assertWholeList(app, r.path, records);
        assert.equal(await assertWholeList(app, r.path, records), first, 'the same list twice: the same ETag');
        const tags = [first];

        records.push(await post(app, r.path, await r.body(app)));
        tags.push(await assertWholeList(app, r.path, records));

        const [a, b, c] = records.map((record) => record[r.key]);
        const replacement = { ...(await r.body(app)), [r.key]: a };
        records[0] = await ok(send(app, 'PUT', `${r.path}/${a}`, replacement), 'PUT');
        assert.deepEqual(without(records[0], r.key), without(replacement, r.key));
        tags.push(await assertWholeList(app, r.path, records));

        const patch = { [r.patched]: (await r.body(app))[r.patched] };
        records[1] = await ok(send(app, 'PATCH', `${r.path}/${b}`, patch), 'PATCH');
        assert.equal(records[1][r.patched], patch[r.patched]);
        tags.push(await assertWholeList(app, r.path, records));

        await ok(send(app, 'DELETE', `${r.path}/${c}`), 'DELETE');
        records.pop();
        tags.push(await assertWholeList(app, r.path, records));
        assert.equal(await assertWholeList(app, r.path, records), tags.at(-1), 'read again: the same ETag');

        assert.equal(new Set(tags).size, tags.length, `five different lists, five different ETags: ${tags.join(' ')}`);
      }));
  }

  it('when a movie, a work, an event or an artist is deleted, then the cached /participaciones no longer lists its participations', () =>
    withApp(async (app) => {
      const [a1, a2, a3] = [await createArtista(app), await createArtista(app), await createArtista(app)];
      const [p, p2, o, e] = [await createPelicula(app), await createPelicula(app), await createObra(app), await createEventoUrbano(app)];
      const part = (artista: Json, tipo_evento: string, item: Json) =>
        post(app, '/participaciones', { artistas_dni: artista.dni, tipo_evento, evento_id: item.id });
      let parts = [
        await part(a1, 'pelicula', p), await part(a2, 'pelicula', p), await part(a3, 'pelicula', p2), await part(a2, 'pelicula', p2),
        await part(a1, 'obra', o), await part(a3, 'obra', o), await part(a2, 'eventoUrbano', e), await part(a3, 'eventoUrbano', e),
      ];
      const tags = [await assertWholeList(app, '/participaciones', parts)];
      assert.equal(await assertWholeList(app, '/participaciones', parts), tags[0]);

      const deletions: [string, (pt: Json) => boolean][] = [
        [`/peliculas/${p.id}`, (pt) => pt.tipo_evento === 'pelicula' && pt.evento_id === p.id],
        [`/Obras/${o.id}`, (pt) => pt.tipo_evento === 'obra' && pt.evento_id === o.id],
        [`/eventosUrbanos/${e.id}`, (pt) => pt.tipo_evento === 'eventoUrbano' && pt.evento_id === e.id],
        [`/artistas/${a3.dni}`, (pt) => pt.artistas_dni === a3.dni],
      ];
      for (const [url, gone] of deletions) {
        await ok(send(app, 'DELETE', url), `DELETE ${url}`);
        parts = parts.filter((pt) => !gone(pt));
        tags.push(await assertWholeList(app, '/participaciones', parts));
        await assertNotModified(app, '/participaciones', String(tags.at(-1)));
      }
      assert.deepEqual(parts.map((pt) => [pt.artistas_dni, pt.evento_id]), [[a2.dni, p2.id]]);
      assert.equal(new Set(tags).size, tags.length, 'each delete changed the list');
    }));

  it('when a category in use is renamed, then GET /categorias shows the new name and /peliculas, which names it by id, is unchanged', () =>
    withApp(async (app) => {
      const categorias: Json[] = [await createCategoria(app), await createCategoria(app)];
      const pelicula = await createPelicula(app, { categoria_id: categorias[0]?.id });
      const before = await assertWholeList(app, '/categorias', categorias);
      const movies = await assertWholeList(app, '/peliculas', [pelicula]);

      categorias[0] = await ok(send(app, 'PUT', `/categorias/${categorias[0]?.id}`, { nombre: unique('Renombrada') }), 'PUT');
      const afterPut = await assertWholeList(app, '/categorias', categorias);
      categorias[1] = await ok(send(app, 'PATCH', `/categorias/${categorias[1]?.id}`, { nombre: unique('Parcheada') }), 'PATCH');
      const afterPatch = await assertWholeList(app, '/categorias', categorias);

      assert.equal(new Set([before, afterPut, afterPatch]).size, 3);
      await assertNotModified(app, '/peliculas', movies);
      assert.equal(await assertWholeList(app, '/peliculas', [pelicula]), movies);
    }));

  it('when writes fail (duplicate, missing reference, not found, precondition, category in use), then the lists stay identical and 304', () =>
    withApp(async (app) => {
      const categoria = await createCategoria(app);
      const [m1, m2] = [await createPelicula(app, { categoria_id: categoria.id }), await createPelicula(app, { categoria_id: categoria.id })];
      const movies = await assertWholeList(app, '/peliculas', [m1, m2]);
      const categories = await assertWholeList(app, '/categorias', [categoria]);
      const fields2 = without(m2, 'id');
      const stale = { 'if-match': '"stale"' };

      const failures: [string, () => Promise<LightMyRequestResponse>, number][] = [
        ['duplicate POST', () => send(app, 'POST', '/peliculas', peliculaBody(categoria.id, { titulo: m1.titulo })), 400],
        ['duplicate POST, another spelling', () => send(app, 'POST', '/peliculas', peliculaBody(categoria.id, { titulo: ` ${m1.titulo.toUpperCase()} ` })), 400],
        ['POST with a missing category', () => send(app, 'POST', '/peliculas', peliculaBody(2147483647)), 400],
        ['duplicate PUT', () => send(app, 'PUT', `/peliculas/${m2.id}`, { ...fields2, titulo: m1.titulo }), 400],
        ['duplicate PATCH', () => send(app, 'PATCH', `/peliculas/${m2.id}`, { titulo: m1.titulo }), 400],
        ['PUT of a missing movie', () => send(app, 'PUT', '/peliculas/2147483647', fields2), 404],
        ['PATCH of a missing movie', () => send(app, 'PATCH', '/peliculas/2147483647', { duracion: 1 }), 404],
        ['DELETE of a missing movie', () => send(app, 'DELETE', '/peliculas/2147483647'), 404],
        ['PUT with a stale If-Match', () => app.inject({ method: 'PUT', url: `/peliculas/${m2.id}`, headers: stale, payload: { ...fields2, duracion: 1 } }), 412],
        ['DELETE with a stale If-Match', () => app.inject({ method: 'DELETE', url: `/peliculas/${m2.id}`, headers: stale }), 412],
        ['DELETE of a category in use', () => send(app, 'DELETE', `/categorias/${categoria.id}`), 400],
      ];
      for (const [what, write, status] of failures) {
        const answer = await write();
        assert.equal(answer.statusCode, status, `${what}: ${answer.body}`);
        await assertNotModified(app, '/peliculas', movies);
        await assertNotModified(app, '/categorias', categories);
        assert.equal(await assertWholeList(app, '/peliculas', [m1, m2]), movies, what);
        assert.equal(await assertWholeList(app, '/categorias', [categoria]), categories, what);
      }
      assertError(await send(app, 'POST', '/peliculas', peliculaBody(categoria.id, { titulo: m1.titulo })), 400, {
        details: `Ya existe una película con el titulo de: ${m1.titulo}, por favor, intente con otro distinto`,
      });
      await assertNotModified(app, '/peliculas', movies);
    }));
});

describe('the cached whole-table list: conditional GET', () => {
  it('when the list is revalidated with its ETag, then 304 with no body; after a write, 200 with the new list and a new ETag', () =>
    withApp(async (app) => {
      const m1 = await createPelicula(app);
      const first = await send(app, 'GET', '/peliculas');
      assert.equal(first.body, JSON.stringify([m1]));
      const etag = String(first.headers.etag);
      assert.match(etag, STRONG_TAG);

      await assertNotModified(app, '/peliculas', etag);
      const head = await app.inject({ method: 'HEAD', url: '/peliculas' });
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
      assert.equal(head.headers.etag, etag);
      assert.equal(head.headers['content-length'], String(first.rawPayload.length));

      const m2 = await createPelicula(app, { categoria_id: m1.categoria_id });
      const changed = await assertWholeList(app, '/peliculas', [m1, m2], { 'if-none-match': etag });
      assert.notEqual(changed, etag);
      await assertNotModified(app, '/peliculas', changed);
      const either = await app.inject({ method: 'GET', url: '/peliculas', headers: { 'if-none-match': `${etag}, ${changed}` } });
      assert.equal(either.statusCode, 304);

      await ok(send(app, 'PATCH', `/peliculas/${m2.id}`, { duracion: 7 }), 'PATCH');
      const patched = await assertWholeList(app, '/peliculas', [m1, { ...m2, duracion: 7 }], { 'if-none-match': `${etag}, ${changed}` });
      assert.equal(new Set([etag, changed, patched]).size, 3);
    }));
});

describe('the whole-table list: streamed or not, the same bytes as the parameterized answer', () => {
  it('when small lists of every resource are read whole, then each is the text of its rows read with ?_limit=1000', () =>
    withApp(async (app) => {
      const odd = 'Comillas "así", barra \\ y /, tab\t, línea\nnueva, \u2028, ñandú, 🎬, \u0001.';
      const categoria = await createCategoria(app, { nombre: 'Categoría "ñ" 🎬' });
      const pelicula = await createPelicula(app, { categoria_id: categoria.id, sipnosis: odd });
      const obra = await createObra(app, { categoria_id: categoria.id, descripcion: odd });
      const evento = await createEventoUrbano(app, { categoria_id: categoria.id, descripcion: odd, fecha: '2025-10-10T23:30:00-05:00' });
      assert.equal(evento.fecha, '2025-10-11T04:30:00.000+00:00');
      const artista = await createArtista(app, { dni: Number.MAX_SAFE_INTEGER, descripcion: odd });
      for (const [tipo_evento, item] of [['pelicula', pelicula], ['obra', obra], ['eventoUrbano', evento]] as const) {
        await post(app, '/participaciones', { artistas_dni: artista.dni, tipo_evento, evento_id: item.id });
      }
      await createArtista(app, { dni: 1 });

      for (const path of ['/categorias', '/peliculas', '/Obras', '/eventosUrbanos', '/artistas', '/participaciones']) {
        const rows = await send(app, 'GET', `${path}?_limit=1000`);
        assert.equal(rows.statusCode, 200, rows.body);
        assert.ok(rows.json<Json[]>().length > 0, path);
        const whole = await send(app, 'GET', path);
        assert.equal(whole.body, rows.body, path);
        assert.equal(whole.body, JSON.stringify(rows.json()), path);
      }
    }));

  it('when the whole list outgrows LIST_CACHE_MAX_BYTES, then it is streamed, byte for byte the rows read page by page, and never stale', () =>
    withApp(async (app) => {
      const categoria = await createCategoria(app);
      const small = [await createPelicula(app, { categoria_id: categoria.id })];
      const smallTag = await assertWholeList(app, '/peliculas', small);

      // Long synopses, with characters JSON escapes and characters of 2 to 4 bytes, near the 5000 limit.
      const unit = 'Ella dijo "¿año?" \\ ñandú 🎬\ttras la línea\n';
      const sipnosis = (i: number) => `${i}: ${unit.repeat(Math.floor(4990 / [...unit].length))}`.trim();
      const rowBytes = Buffer.byteLength(JSON.stringify(sipnosis(0)));
      const count = Math.ceil((LIST_CACHE_MAX_BYTES * 1.15) / rowBytes);
      const movies: Json[] = [...small];
      for (let start = 0; start < count; start += 50) {
        const batch = Array.from({ length: Math.min(50, count - start) }, (_, j) =>
          post(app, '/peliculas', peliculaBody(categoria.id, { titulo: unique('Larga'), sipnosis: sipnosis(start + j), duracion: 1 + ((start + j) % 500) })),
        );
        movies.push(...(await Promise.all(batch)));
      }
      movies.sort((x, y) => Number(x.id) - Number(y.id));
      const expected = JSON.stringify(movies);
      assert.ok(Buffer.byteLength(expected) > LIST_CACHE_MAX_BYTES, `${Buffer.byteLength(expected)} bytes must exceed the limit`);

      const assertStreamed = async (ifNoneMatch?: string) => {
        const res = await app.inject({ method: 'GET', url: '/peliculas', headers: ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {} });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(res.headers.etag, undefined, 'a streamed list has no ETag');
        return res.body;
      };
      const streamed = await assertStreamed(smallTag);
      assertSameText(streamed, expected, 'the streamed list and the records created');
      const paged = await pagedRows(app, '/peliculas');
      assert.equal(paged.length, movies.length);
      assertSameText(streamed, JSON.stringify(paged), 'the streamed list and its rows read page by page');
      assert.deepEqual(JSON.parse(streamed), paged);

      // A write in the middle of the list: the next stream carries it.
      const middle = Math.floor(movies.length / 2);
      movies[middle] = await ok(send(app, 'PATCH', `/peliculas/${movies[middle]?.id}`, { duracion: 99999 }), 'PATCH');
      assertSameText(await assertStreamed(), JSON.stringify(movies), 'the streamed list after a PATCH');

      // Shrunk below the limit again: answered whole, cached, exact.
      while (Buffer.byteLength(JSON.stringify(movies)) > LIST_CACHE_MAX_BYTES * 0.9) {
        const gone = movies.splice(1, 50);
        await Promise.all(gone.map((m) => ok(send(app, 'DELETE', `/peliculas/${m.id}`), 'DELETE')));
      }
      const shrunk = await assertWholeList(app, '/peliculas', movies);
      assert.equal(await assertWholeList(app, '/peliculas', movies), shrunk);
      await assertNotModified(app, '/peliculas', shrunk);
    }));
});

describe('concurrent reads on reused statements', () => {
  it('when 50 different movies are looked up at once, then each answer is its own record', () =>
    withApp(async (app) => {
      const movies = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => createPelicula(app, { sipnosis: `Sinopsis ${i}`, duracion: i + 1 })),
      );
      const answers = await Promise.all(movies.map((m) => send(app, 'GET', `/peliculas/${encodeURIComponent(m.titulo)}`)));
      answers.forEach((res, i) => {
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.body, JSON.stringify(movies[i]));
      });
    }));

  it('when lookups, filtered lists, whole lists, misses and writes interleave, then every answer is its own', () =>
    withApp(async (app) => {
      const categorias = await Promise.all(Array.from({ length: 50 }, () => createCategoria(app)));
      const movies = await Promise.all(categorias.map((c, i) => createPelicula(app, { categoria_id: c.id, duracion: i + 1 })));
      const pending = movies.flatMap((m, i) => {
        const missing = unique('No existe');
        const categoria = categorias[i];
        if (!categoria) throw new Error('a category per movie');
        return [
          send(app, 'GET', `/peliculas/${encodeURIComponent(m.titulo)}`).then((res) => assert.equal(res.body, JSON.stringify(m))),
          send(app, 'GET', `/categorias/${encodeURIComponent(categoria.nombre)}`).then((res) => assert.equal(res.body, JSON.stringify(categoria))),
          send(app, 'GET', `/peliculas?categoria_id=${m.categoria_id}`).then((res) => {
            assert.equal(res.body, JSON.stringify([m]));
            assert.equal(res.headers['x-total-count'], '1');
          }),
          send(app, 'GET', `/peliculas/${encodeURIComponent(missing)}`).then((res) =>
            assertError(res, 404, { details: `No se encontró la película con el título: ${missing}` }),
          ),
          send(app, 'GET', '/peliculas').then((res) => {
            assert.equal(res.statusCode, 200);
            assert.equal(res.json<Json[]>().length, 50);
          }),
          send(app, 'POST', '/categorias', { nombre: unique('Nueva') }).then((res) => assert.equal(res.statusCode, 201, res.body)),
        ];
      });
      await Promise.all(pending);
      await assertWholeList(app, '/peliculas', movies.sort((x, y) => x.id - y.id));
    }));
});

describe('two apps on one store', () => {
  it('when the other app writes, then this app’s cached lists show it at once', async () => {
    const store = await freshStore();
    const a = await buildTestApp({ DATABASE_URL: store.url });
    const b = await buildTestApp({ DATABASE_URL: store.url });
    try {
      const categoria = await createCategoria(a);
      const movies: Json[] = [await createPelicula(a, { categoria_id: categoria.id }), await createPelicula(a, { categoria_id: categoria.id })];
      const tags = [await assertWholeList(b, '/peliculas', movies)];
      assert.equal(await assertWholeList(b, '/peliculas', movies), tags[0]);

      movies.push(await post(a, '/peliculas', peliculaBody(categoria.id)));
      tags.push(await assertWholeList(b, '/peliculas', movies, { 'if-none-match': String(tags[0]) }));
      movies[0] = await ok(send(a, 'PUT', `/peliculas/${movies[0]?.id}`, peliculaBody(categoria.id)), 'PUT');
      tags.push(await assertWholeList(b, '/peliculas', movies, { 'if-none-match': String(tags.at(-1)) }));
      movies[1] = await ok(send(a, 'PATCH', `/peliculas/${movies[1]?.id}`, { duracion: 3 }), 'PATCH');
      tags.push(await assertWholeList(b, '/peliculas', movies, { 'if-none-match': String(tags.at(-1)) }));

      const artista = await createArtista(a);
      const part = await post(a, '/participaciones', { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: movies[2]?.id });
      await assertWholeList(b, '/participaciones', [part]);
      await ok(send(a, 'DELETE', `/peliculas/${movies[2]?.id}`), 'DELETE');
      movies.pop();
      tags.push(await assertWholeList(b, '/peliculas', movies, { 'if-none-match': String(tags.at(-1)) }));
      await assertWholeList(b, '/participaciones', []);

      // And the other way round.
      const viaB = await post(b, '/peliculas', peliculaBody(categoria.id));
      await assertWholeList(a, '/peliculas', [...movies, viaB]);
      assert.equal(new Set(tags).size, tags.length);
    } finally {
      await b.close();
      await a.close();
      await store.drop();
    }
  });
});
