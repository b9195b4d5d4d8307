import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { assertError, buildTestApp, createPelicula, DELETE_TIMESTAMP, type Json } from '../helpers.js';

const get = (app: FastifyInstance, url: string, headers: InjectOptions['headers'] = {}) => app.inject({ method: 'GET', url, headers });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('health probes', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  for (const url of ['/health', '/health/ready', '/health/live']) {
    it(`when the store answers, then ${url} is 200 {"status":"ok"}`, async () => {
      const res = await get(app, url);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'ok' });
    });
  }
});

describe('GET /metrics', () => {
  it('when METRICS_ENABLED is not set, then /metrics does not exist', async () => {
    const app = await buildTestApp();
    try {
      assertError(await get(app, '/metrics'), 404, { details: 'No existe la ruta: GET /metrics' });
    } finally {
      await app.close();
    }
  });

  describe('when METRICS_ENABLED is true', () => {
    let app: FastifyInstance;
    before(async () => {
      app = await buildTestApp({ METRICS_ENABLED: 'true' });
    });
    after(() => app.close());

    it('then it answers the Prometheus text format, counting requests by method, route pattern and status', async () => {
      await get(app, '/peliculas');
      await get(app, '/peliculas/No%20existe');
      await get(app, '/nada');
      const res = await get(app, '/metrics');
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      assert.match(res.body, /^http_requests_total\{method="GET",route="\/peliculas",status_code="200"\} 1$/m);
      assert.match(res.body, /^http_requests_total\{method="GET",route="\/peliculas\/:titulo",status_code="404"\} 1$/m);
      assert.match(res.body, /^http_requests_total\{method="GET",route="not_found",status_code="404"\} 1$/m);
      assert.match(res.body, /^http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/peliculas",status_code="200"\} \d+$/m);
      assert.match(res.body, /^process_cpu_user_seconds_total \d/m);
      assert.match(res.body, /^nodejs_heap_size_used_bytes \d/m);
    });

    it('then scrapes of /metrics are not counted', async () => {
      await get(app, '/metrics');
      const res = await get(app, '/metrics');
      assert.doesNotMatch(res.body, /route="\/metrics"/);
    });
  });

  describe('when METRICS_TOKEN is set', () => {
    let app: FastifyInstance;
    before(async () => {
      app = await buildTestApp({ METRICS_ENABLED: '1', METRICS_TOKEN: 's3cr3t-token' });
    });
    after(() => app.close());

    const refused: [string, Json][] = [
      ['no Authorization', {}],
      ['a wrong token of the same length', { authorization: 'Bearer s3cr3t-tokeN' }],
      ['a wrong token of another length', { authorization: 'Bearer nope' }],
      ['the token without the Bearer scheme', { authorization: 's3cr3t-token' }],
    ];
    for (const [what, headers] of refused) {
      it(`when it is asked with ${what}, then 401 in the error body`, async () => {
        const res = await get(app, '/metrics', headers as InjectOptions['headers']);
        assertError(res, 401, { details: 'Se requiere un token válido para ver las métricas.', moreInfo: 'Error en la ruta: /metrics' });
        assert.equal(res.headers['www-authenticate'], 'Bearer');
        assert.doesNotMatch(res.body, /http_requests_total/);
      });
    }

    it('when it is asked with the right bearer token, then 200 and the metrics', async () => {
      const res = await get(app, '/metrics', { authorization: 'Bearer s3cr3t-token' });
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /^# TYPE http_requests_total counter$/m);
    });
  });
});

describe('X-Request-Id', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  it('when a request carries an acceptable X-Request-Id, then the answer echoes it', async () => {
    const res = await get(app, '/categorias', { 'x-request-id': 'pedido-42_ABC.def:1' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-request-id'], 'pedido-42_ABC.def:1');
    assert.equal((await get(app, '/health', { 'x-request-id': 'x'.repeat(128) })).headers['x-request-id'], 'x'.repeat(128));
  });

  const unacceptable: [string, string][] = [
    ['300 characters long', 'x'.repeat(300)],
    ['not ASCII', 'pedido-ñandú'],
    ['with a space', 'pedido 42'],
  ];
  for (const [what, id] of unacceptable) {
    it(`when the X-Request-Id is ${what}, then the answer carries a fresh id instead`, async () => {
      const res = await get(app, '/categorias', { 'x-request-id': id });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['x-request-id']), UUID);
    });
  }

  it('when no X-Request-Id is sent, then each answer carries its own', async () => {
    const [a, b] = await Promise.all([get(app, '/categorias'), get(app, '/categorias')]);
    assert.match(String(a?.headers['x-request-id']), UUID);
    assert.notEqual(a?.headers['x-request-id'], b?.headers['x-request-id']);
  });

  it('when the answer is an error (404, 405, 400), then it carries the id too', async () => {
    const notFound = await get(app, '/nada', { 'x-request-id': 'req-404' });
    assertError(notFound, 404, { details: 'No existe la ruta: GET /nada' });
    assert.equal(notFound.headers['x-request-id'], 'req-404');
    assert.match(String((await get(app, '/nada')).headers['x-request-id']), UUID);
    const notAllowed = await app.inject({ method: 'DELETE', url: '/peliculas', headers: { 'x-request-id': 'req-405' } });
    assert.equal(notAllowed.statusCode, 405);
    assert.equal(notAllowed.headers['x-request-id'], 'req-405');
    const invalid = await app.inject({ method: 'POST', url: '/categorias', payload: '{', headers: { 'content-type': 'application/json', 'x-request-id': 'req-400' } });
    assert.equal(invalid.statusCode, 400);
    assert.equal(invalid.headers['x-request-id'], 'req-400');
  });
});

describe('CORS', () => {
  const EXPOSED = ['ETag', 'Link', 'Location', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id', 'X-Total-Count'];
  const exposed = (header: unknown) => String(header).split(',').map((h) => h.trim()).sort();
  const preflight = (origin: string, method = 'PUT') => ({
    method: 'OPTIONS' as const,
    url: '/peliculas/1',
    headers: { origin, 'access-control-request-method': method },
  });

  describe('when CORS_ORIGIN is not set', () => {
    let app: FastifyInstance;
    before(async () => {
      app = await buildTestApp();
    });
    after(() => app.close());

    it('when a request comes with an Origin, then any origin may read it, and the headers a front end needs are exposed', async () => {
      const res = await get(app, '/peliculas', { origin: 'https://front.example' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.deepEqual(exposed(res.headers['access-control-expose-headers']), EXPOSED);
    });

    it('when an error is answered to an Origin, then the browser may read it too', async () => {
      const res = await get(app, '/nada', { origin: 'https://front.example' });
      assert.equal(res.statusCode, 404);
      assert.equal(res.headers['access-control-allow-origin'], '*');
    });

    it('when a preflight asks for PUT, then 204 allows every method the service uses, PATCH included', async () => {
      const res = await app.inject({ ...preflight('https://front.example'), headers: { ...preflight('https://front.example').headers, 'x-request-id': 'pre-1' } });
      assert.equal(res.statusCode, 204);
      assert.equal(res.body, '');
      assert.equal(res.headers['access-control-allow-origin'], '*');
      const methods = String(res.headers['access-control-allow-methods']).split(',').map((m) => m.trim());
      assert.deepEqual(methods.sort(), ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT']);
      assert.equal(res.headers['x-request-id'], 'pre-1');
    });

    it('when an OPTIONS is not a preflight (no Access-Control-Request-Method), then it is still a 405 with Allow', async () => {
      const res = await app.inject({ method: 'OPTIONS', url: '/peliculas', headers: { origin: 'https://front.example' } });
      assertError(res, 405, { details: 'El método OPTIONS no está permitido en esta ruta.' });
      assert.equal(res.headers.allow, 'GET, HEAD, POST');
    });
  });

  describe('when CORS_ORIGIN lists origins', () => {
    let app: FastifyInstance;
    before(async () => {
      app = await buildTestApp({ CORS_ORIGIN: 'https://a.example, https://b.example' });
    });
    after(() => app.close());

    for (const origin of ['https://a.example', 'https://b.example']) {
      it(`when ${origin} asks, then that origin, and only it, is allowed`, async () => {
        const res = await get(app, '/peliculas', { origin });
        assert.equal(res.headers['access-control-allow-origin'], origin);
        assert.match(String(res.headers.vary), /Origin/);
        const pre = await app.inject(preflight(origin, 'PATCH'));
        assert.equal(pre.statusCode, 204);
        assert.equal(pre.headers['access-control-allow-origin'], origin);
      });
    }

    it('when another origin asks, then no Access-Control-Allow-Origin is answered', async () => {
      const res = await get(app, '/peliculas', { origin: 'https://c.example' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['access-control-allow-origin'], undefined);
      assert.equal((await app.inject(preflight('https://c.example'))).headers['access-control-allow-origin'], undefined);
    });
  });
});

describe('the additions leave the spec responses unchanged', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp({ METRICS_ENABLED: 'true', METRICS_TOKEN: 'token', CORS_ORIGIN: 'https://a.example' });
  });
  after(() => app.close());
  const headers = { origin: 'https://a.example', 'x-request-id': 'spec-1' };

  it('when GET /peliculas has no query parameters, then its body is exactly the array of records', async () => {
    const uno = await createPelicula(app);
    const dos = await createPelicula(app);
    const res = await get(app, '/peliculas', headers);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(JSON.parse(res.body), [uno, dos]);
  });

  it('when a movie is deleted, then the body is exactly the spec five fields', async () => {
    const { id } = await createPelicula(app);
    const res = await app.inject({ method: 'DELETE', url: `/peliculas/${id}`, headers });
    assert.equal(res.statusCode, 200);
    const body = res.json<Json>();
    assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'location', 'timestamp', 'type']);
    assert.deepEqual(
      { ...body, timestamp: undefined },
      { type: 'Success', code: '200', details: `la pelicula con el id: ${id}. fue eliminada correctamente.`, location: `/peliculas/${id}`, timestamp: undefined },
    );
    assert.match(String(body.timestamp), DELETE_TIMESTAMP);
  });

  it('when an error is answered, then it is exactly the spec error body', async () => {
    const res = await get(app, '/peliculas/No%20existe', headers);
    assertError(res, 404, { details: 'No se encontró la película con el título: No existe' });
  });
});
