import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { assertError, buildTestApp, createCategoria, ERROR_TIMESTAMP, peliculaBody, send, type Json } from '../helpers.js';

describe('answers outside the happy path all carry the spec error body', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
    // A handler that fails the way a broken query would, to see what a 500 reveals.
    app.get('/__falla', async () => {
      throw new Error('SELECT * FROM peliculas WHERE secret = 1');
    });
  });
  after(() => app.close());

  it('when a path is unknown, then 404 names the method and path', async () => {
    const res = await send(app, 'GET', '/nada/por/aqui?x=1');
    assertError(res, 404, {
      details: 'No existe la ruta: GET /nada/por/aqui',
      moreInfo: 'No se encontró en la ruta: /nada/por/aqui',
    });
  });

  it('when the URL is malformed, then 400 in the error body, with the request id', async () => {
    const res = await app.inject({ method: 'GET', url: '/peliculas/%ZZ', headers: { 'x-request-id': 'abc-123' } });
    assertError(res, 400, { details: 'La ruta de la petición no es una URL válida (revise las secuencias %).' });
    assert.equal(res.headers['x-request-id'], 'abc-123');
  });

  it('when a path differs only in case, then it is unknown (the spec spells /Obras with a capital O)', async () => {
    assertError(await send(app, 'GET', '/obras'), 404, { details: 'No existe la ruta: GET /obras' });
    assert.equal((await send(app, 'GET', '/Obras')).statusCode, 200);
  });

  const wrongMethods: [string, string, string][] = [
    ['DELETE', '/peliculas', 'GET, HEAD, POST'],
    ['PUT', '/Obras', 'GET, HEAD, POST'],
    ['POST', '/eventosUrbanos/3', 'DELETE, GET, HEAD, PATCH, PUT'],
    ['PATCH', '/artistas', 'GET, HEAD, POST'],
    ['DELETE', '/health', 'GET, HEAD'],
    ['OPTIONS', '/categorias', 'GET, HEAD, POST'],
  ];
  for (const [method, url, allow] of wrongMethods) {
    it(`when ${method} ${url} is asked, then 405 lists the allowed methods in Allow`, async () => {
      const res = await send(app, method as never, url);
      assertError(res, 405, {
        details: `El método ${method} no está permitido en esta ruta.`,
        moreInfo: `Método no permitido en la ruta: ${url}`,
      });
      assert.equal(res.headers.allow, allow);
    });
  }

  it('when a path parameter is longer than 100 characters, then a method the path lacks is still a 405', async () => {
    const url = `/peliculas/${'x'.repeat(300)}`;
    const res = await send(app, 'POST', url);
    assertError(res, 405, { details: 'El método POST no está permitido en esta ruta.' });
    assert.equal(res.headers.allow, 'DELETE, GET, HEAD, PATCH, PUT');
  });

  it('when an unknown route comes with a broken or non-JSON body, then it is a 404 or 405 all the same', async () => {
    const cases: [string, string, string, string, number][] = [
      ['POST', '/nada', 'application/json', '{"x":', 404],
      ['POST', '/nada', 'text/plain', 'hola', 404],
      ['PATCH', '/health', 'application/json', '', 405],
      ['PUT', '/peliculas', 'application/json', '{', 405],
    ];
    for (const [method, url, type, payload, status] of cases) {
      const res = await app.inject({ method: method as 'POST', url, payload, headers: { 'content-type': type } });
      assertError(res, status, { details: status === 404 ? `No existe la ruta: ${method} ${url}` : `El método ${method} no está permitido en esta ruta.` });
    }
  });

  it('when GET finds a route that then has nothing to serve (a missing file under /docs), then 404, not 405', async () => {
    assertError(await send(app, 'GET', '/docs/static/nada.js'), 404, { details: 'No existe la ruta: GET /docs/static/nada.js' });
  });

  it('when the body is not JSON, then 415 names the media type and nothing is stored', async () => {
    const res = await app.inject({ method: 'POST', url: '/categorias', payload: 'nombre=Drama', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assertError(res, 415, {
      details: "El tipo de contenido 'application/x-www-form-urlencoded' no está soportado; envíe el cuerpo como application/json.",
      moreInfo: 'No se pudo ingresar una nueva categoria error en: /categorias',
    });
    const plain = await app.inject({ method: 'POST', url: '/categorias', payload: 'Drama', headers: { 'content-type': 'text/plain' } });
    assert.equal(plain.statusCode, 415);
    assert.deepEqual((await send(app, 'GET', '/categorias')).json(), []);
  });

  it('when a body comes without a content type, then 415 asks for application/json', async () => {
    const res = await app.inject({ method: 'POST', url: '/peliculas', payload: Buffer.from('{}') });
    assertError(res, 415, {
      details: 'Falta el tipo de contenido; envíe el cuerpo como application/json.',
      moreInfo: 'No se pudo ingresar una pelicula categoria error en: /peliculas',
    });
  });

  it('when the JSON content type carries a charset, then the body is accepted', async () => {
    const res = await app.inject({
      method: 'POST', url: '/categorias', payload: JSON.stringify({ nombre: 'Con charset' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    assert.equal(res.statusCode, 201, res.body);
  });

  it('when the body is over 1 MiB, then 413, and a body just under the limit is judged on its fields', async () => {
    const { id } = await createCategoria(app);
    const tooLarge = JSON.stringify(peliculaBody(id, { sipnosis: 'x'.repeat(1024 * 1024) }));
    const res = await app.inject({ method: 'POST', url: '/peliculas', payload: tooLarge, headers: { 'content-type': 'application/json' } });
    assertError(res, 413, {
      details: 'El cuerpo de la petición supera el límite de 1 MiB.',
      moreInfo: 'No se pudo ingresar una pelicula categoria error en: /peliculas',
    });
    const justUnder = JSON.stringify(peliculaBody(id, { sipnosis: 'x'.repeat(1024 * 1024 - 200) }));
    assert.ok(Buffer.byteLength(justUnder) <= 1024 * 1024);
    const judged = await app.inject({ method: 'POST', url: '/peliculas', payload: justUnder, headers: { 'content-type': 'application/json' } });
    assertError(judged, 400, { details: "El campo 'sipnosis' no puede tener más de 5000 caracteres." });
  });

  const badBodies: [string, string, string][] = [
    ['malformed JSON', '{"nombre": ', 'El cuerpo de la petición no es un JSON válido.'],
    ['an empty body', '', 'El cuerpo de la petición está vacío; se esperaba un objeto JSON.'],
    ['a __proto__ key', '{"nombre":"x","__proto__":{"admin":true}}', 'El cuerpo de la petición no es un JSON válido.'],
    ['a constructor.prototype key', '{"nombre":"x","constructor":{"prototype":{"admin":true}}}', 'El cuerpo de la petición no es un JSON válido.'],
    ['a JSON array', '[{"nombre":"x"}]', 'El cuerpo de la petición debe ser un objeto JSON.'],
    ['a JSON string', '"x"', 'El cuerpo de la petición debe ser un objeto JSON.'],
    ['JSON null', 'null', 'El cuerpo de la petición debe ser un objeto JSON.'],
  ];
  for (const [what, payload, details] of badBodies) {
    it(`when the body is ${what}, then 400 says so and nothing is stored`, async () => {
      const before = (await send(app, 'GET', '/categorias')).json<Json[]>().length;
      const res = await app.inject({ method: 'POST', url: '/categorias', payload, headers: { 'content-type': 'application/json' } });
      assertError(res, 400, { details, moreInfo: 'No se pudo ingresar una nueva categoria error en: /categorias' });
      assert.equal((await send(app, 'GET', '/categorias')).json<Json[]>().length, before);
    });
  }

  it('when a handler fails unexpectedly, then 500 reveals neither the statement nor a stack', async () => {
    const res = await send(app, 'GET', '/__falla');
    assertError(res, 500, { details: 'Error interno del servidor.', moreInfo: 'Error interno en la ruta: /__falla' });
    assert.doesNotMatch(res.body, /SELECT|secret|at .*\.ts/);
  });

  it('when an error is answered, then its timestamp is the local time now, with milliseconds', async () => {
    const before = Date.now();
    const res = await send(app, 'GET', '/peliculas/No%20existe');
    const { timestamp } = res.json<{ timestamp: string }>();
    assert.match(timestamp, ERROR_TIMESTAMP);
    // No zone in the text: it reads as local time, which is what Date parses it as.
    const at = new Date(timestamp).getTime();
    assert.ok(at >= before - 1000 && at <= Date.now() + 1000, `${timestamp} is not now`);
  });

  it('when the store answers, then /health is 200 {"status":"ok"}', async () => {
    const res = await send(app, 'GET', '/health');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });
});
