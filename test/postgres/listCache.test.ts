import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { etagOf } from '../../src/cache/etag.js';
import { type Service } from '../service.js';
import { harness } from '../harness.js';

// Two service processes on one database: each keeps its own cached whole-table lists, which the
// version kept in the database (bumped by triggers) must invalidate whoever wrote.

type Json = Record<string, unknown>;

const started = harness();

async function call(service: Service, method: string, path: string, body?: Json, headers: Record<string, string> = {}) {
  return fetch(`${service.base}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function written(service: Service, method: string, path: string, body: Json | undefined, status: number): Promise<Json> {
  const res = await call(service, method, path, body);
  const text = await res.text();
  assert.equal(res.status, status, `${method} ${path}: ${text}`);
  return JSON.parse(text) as Json;
}

/** GET of a whole list through `service`: exactly `expected`, with the ETag of its bytes, which it returns. */
async function assertWholeList(service: Service, path: string, expected: Json[], ifNoneMatch?: string): Promise<string> {
  const res = await call(service, 'GET', path, undefined, ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch });
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.equal(res.status, 200, `GET ${path}: ${bytes.toString()}`);
  assert.equal(bytes.toString(), JSON.stringify(expected), `GET ${path}`);
  const etag = String(res.headers.get('etag'));
  assert.equal(etag, etagOf(bytes), `GET ${path}: the ETag of the exact bytes`);
  return etag;
}

async function assertNotModified(service: Service, path: string, etag: string): Promise<void> {
  const res = await call(service, 'GET', path, undefined, { 'if-none-match': etag });
  assert.equal(res.status, 304, `GET ${path} If-None-Match ${etag}`);
  assert.equal(await res.text(), '');
  assert.equal(res.headers.get('etag'), etag);
}

describe('cached whole-table lists across two service processes on one PostgreSQL database', () => {
  it('when process A writes, then process B’s next whole list shows it, and B’s old ETag answers 200', async () => {
    const store = await started.store();
    // One after the other: the first applies the migrations.
    const a = await started.service({ DATABASE_URL: store.url });
    await a.healthy(30000);
    const b = await started.service({ DATABASE_URL: store.url });
    await b.healthy(30000);

    const categoria = await written(a, 'POST', '/categorias', { nombre: 'Drama' }, 201);
    const movie = (titulo: string, duracion: number) => ({ titulo, sipnosis: `Sinopsis de ${titulo}.`, duracion, categoria_id: categoria.id });
    const movies = [await written(a, 'POST', '/peliculas', movie('Roma', 135), 201)];

    const tags = [await assertWholeList(b, '/peliculas', movies)];
    assert.equal(await assertWholeList(b, '/peliculas', movies), tags[0], 'B’s cache: the same list, the same ETag');
    await assertNotModified(b, '/peliculas', String(tags[0]));

    movies.push(await written(a, 'POST', '/peliculas', movie('Relatos salvajes', 122), 201));
    tags.push(await assertWholeList(b, '/peliculas', movies, tags[0]));
    await assertNotModified(b, '/peliculas', String(tags.at(-1)));

    movies[0] = await written(a, 'PUT', `/peliculas/${movies[0]?.id}`, movie('Roma', 140), 200);
    tags.push(await assertWholeList(b, '/peliculas', movies, tags.at(-1)));

    movies[1] = await written(a, 'PATCH', `/peliculas/${movies[1]?.id}`, { sipnosis: 'Seis relatos de venganza.' }, 200);
    tags.push(await assertWholeList(b, '/peliculas', movies, tags.at(-1)));

    // A participation in the movie A deletes: B's cached /participaciones loses it too (cascade).
    const artista = await written(a, 'POST', '/artistas', { dni: 20111222, nombre: 'Ricardo', apellido: 'Darín', tipo: 'actor', descripcion: 'Actor.' }, 201);
    const participacion = await written(a, 'POST', '/participaciones', { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: movies[1]?.id }, 201);
    const parts = await assertWholeList(b, '/participaciones', [participacion]);
    await written(a, 'DELETE', `/peliculas/${movies[1]?.id}`, undefined, 200);
    movies.pop();
    tags.push(await assertWholeList(b, '/peliculas', movies, tags.at(-1)));
    const noParts = await assertWholeList(b, '/participaciones', [], parts);
    assert.notEqual(noParts, parts);

    // A writer that is not the service at all: the triggers bump the version just the same.
    const client = new pg.Client({ connectionString: store.url });
    await client.connect();
    try {
      await client.query('update peliculas set duracion = 99 where id = $1', [movies[0]?.id]);
    } finally {
      await client.end();
    }
    movies[0] = { ...movies[0], duracion: 99 };
    tags.push(await assertWholeList(b, '/peliculas', movies, tags.at(-1)));

    // And the other way round: B writes, A's cached list shows it.
    await assertWholeList(a, '/peliculas', movies);
    movies.push(await written(b, 'POST', '/peliculas', movie('Nueve reinas', 114), 201));
    tags.push(await assertWholeList(a, '/peliculas', movies, tags.at(-1)));
    assert.equal(await assertWholeList(b, '/peliculas', movies), tags.at(-1));

    assert.equal(new Set(tags).size, tags.length, `each write, a new list and a new ETag: ${tags.join(' ')}`);
    assert.deepEqual(await Promise.all([a.stop(), b.stop()]), [0, 0]);
  });
});
