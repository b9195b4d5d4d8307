import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { etagOf } from '../../src/cache/etag.js';
import {
  artistaBody, buildTestApp, withApp, categoriaBody, createArtista, createCategoria, createPelicula, eventoUrbanoBody,
  obraBody, peliculaBody, send, unique, type Json,
} from '../helpers.js';
import { freshStore } from '../stores.js';

// A plain lookup (GET {path}/{value}, no _expand/_embed) may be answered from memory while its
// table is unchanged. Every kind of write, by this process or another, must show in the next one.

async function ok(app: FastifyInstance, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: Json): Promise<Json> {
  const res = await send(app, method, url, body);
  assert.equal(res.statusCode, method === 'POST' ? 201 : 200, `${method} ${url}: ${res.body}`);
  return res.json<Json>();
}

/** A lookup that must answer `expected` (as the service answered it on a write), with the ETag of its exact bytes. */
async function assertLookup(app: FastifyInstance, url: string, expected: Json): Promise<string> {
  const res = await app.inject({ method: 'GET', url });
  assert.equal(res.statusCode, 200, `GET ${url}: ${res.body}`);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(res.body, JSON.stringify(expected), `GET ${url}`);
  assert.equal(res.headers.etag, etagOf(res.rawPayload), `GET ${url}: the ETag of the exact bytes`);
  return String(res.headers.etag);
}

async function assertGone(app: FastifyInstance, url: string): Promise<void> {
  const res = await app.inject({ method: 'GET', url });
  assert.equal(res.statusCode, 404, `GET ${url}: ${res.body}`);
}

/** An artist's participations in two new movies, the first movie's first: what `/participaciones/pelicula` answers in turn. */
async function twoInMovies(app: FastifyInstance) {
  const [first, second] = [await createPelicula(app), await createPelicula(app)];
  const artista = await createArtista(app);
  const p1 = await ok(app, 'POST', '/participaciones', { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: first.id });
  const p2 = await ok(app, 'POST', '/participaciones', { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: second.id });
  return { first, artista, p1, p2 };
}

interface Resource {
  path: string;
  key: string;
  /** The field GET {path}/{value} looks up by. */
  lookup: string;
  body(app: FastifyInstance): Promise<Json>;
}

const resources: Resource[] = [
    { path: '/peliculas', key: 'id', lookup: 'titulo', body: async (app) => peliculaBody((await createCategoria(app)).id) },
  { path: '/Obras', key: 'id', lookup: 'titulo', body: async (app) => obraBody((await createCategoria(app)).id) },
  { path: '/eventosUrbanos', key: 'id', lookup: 'titulo', body: async (app) => eventoUrbanoBody((await createCategoria(app)).id) },
  { path: '/artistas', key: 'dni', lookup: 'dni', body: async () => artistaBody({ nombre: unique('Ana') }) },
];

const at = (r: Resource, record: Json) => `${r.path}/${encodeURIComponent(String(record[r.lookup]))}`;

describe('plain lookups after writes', () => {
  for (const r of resources) {
    it(`when a record of ${r.path} is created, replaced, patched and deleted, then each next lookup answers what was written`, () =>
      withApp(async (app) => {
        let record = await ok(app, 'POST', r.path, await r.body(app));
        const url = at(r, record);
        const tags = [await assertLookup(app, url, record)];
        assert.equal(await assertLookup(app, url, record), tags[0], 'read twice: the same ETag');

        // The lookup value stays, every other field changes.
        const other = await r.body(app);
        const replacement = { ...other, [r.key]: record[r.key], [r.lookup]: record[r.lookup] };
        record = await ok(app, 'PUT', `${r.path}/${record[r.key]}`, replacement);
        tags.push(await assertLookup(app, url, record));

        const changed = Object.keys(other).find((field) => field !== r.key && field !== r.lookup && typeof other[field] === 'string');
        assert.ok(changed);
        record = await ok(app, 'PATCH', `${r.path}/${record[r.key]}`, { [changed]: unique('Cambiado') });
        tags.push(await assertLookup(app, url, record));

        await ok(app, 'DELETE', `${r.path}/${record[r.key]}`);
        await assertGone(app, url);
        assert.equal(new Set(tags).size, tags.length, 'each write, a new ETag');

        // Made again under the same value: found again, as the new record.
        const again = await ok(app, 'POST', r.path, { ...(await r.body(app)), [r.lookup]: record[r.lookup] });
        await assertLookup(app, url, again);
      }));
  }

  it('when a category is renamed, then the old name is not found and the new one is', () =>
    withApp(async (app) => {
      const categoria = await ok(app, 'POST', '/categorias', categoriaBody());
      const old = `/categorias/${encodeURIComponent(String(categoria.nombre))}`;
      await assertLookup(app, old, categoria);
      const renamed = await ok(app, 'PUT', `/categorias/${categoria.id}`, categoriaBody());
      await assertGone(app, old);
      await assertLookup(app, `/categorias/${encodeURIComponent(String(renamed.nombre))}`, renamed);
      const patched = await ok(app, 'PATCH', `/categorias/${categoria.id}`, { nombre: categoria.nombre });
      await assertLookup(app, old, patched);
      await ok(app, 'DELETE', `/categorias/${categoria.id}`);
      await assertGone(app, old);
    }));

  it('when a title is renamed, then the old title is not found and the new one is, in every spelling', () =>
    withApp(async (app) => {
      const movie = await createPelicula(app, { titulo: unique('Canción') });
      const spellings = (title: string) => [title, title.toUpperCase(), title.replace('ó', 'o'), ` ${title} `];
      for (const title of spellings(movie.titulo)) await assertLookup(app, `/peliculas/${encodeURIComponent(title)}`, movie);
      const renamed = await ok(app, 'PATCH', `/peliculas/${movie.id}`, { titulo: unique('Balada') });
      for (const title of spellings(movie.titulo)) await assertGone(app, `/peliculas/${encodeURIComponent(title)}`);
      await assertLookup(app, `/peliculas/${encodeURIComponent(String(renamed.titulo))}`, renamed);
    }));

  it('when the participation a kind answers is deleted with its movie, then the lookup answers the next one of that kind', () =>
    withApp(async (app) => {
      const { first, artista, p1, p2 } = await twoInMovies(app);
      await assertLookup(app, '/participaciones/pelicula', p1);
      // The participation goes by ON DELETE CASCADE, a write to participaciones that no request named.
      await ok(app, 'DELETE', `/peliculas/${first.id}`);
      await assertLookup(app, '/participaciones/pelicula', p2);
      await ok(app, 'DELETE', `/artistas/${artista.dni}`);
      await assertGone(app, '/participaciones/pelicula');
    }));

  it('when an undo brings back a participation older than the one a kind answers, then the lookup answers it', () =>
    withApp(async (app) => {
      const { p1, p2 } = await twoInMovies(app);
      await ok(app, 'DELETE', `/participaciones/${String(p1.id)}`);
      await assertLookup(app, '/participaciones/pelicula', p2);
      // The undo writes participation p1 alone; the lookup's answer was about p2, which no write touched.
      const [baja] = (await send(app, 'GET', `/cambios?recurso=participaciones&clave=${String(p1.id)}&operacion=baja`)).json<Json[]>();
      const undone = await send(app, 'POST', `/cambios/${String(baja?.id)}/deshacer`);
      assert.equal(undone.statusCode, 200, undone.body);
      await assertLookup(app, '/participaciones/pelicula', p1);
    }));

  it('when a write fails, then the lookup still answers the record as it was, with the same ETag', () =>
    withApp(async (app) => {
      const [movie, other] = [await createPelicula(app), await createPelicula(app)];
      const url = `/peliculas/${encodeURIComponent(movie.titulo)}`;
      const tag = await assertLookup(app, url, movie);
      const duplicate = await send(app, 'PATCH', `/peliculas/${movie.id}`, { titulo: other.titulo });
      assert.equal(duplicate.statusCode, 400, duplicate.body);
      const missing = await send(app, 'PATCH', `/peliculas/${movie.id}`, { categoria_id: 999_999 });
      assert.equal(missing.statusCode, 400, missing.body);
      assert.equal(await assertLookup(app, url, movie), tag);
      const notModified = await app.inject({ method: 'GET', url, headers: { 'if-none-match': tag } });
      assert.equal(notModified.statusCode, 304);
    }));

  it('when a lookup asks for relations, then they are attached to the current record', () =>
    withApp(async (app) => {
      const movie = await createPelicula(app);
      const url = `/peliculas/${encodeURIComponent(movie.titulo)}`;
      await assertLookup(app, url, movie);
      const expanded = (await send(app, 'GET', `${url}?_expand=categoria`)).json<Json>();
      assert.deepEqual({ ...expanded, categoria: undefined }, { ...movie, categoria: undefined });
      assert.equal((expanded.categoria as Json).id, movie.categoria_id);
    }));
});

describe('pages and filters after writes', () => {
  /** A list answer that must be exactly `expected`, with its total and, for pages, a Link header. */
  async function assertPage(app: FastifyInstance, url: string, expected: Json[], total: number): Promise<string> {
    const res = await app.inject({ method: 'GET', url });
    assert.equal(res.statusCode, 200, `GET ${url}: ${res.body}`);
    assert.equal(res.body, JSON.stringify(expected), `GET ${url}`);
    assert.equal(res.headers['x-total-count'], String(total), `GET ${url}: X-Total-Count`);
    assert.equal(res.headers.etag, etagOf(res.rawPayload), `GET ${url}: the ETag of the exact bytes`);
    return String(res.headers.link);
  }

  it('when movies are created, patched and deleted, then each next page, filter and total shows it', () =>
    withApp(async (app) => {
      const categoria = await createCategoria(app);
      const movies: Json[] = [await createPelicula(app, { categoria_id: categoria.id, duracion: 90 }), await createPelicula(app, { categoria_id: categoria.id, duracion: 120 })];
      const page = '/peliculas?_page=1&_limit=2';
      const long = `/peliculas?categoria_id=${categoria.id}&duracion_gte=100`;
      const firstLink = await assertPage(app, page, movies, 2);
      await assertPage(app, long, [movies[1] as Json], 1);

      movies.push(await createPelicula(app, { categoria_id: categoria.id, duracion: 150 }));
      const secondLink = await assertPage(app, page, movies.slice(0, 2), 3);
      assert.notEqual(secondLink, firstLink, 'a second page now exists');
      await assertPage(app, '/peliculas?_limit=2&_page=2', movies.slice(2), 3);
      await assertPage(app, long, movies.slice(1), 2);

      movies[0] = await ok(app, 'PATCH', `/peliculas/${movies[0]?.id}`, { duracion: 200 });
      await assertPage(app, page, movies.slice(0, 2), 3);
      await assertPage(app, long, movies, 3);

      await ok(app, 'DELETE', `/peliculas/${movies[1]?.id}`);
      movies.splice(1, 1);
      await assertPage(app, page, movies, 2);
      await assertPage(app, long, movies, 2);
    }));
});

describe('plain lookups with two processes on one store', () => {
  it('when a lookup and a page are answered from memory, then their bytes, headers included, are those of the answer first built for them', async () => {
    const app = await buildTestApp();
    try {
      const categoria = await createCategoria(app);
      const written = await ok(app, 'PUT', `/peliculas/${(await createPelicula(app, { categoria_id: categoria.id })).id}`, peliculaBody(categoria.id));
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as { port: number };
      for (const path of [`/peliculas/${encodeURIComponent(String(written.titulo))}`, '/peliculas?_page=1&_limit=5']) {
        // The first answer is built from the rows; the next ones are the kept bytes.
        const [built, kept, again] = [await rawGet(port, path), await rawGet(port, path), await rawGet(port, path)];
        assert.equal(kept, built, path);
        assert.equal(again, built, path);
        const [head = '', body = ''] = built.split('\r\n\r\n');
        assert.match(head, /^HTTP\/1\.1 200 OK\r\n/);
        assert.match(head, new RegExp(`\r\netag: ${etagOf(body).replaceAll('"', '\\"')}\r\n`));
        assert.match(head, /\r\ncontent-type: application\/json; charset=utf-8\r\n/);
        assert.match(head, /\r\ncontent-security-policy: default-src 'none'; frame-ancestors 'none'\r\n/);
        if (path.includes('_page')) assert.match(head, /\r\nx-total-count: 1\r\nlink: /);
        // The same bytes as the record the write answered, serialized for that request.
        else assert.equal(body, JSON.stringify(written));
      }
    } finally {
      await app.close();
    }
  });

  it('when one process writes, then the other process looks up what was written, never what it answered before', async () => {
    const store = await freshStore();
    const [reader, writer] = [await buildTestApp({ DATABASE_URL: store.url }), await buildTestApp({ DATABASE_URL: store.url })];
    try {
      const obra = await ok(writer, 'POST', '/Obras', obraBody((await createCategoria(writer)).id));
      const url = `/Obras/${encodeURIComponent(String(obra.titulo))}`;
      await assertLookup(reader, url, obra);
      const replaced = await ok(writer, 'PUT', `/Obras/${obra.id}`, { ...obraBody(Number(obra.categoria_id)), titulo: obra.titulo });
      await assertLookup(reader, url, replaced);
      const patched = await ok(writer, 'PATCH', `/Obras/${obra.id}`, { duracion: 45 });
      await assertLookup(reader, url, patched);
      await ok(writer, 'DELETE', `/Obras/${obra.id}`);
      await assertGone(reader, url);
      const remade = await ok(writer, 'POST', '/Obras', { ...obraBody(Number(obra.categoria_id)), titulo: obra.titulo });
      await assertLookup(reader, url, remade);
      // And the other way round.
      const patchedByReader = await ok(reader, 'PATCH', `/Obras/${remade.id}`, { descripcion: unique('Otra') });
      await assertLookup(writer, url, patchedByReader);
    } finally {
      await reader.close();
      await writer.close();
      await store.drop();
    }
  });
});

/** The raw bytes of a GET over a real socket, with a fixed request id and the Date header blanked (it moves each second). */
async function rawGet(port: number, path: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: fixed\r\nConnection: close\r\n\r\n`);
  let raw = '';
  for await (const chunk of socket) raw += String(chunk);
  return raw.replace(/\r\nDate: [^\r]*\r\n/i, '\r\nDate: -\r\n');
}
