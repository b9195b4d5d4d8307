import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import sharp from 'sharp';
import { loadConfig } from '../../src/config.js';
import { SHED_RETRY_AFTER_SECONDS } from '../../src/ops/protection.js';
import { artistaBody, assertError, buildTestApp, categoriaBody, type Categoria, type Json } from '../helpers.js';
import { backend } from '../stores.js';
import { upload as multipart } from './uploads.js';

const KEYS = ['primera-clave-de-prueba-0001', 'segunda.clave_de~prueba/0002=='];
const WRONG = 'otra-clave-que-no-es-0003';
const KEY_MISSING = 'Se requiere una clave de API para modificar datos: envíela en la cabecera Authorization: Bearer <clave>.';
const KEY_INVALID = 'La clave de API no es válida.';
const OVERLOADED = 'El servicio está sobrecargado; vuelva a intentarlo en unos segundos.';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const request = (app: FastifyInstance, method: InjectOptions['method'], url: string, options: Omit<InjectOptions, 'method' | 'url'> = {}) =>
  app.inject({ method, url, ...options });

/** Asks until `answered` holds, for at most `ms`; the last answer either way. */
async function eventually(ask: () => ReturnType<typeof request>, answered: (res: Awaited<ReturnType<typeof request>>) => boolean, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await ask();
    if (answered(res) || Date.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe(`write keys (API_KEYS) (${backend})`, () => {
  it('when API_KEYS is not set, then writes need no Authorization', async () => {
    const app = await buildTestApp();
    try {
      const created = await request(app, 'POST', '/categorias', { payload: categoriaBody() });
      assert.equal(created.statusCode, 201, created.body);
      const { id } = created.json<Categoria>();
      assert.equal((await request(app, 'PUT', `/categorias/${id}`, { payload: { nombre: 'Renombrada' } })).statusCode, 200);
      assert.equal((await request(app, 'DELETE', `/categorias/${id}`)).statusCode, 200);
    } finally {
      await app.close();
    }
  });

  describe('when API_KEYS is set', () => {
    let app: FastifyInstance;
    let existing: Categoria;
    before(async () => {
      app = await buildTestApp({ API_KEYS: ` ${KEYS[0]} , ${KEYS[1]}` });
      const res = await request(app, 'POST', '/categorias', { payload: categoriaBody(), headers: bearer(KEYS[0] ?? '') });
      assert.equal(res.statusCode, 201, res.body);
      existing = res.json<Categoria>();
    });
    after(() => app.close());

    const stored = async () => (await request(app, 'GET', '/categorias')).json<Categoria[]>();

    it('then reads, the description and CORS preflights need no key', async () => {
      assert.equal((await request(app, 'GET', '/categorias')).statusCode, 200);
      assert.equal((await request(app, 'HEAD', `/categorias/${encodeURIComponent(existing.nombre)}`)).statusCode, 200);
      assert.equal((await request(app, 'GET', '/openapi.json')).statusCode, 200);
      const preflight = await request(app, 'OPTIONS', '/categorias', {
        headers: { origin: 'https://app.example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
      });
      assert.equal(preflight.statusCode, 204);
    });

    it('when a write comes without Authorization, then 401 with WWW-Authenticate: Bearer, and nothing is stored', async () => {
      const res = await request(app, 'POST', '/categorias', { payload: categoriaBody({ nombre: 'Sin clave' }) });
      assertError(res, 401, { details: KEY_MISSING, moreInfo: 'No se pudo ingresar una nueva categoria error en: /categorias' });
      assert.equal(res.headers['www-authenticate'], 'Bearer');
      assert.deepEqual(await stored(), [existing]);
    });

    it('when Authorization is not a bearer token, then 401 as if it were missing', async () => {
      for (const authorization of ['Basic dXN1YXJpbzpjbGF2ZQ==', 'Bearer', 'Bearer ', KEYS[0] ?? '']) {
        const res = await request(app, 'POST', '/categorias', { payload: categoriaBody(), headers: { authorization } });
        assertError(res, 401, { details: KEY_MISSING });
      }
      assert.deepEqual(await stored(), [existing]);
    });

    it('when an unauthenticated write has a body that is malformed or not JSON, then still 401: the key is checked before the body is read', async () => {
      const malformed = await request(app, 'POST', '/categorias', { payload: '{"nombre":', headers: { 'content-type': 'application/json' } });
      assertError(malformed, 401, { details: KEY_MISSING });
      const notJson = await request(app, 'POST', '/categorias', { payload: 'nombre=x', headers: { 'content-type': 'text/plain' } });
      assertError(notJson, 401, { details: KEY_MISSING });
      const invalid = await request(app, 'POST', '/peliculas', { payload: { duracion: 0 } });
      assertError(invalid, 401, { details: KEY_MISSING });
    });

    it('when the key is wrong, then every kind of write is 403 and the record is unchanged', async () => {
      const path = `/categorias/${existing.id}`;
      const attempts: [InjectOptions['method'], string, unknown][] = [
        ['POST', '/categorias', categoriaBody()],
        ['PUT', path, { nombre: 'Cambiada' }],
        ['PATCH', path, { nombre: 'Cambiada' }],
        ['DELETE', path, undefined],
      ];
      for (const [method, url, payload] of attempts) {
        const res = await request(app, method, url, { headers: bearer(WRONG), ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
        assertError(res, 403, { details: KEY_INVALID });
        assert.equal(res.headers['www-authenticate'], undefined);
      }
      // A wrong key of the same length as a right one, differing in its last character.
      const near = `${(KEYS[0] ?? '').slice(0, -1)}2`;
      assertError(await request(app, 'DELETE', path, { headers: bearer(near) }), 403, { details: KEY_INVALID });
      assert.deepEqual(await stored(), [existing]);
    });

    it('when any of the keys is sent, then the write is done (the scheme in any case)', async () => {
      for (const [i, key] of KEYS.entries()) {
        const res = await request(app, 'POST', '/categorias', { payload: categoriaBody({ nombre: `Con clave ${i}` }), headers: { authorization: `${i ? 'bearer' : 'Bearer'} ${key}` } });
        assert.equal(res.statusCode, 201, res.body);
      }
      const created = (await stored()).filter((c) => c.nombre.startsWith('Con clave'));
      assert.equal(created.length, 2);
      const removed = await request(app, 'DELETE', `/categorias/${created[0]?.id}`, { headers: bearer(KEYS[1] ?? '') });
      assert.equal(removed.statusCode, 200, removed.body);
    });

    it("when an image write comes without a key or with a wrong one, then 401 or 403 on every image route, and the images are unchanged", async () => {
      const artista = await request(app, 'POST', '/artistas', { payload: artistaBody(), headers: bearer(KEYS[0] ?? '') });
      assert.equal(artista.statusCode, 201, artista.body);
      const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 255, g: 0, b: 0 } } }).png().toBuffer();
      const upload = () => multipart([{ name: 'retrato.png', bytes: png }], { recurso: 'artistas', clave: artista.json<Json>().dni, alt: 'Retrato' });
      const created = await request(app, 'POST', '/imagenes', await upload().then((u) => ({ ...u, headers: { ...u.headers, ...bearer(KEYS[1] ?? '') } })));
      assert.equal(created.statusCode, 201, created.body);
      const images = async () => (await request(app, 'GET', '/imagenes')).json<Json[]>();
      const before = await images();
      const path = `/imagenes/${created.json<Json>().id}`;
      for (const [status, headers, details] of [[401, {}, KEY_MISSING], [403, bearer(WRONG), KEY_INVALID]] as const) {
        const multipart = await upload();
        const attempts: [InjectOptions['method'], string, Omit<InjectOptions, 'method' | 'url'>][] = [
          ['POST', '/imagenes', { ...multipart, headers: { ...multipart.headers, ...headers } }],
          ['PUT', path, { payload: { alt: 'Cambiada' }, headers }],
          ['PATCH', path, { payload: { alt: 'Cambiada' }, headers }],
          ['DELETE', path, { headers }],
        ];
        for (const [method, url, options] of attempts) assertError(await request(app, method, url, options), status, { details });
      }
      assert.deepEqual(await images(), before);
    });
  });

  it('when API_KEYS holds a key shorter than 16 characters, then the configuration is refused without echoing the key', () => {
    assert.throws(() => loadConfig({ API_KEYS: `${KEYS[0]},corta` }), (error: Error) => /API_KEYS/.test(error.message) && !/corta/.test(error.message));
  });
});

describe(`rate limit per client address (RATE_LIMIT_PER_MINUTE) (${backend})`, () => {
  it('when RATE_LIMIT_PER_MINUTE is not set, then many requests from one address are all answered', async () => {
    const app = await buildTestApp();
    try {
      for (let i = 0; i < 60; i++) {
        const res = await request(app, 'GET', '/categorias');
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['x-ratelimit-limit'], undefined);
      }
    } finally {
      await app.close();
    }
  });

  describe('when RATE_LIMIT_PER_MINUTE is 3', () => {
    let app: FastifyInstance;
    before(async () => {
      app = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    });
    after(() => app.close());

    it('then the 4th request within the minute is 429 in the error body with Retry-After, and other addresses are not affected', async () => {
      for (let i = 1; i <= 3; i++) {
        const res = await request(app, 'GET', '/categorias');
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['x-ratelimit-remaining'], String(3 - i));
      }
      const refused = await request(app, 'GET', '/categorias?_page=1');
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `retry-after: ${refused.headers['retry-after']}`);
      assertError(refused, 429, {
        details: `Demasiadas peticiones desde su dirección; vuelva a intentarlo en ${retryAfter} segundos.`,
        moreInfo: 'No se pudo completar la consulta en: /categorias',
      });
      assert.equal(refused.headers['x-ratelimit-remaining'], '0');
      // Unknown paths count too, and are refused alike.
      assertError(await request(app, 'GET', '/nada'), 429, { details: /^Demasiadas peticiones/ });
      assert.equal((await request(app, 'GET', '/categorias', { remoteAddress: '10.0.0.2' })).statusCode, 200);
    });

    it('then the liveness probe is never limited', async () => {
      for (let i = 0; i < 6; i++) assert.equal((await request(app, 'GET', '/health/live', { remoteAddress: '10.0.0.3' })).statusCode, 200);
      assert.equal((await request(app, 'GET', '/categorias', { remoteAddress: '10.0.0.3' })).statusCode, 200);
    });
  });

  it('when writes need a key, then refused attempts count, so keys cannot be guessed faster than the limit', async () => {
    const app = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '3', API_KEYS: KEYS[0] ?? '' });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await request(app, 'POST', '/categorias', { payload: categoriaBody(), headers: bearer(WRONG) })).statusCode, 403);
      const res = await request(app, 'POST', '/categorias', { payload: categoriaBody(), headers: bearer(KEYS[0] ?? '') });
      assertError(res, 429, { details: /^Demasiadas peticiones/, moreInfo: 'No se pudo ingresar una nueva categoria error en: /categorias' });
    } finally {
      await app.close();
    }
  });

  it('when TRUST_PROXY names the proxy, then clients are told apart by X-Forwarded-For; otherwise it is ignored', async () => {
    const trusted = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' });
    const direct = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '1' });
    try {
      const via = (app: FastifyInstance, client: string) => request(app, 'GET', '/categorias', { headers: { 'x-forwarded-for': client } });
      assert.equal((await via(trusted, '203.0.113.1')).statusCode, 200);
      assert.equal((await via(trusted, '203.0.113.2')).statusCode, 200);
      assert.equal((await via(trusted, '203.0.113.1')).statusCode, 429);
      assert.equal((await via(direct, '203.0.113.1')).statusCode, 200);
      assert.equal((await via(direct, '203.0.113.2')).statusCode, 429);
    } finally {
      await Promise.all([trusted.close(), direct.close()]);
    }
  });

  it('when TRUST_PROXY is not a list of addresses, then the configuration is refused', () => {
    assert.throws(() => loadConfig({ TRUST_PROXY: '127.0.0.1,proxy.example.org' }), /TRUST_PROXY: 'proxy.example.org'/);
    assert.throws(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' }), /TRUST_PROXY/);
    assert.equal(loadConfig({ TRUST_PROXY: 'loopback, ::1, 192.168.0.0/16' }).TRUST_PROXY, 'loopback, ::1, 192.168.0.0/16');
  });
});

/** A Content-Security-Policy header as a map from directive to its sources. */
function csp(header: unknown): Map<string, string[]> {
  assert.equal(typeof header, 'string', 'a Content-Security-Policy header');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

describe(`security headers (${backend})`, () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp({ API_KEYS: KEYS[0] ?? '' });
  });
  after(() => app.close());

  it('when the API answers, successes and errors alike, then it carries the security headers a JSON API needs, a policy that allows nothing, and none that only pages need', async () => {
    const answers = [
      await request(app, 'GET', '/categorias'),
      await request(app, 'GET', '/nada'),
      await request(app, 'POST', '/categorias', { payload: categoriaBody() }),
      await request(app, 'GET', '/openapi.json'),
    ];
    for (const res of answers) {
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.match(String(res.headers['strict-transport-security']), /^max-age=\d+/);
      for (const pageOnly of ['x-xss-protection', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-dns-prefetch-control', 'referrer-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster']) {
        assert.equal(res.headers[pageOnly], undefined, pageOnly);
      }
      const policy = csp(res.headers['content-security-policy']);
      assert.deepEqual(policy.get('default-src'), ["'none'"]);
      assert.deepEqual(policy.get('frame-ancestors'), ["'none'"]);
      assert.doesNotMatch(String(res.headers['content-security-policy']), /unsafe/);
    }
  });

  it('when /docs is opened, then its policy allows every script and stylesheet it loads, from this server only', async () => {
    const page = await request(app, 'GET', '/docs');
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    const policy = csp(page.headers['content-security-policy']);
    assert.deepEqual(policy.get('default-src'), ["'self'"]);
    assert.deepEqual(policy.get('script-src'), ["'self'"]);
    assert.deepEqual(policy.get('style-src')?.sort(), ["'self'", "'unsafe-inline'"]);
    assert.ok(policy.get('img-src')?.includes('data:'), 'Swagger UI draws its icons from data: URLs');
    assert.equal(policy.has('upgrade-insecure-requests'), false);
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    assert.equal(page.headers['cross-origin-opener-policy'], 'same-origin');

    // 'self' covers an asset only if it comes from this server, and no inline script runs under script-src 'self'.
    const scripts = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length >= 3);
    for (const [, attributes = '', content = ''] of scripts) {
      assert.match(attributes, /\bsrc="\/docs\/static\/[^"]+"/);
      assert.equal(content.trim(), '', 'no inline script');
    }
    const assets = [...page.body.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    assert.ok(assets.some((a) => a.endsWith('.css')));
    for (const asset of assets) {
      assert.match(asset, /^\/docs\/static\//);
      const res = await request(app, 'GET', asset);
      assert.equal(res.statusCode, 200, asset);
    }
    const initializer = await request(app, 'GET', '/docs/static/swagger-initializer.js');
    assert.match(initializer.body, /resolveUrl\('\.\/json'\)/, 'the description comes from this server');
    assert.equal((await request(app, 'GET', '/docs/json')).statusCode, 200);
  });

  it('when SECURITY_HEADERS is false, then no security header is sent', async () => {
    const plain = await buildTestApp({ SECURITY_HEADERS: 'false' });
    try {
      const res = await request(plain, 'GET', '/categorias');
      assert.equal(res.statusCode, 200);
      for (const header of ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'strict-transport-security']) {
        assert.equal(res.headers[header], undefined, header);
      }
    } finally {
      await plain.close();
    }
  });
});

describe(`load shedding (UNDER_PRESSURE_*) (${backend})`, () => {
  it('when the heap is past its limit, then requests are 503 in the error body with Retry-After, but the liveness probe still answers', async () => {
    // Any heap is over one byte: the first measurement, a second after start, puts the process under pressure.
    const app = await buildTestApp({ UNDER_PRESSURE_MAX_HEAP_USED_BYTES: '1' });
    try {
      const res = await eventually(() => request(app, 'GET', '/categorias'), (r) => r.statusCode === 503, 3000);
      assertError(res, 503, { details: OVERLOADED, moreInfo: 'Servicio no disponible en la ruta: /categorias' });
      assert.equal(res.headers['retry-after'], String(SHED_RETRY_AFTER_SECONDS));
      assertError(await request(app, 'POST', '/categorias', { payload: categoriaBody() }), 503, { details: OVERLOADED });
      assertError(await request(app, 'GET', '/health'), 503, { details: OVERLOADED });
      const live = await request(app, 'GET', '/health/live');
      assert.equal(live.statusCode, 200);
      assert.deepEqual(live.json(), { status: 'ok' });
    } finally {
      await app.close();
    }
  });

  it('when the event loop has been blocked, then requests are shed until it recovers', async () => {
    const app = await buildTestApp({ UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '5' });
    try {
      // One delay of 1.5 s outweighs a second's worth of 10 ms samples in the mean under-pressure takes.
      const until = Date.now() + 1500;
      while (Date.now() < until);
      const res = await eventually(() => request(app, 'GET', '/categorias'), (r) => r.statusCode === 503, 3000);
      assertError(res, 503, { details: OVERLOADED });
      assert.equal(res.headers['retry-after'], String(SHED_RETRY_AFTER_SECONDS));
      const recovered = await eventually(() => request(app, 'GET', '/categorias'), (r) => r.statusCode === 200, 5000);
      assert.equal(recovered.statusCode, 200, 'served again once the loop has been free for a while');
    } finally {
      await app.close();
    }
  });

  it('when shedding is on (as by default), then under-pressure exposes no status route of its own', async () => {
    const app = await buildTestApp();
    try {
      assertError(await request(app, 'GET', '/status'), 404, { details: 'No existe la ruta: GET /status' });
    } finally {
      await app.close();
    }
  });
});

describe('server limits (their effect is in test/overload.test.ts)', () => {
  it('when HEADERS_TIMEOUT_MS exceeds REQUEST_TIMEOUT_MS, then the configuration is refused', () => {
    assert.throws(() => loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' }), /HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS/);
    assert.equal(loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '0' }).HEADERS_TIMEOUT_MS, 5000);
  });

  it('when nothing is set, then the defaults hold', () => {
    const config = loadConfig({});
    assert.deepEqual(
      [config.CONNECTION_TIMEOUT_MS, config.REQUEST_TIMEOUT_MS, config.HEADERS_TIMEOUT_MS, config.KEEP_ALIVE_TIMEOUT_MS],
      [60000, 30000, 10000, 72000],
    );
    assert.deepEqual([config.MAX_CONNECTIONS, config.MAX_HEADER_BYTES, config.MAX_REQUESTS_PER_SOCKET], [1000, 16384, 0]);
    assert.deepEqual([config.API_KEYS, config.RATE_LIMIT_PER_MINUTE, config.SECURITY_HEADERS, config.UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS], [undefined, 0, true, 1000]);
  });

  it('when the app is built, then its HTTP server holds the limits', async () => {
    const app = await buildTestApp({ MAX_CONNECTIONS: '7', HEADERS_TIMEOUT_MS: '1500', REQUEST_TIMEOUT_MS: '2500', CONNECTION_TIMEOUT_MS: '4000', KEEP_ALIVE_TIMEOUT_MS: '3000', MAX_REQUESTS_PER_SOCKET: '50' });
    try {
      const server = app.server;
      assert.deepEqual(
        [server.maxConnections, server.headersTimeout, server.requestTimeout, server.timeout, server.keepAliveTimeout, server.maxRequestsPerSocket],
        [7, 1500, 2500, 4000, 3000, 50],
      );
    } finally {
      await app.close();
    }
  });
});
