import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, FastifyRequest, LightMyRequestResponse } from 'fastify';
import { ifMatch } from '../../src/api/conditional.js';
import { etagOf } from '../../src/cache/etag.js';
import { Refusal } from '../../src/catalogue/refusal.js';
import { buildTestApp, createCategoria, createPelicula, peliculaBody, send, type Json } from '../helpers.js';

const STRONG_TAG = /^"[A-Za-z0-9_-]{27}"$/;

function conditionalGet(app: FastifyInstance, url: string, ifNoneMatch: string, method: 'GET' | 'HEAD' = 'GET') {
  return app.inject({ method, url, headers: { 'if-none-match': ifNoneMatch } });
}

function assertNotModified(res: LightMyRequestResponse, etag: string) {
  assert.equal(res.statusCode, 304, res.body);
  assert.equal(res.body, '');
  assert.equal(res.headers.etag, etag);
  assert.equal(res.headers['content-type'], undefined);
}

describe('conditional GET and HEAD: ETag and If-None-Match', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  it('when a list, a lookup or /health answers 200, then it carries the strong ETag of its exact body', async () => {
    const pelicula = await createPelicula(app);
    for (const url of ['/peliculas', `/peliculas/${encodeURIComponent(pelicula.titulo)}`, '/categorias', '/health']) {
      const res = await send(app, 'GET', url);
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      assert.match(String(res.headers.etag), STRONG_TAG, url);
      assert.equal(res.headers.etag, etagOf(res.rawPayload), url);
    }
  });

  it('when the same content is read twice, then both answers carry the same ETag', async () => {
    const pelicula = await createPelicula(app);
    const url = `/peliculas/${encodeURIComponent(pelicula.titulo)}`;
    const first = await send(app, 'GET', url);
    const second = await send(app, 'GET', url);
    assert.equal(first.body, second.body);
    assert.equal(first.headers.etag, second.headers.etag);
  });

  it('when the list changes by POST, PUT or DELETE, then its ETag changes each time', async () => {
    const categoria = await createCategoria(app);
    const tagOfList = async () => String((await send(app, 'GET', '/peliculas')).headers.etag);
    const seen = [await tagOfList()];

    const created = await send(app, 'POST', '/peliculas', peliculaBody(categoria.id));
    assert.equal(created.statusCode, 201, created.body);
    seen.push(await tagOfList());
    const { id, ...fields } = created.json<Json>();
    const replaced = await send(app, 'PUT', `/peliculas/${id}`, { ...fields, duracion: 140 });
    assert.equal(replaced.statusCode, 200, replaced.body);
    seen.push(await tagOfList());
    assert.equal((await send(app, 'DELETE', `/peliculas/${id}`)).statusCode, 200);
    seen.push(await tagOfList());

    const [before, afterPost, afterPut, afterDelete] = seen;
    assert.notEqual(afterPost, before);
    assert.notEqual(afterPut, afterPost);
    assert.notEqual(afterDelete, afterPut);
    // The delete restores the content from before the post, so its tag comes back too.
    assert.equal(afterDelete, before);
  });

  it('when If-None-Match names the current tag, then 304 with an empty body and the ETag', async () => {
    await createPelicula(app);
    const current = await send(app, 'GET', '/peliculas');
    const etag = String(current.headers.etag);
    const res = await conditionalGet(app, '/peliculas', etag);
    assertNotModified(res, etag);
    assert.equal(res.headers['content-length'], undefined);
  });

  it('when If-None-Match names the tag of a lookup, then that lookup answers 304', async () => {
    const pelicula = await createPelicula(app);
    const url = `/peliculas/${encodeURIComponent(pelicula.titulo)}`;
    const etag = String((await send(app, 'GET', url)).headers.etag);
    assertNotModified(await conditionalGet(app, url, etag), etag);
  });

  it('when If-None-Match names an old tag, then 200 with the body and the new ETag', async () => {
    const categoria = await createCategoria(app);
    const old = String((await send(app, 'GET', '/peliculas')).headers.etag);
    await createPelicula(app, { categoria_id: categoria.id });
    const res = await conditionalGet(app, '/peliculas', old);
    assert.equal(res.statusCode, 200);
    assert.ok(Array.isArray(res.json()));
    assert.notEqual(res.headers.etag, old);
    assert.equal(res.headers.etag, etagOf(res.rawPayload));
  });

  it('when If-None-Match is *, then 304', async () => {
    const etag = String((await send(app, 'GET', '/health')).headers.etag);
    assertNotModified(await conditionalGet(app, '/health', '*'), etag);
  });

  it('when If-None-Match lists other tags and the current one, then 304', async () => {
    const etag = String((await send(app, 'GET', '/categorias')).headers.etag);
    assertNotModified(await conditionalGet(app, '/categorias', `"x", ${etag}`), etag);
    assertNotModified(await conditionalGet(app, '/categorias', `W/"y",${etag} , "z"`), etag);
  });

  it('when If-None-Match names the current tag as weak, then 304 (weak comparison)', async () => {
    const etag = String((await send(app, 'GET', '/categorias')).headers.etag);
    assertNotModified(await conditionalGet(app, '/categorias', `W/${etag}`), etag);
  });

  it('when If-None-Match is malformed or names no current tag, then 200 with the body', async () => {
    for (const header of ['x', '""', '"otro", W/"otro"']) {
      const res = await conditionalGet(app, '/categorias', header);
      assert.equal(res.statusCode, 200, header);
      assert.ok(Array.isArray(res.json()), header);
    }
  });

  it('when HEAD is asked, then it carries the same ETag and Content-Length as GET, and no body', async () => {
    const pelicula = await createPelicula(app);
    for (const url of ['/peliculas', `/peliculas/${encodeURIComponent(pelicula.titulo)}`, '/health']) {
      const get = await send(app, 'GET', url);
      const head = await send(app, 'HEAD', url);
      assert.equal(head.statusCode, 200, url);
      assert.equal(head.body, '', url);
      assert.equal(head.headers.etag, get.headers.etag, url);
      assert.equal(head.headers['content-length'], String(get.rawPayload.length), url);
    }
  });

  it('when HEAD carries a matching If-None-Match, then 304 with the ETag and no body', async () => {
    await createPelicula(app);
    const get = await send(app, 'GET', '/peliculas');
    const etag = String(get.headers.etag);
    const res = await conditionalGet(app, '/peliculas', etag, 'HEAD');
    assertNotModified(res, etag);
    // Fastify's HEAD route sizes the answer; RFC 9110 §8.6 allows the 200's length on a 304.
    assert.equal(res.headers['content-length'], String(get.rawPayload.length));
  });

  it('when a GET answers an error (404), then it carries no ETag, even with If-None-Match: *', async () => {
    for (const url of ['/peliculas/No%20existe', '/nada']) {
      const res = await send(app, 'GET', url);
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.headers.etag, undefined, url);
      const conditional = await conditionalGet(app, url, '*');
      assert.equal(conditional.statusCode, 404, url);
      assert.equal(conditional.headers.etag, undefined, url);
    }
  });

  it('when a write answers 2xx, then it carries no ETag', async () => {
    const categoria = await createCategoria(app);
    const res = await send(app, 'POST', '/peliculas', peliculaBody(categoria.id));
    assert.equal(res.statusCode, 201);
    assert.equal(res.headers.etag, undefined);
  });
});

describe('etagOf', () => {
  it('when given the same bytes as text or Buffer, then the tag is the same quoted base64url SHA-1', () => {
    assert.equal(etagOf(''), '"2jmj7l5rSw0yVb_vlWAYkK_YBwk"');
    assert.equal(etagOf('{"nombre":"Canción"}'), etagOf(Buffer.from('{"nombre":"Canción"}', 'utf8')));
    assert.notEqual(etagOf('{"a":1}'), etagOf('{"a": 1}'));
  });
});

describe('ifMatch', () => {
  const record = JSON.stringify({ id: 4, titulo: 'Roma', sipnosis: 'Una historia.', duracion: 135, categoria_id: 1 });
  const current = etagOf(record);
  const requestWith = (ifMatch?: string) =>
    ({ headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } }) as unknown as FastifyRequest;
  const refused = (error: unknown) =>
    error instanceof Refusal && error.kind === 'changed' && error.details === 'El registro cambió desde que lo leyó: la condición If-Match no se cumple.';
  const checkIfMatch = (request: FastifyRequest, current: string | undefined) => ifMatch(request)?.(current);

  it('when If-Match names the current tag, then the write may go on', () => {
    checkIfMatch(requestWith(current), record);
    checkIfMatch(requestWith(`"viejo", ${current}`), record);
  });

  it('when If-Match names a stale tag, then 412 with the Spanish sentence', () => {
    assert.throws(() => checkIfMatch(requestWith(etagOf('{"id":4}')), record), refused);
  });

  it('when If-Match names the current tag as weak, then 412 (strong comparison)', () => {
    assert.throws(() => checkIfMatch(requestWith(`W/${current}`), record), refused);
  });

  it('when If-Match is * and the record exists, then the write may go on', () => {
    checkIfMatch(requestWith('*'), record);
  });

  it('when If-Match is * or a tag and the record does not exist, then 412', () => {
    assert.throws(() => checkIfMatch(requestWith('*'), undefined), refused);
    assert.throws(() => checkIfMatch(requestWith(current), undefined), refused);
  });

  it('when there is no If-Match, then the write has no precondition at all', () => {
    assert.equal(ifMatch(requestWith()), undefined);
    assert.equal(typeof ifMatch(requestWith(current)), 'function');
  });
});

describe('writes without If-Match', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(async () => {
    await app.close();
  });

  it('when a PUT, a PATCH and a DELETE carry no If-Match, then each applies to the record as it stands, whatever changed it since it was read', async () => {
    const categoria = await createCategoria(app);
    const movie = await createPelicula(app, { categoria_id: categoria.id });
    const read = await send(app, 'GET', `/peliculas/${encodeURIComponent(String(movie.titulo))}`);
    const tagRead = read.headers.etag;
    assert.equal(tagRead, etagOf(read.body), 'a lookup is tagged as the record it answers');
    assert.equal((await send(app, 'PATCH', `/peliculas/${movie.id}`, { duracion: 101 })).statusCode, 200);

    const replaced = await send(app, 'PUT', `/peliculas/${movie.id}`, peliculaBody(categoria.id, { titulo: movie.titulo, duracion: 102 }));
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.equal((replaced.json() as Json).duracion, 102);
    const patched = await send(app, 'PATCH', `/peliculas/${movie.id}`, { sipnosis: 'Otra historia.' });
    assert.equal(patched.statusCode, 200, patched.body);
    const stored = (await send(app, 'GET', `/peliculas?id=${movie.id}`)).json() as Json[];
    assert.deepEqual(stored, [{ ...movie, duracion: 102, sipnosis: 'Otra historia.' }]);

    const stale = await app.inject({ method: 'DELETE', url: `/peliculas/${movie.id}`, headers: { 'if-match': String(tagRead) } });
    assert.equal(stale.statusCode, 412, 'the tag read first is stale: the same write with it is refused');
    assert.equal((await send(app, 'DELETE', `/peliculas/${movie.id}`)).statusCode, 200);
    assert.deepEqual((await send(app, 'GET', `/peliculas?id=${movie.id}`)).json(), []);
  });
});
