import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { assertError, buildTestApp, send, type Json } from '../helpers.js';
import { throughPort, tcpProxy, type Proxy } from '../proxy.js';
import { freshStore, type TestStore } from '../stores.js';

/** Fails the test if the service takes longer than `ms` to answer: no request may hang. */
async function within(ms: number, answer: Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('when PostgreSQL goes away and comes back', () => {
  let store: TestStore;
  let proxy: Proxy;
  let app: FastifyInstance;
  before(async () => {
    store = await freshStore();
    proxy = await tcpProxy(Number(new URL(store.url).port));
    app = await buildTestApp({ DATABASE_URL: throughPort(store.url, proxy.port) });
  });
  after(async () => {
    await app.close();
    await proxy.close();
    await store.drop();
  });

  it('then requests answer 503 in the error body while it is away, and normally once it is back, without a restart', async () => {
    assert.equal((await send(app, 'GET', '/health')).statusCode, 200);
    assert.equal((await send(app, 'POST', '/categorias', { nombre: 'Antes' })).statusCode, 201);

    await proxy.cut();
    const unavailable = { details: 'La base de datos no está disponible.' };
    const health = await within(8000, send(app, 'GET', '/health'));
    assertError(health, 503, { ...unavailable, moreInfo: 'Servicio no disponible en la ruta: /health' });
    const ready = await within(8000, send(app, 'GET', '/health/ready'));
    assertError(ready, 503, { ...unavailable, moreInfo: 'Servicio no disponible en la ruta: /health/ready' });
    const live = await within(8000, send(app, 'GET', '/health/live'));
    assert.equal(live.statusCode, 200, 'the process itself is alive');
    const list = await within(8000, send(app, 'GET', '/categorias'));
    assertError(list, 503, unavailable);
    assert.equal(list.headers['retry-after'], '1');
    assertError(await within(8000, send(app, 'POST', '/categorias', { nombre: 'Durante' })), 503, unavailable);

    await proxy.restore();
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      status = (await within(8000, send(app, 'GET', '/health'))).statusCode;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(status, 200, '/health is 200 again');
    assert.equal((await send(app, 'POST', '/categorias', { nombre: 'Después' })).statusCode, 201);
    const names = (await send(app, 'GET', '/categorias')).json<Json[]>().map((c) => c.nombre);
    assert.deepEqual(names, ['Antes', 'Después']);
  });
});
