import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { it } from 'node:test';
import { backend } from '../stores.js';
import { buildTestApp, ERROR_TIMESTAMP } from '../helpers.js';

it(`when a request's Expect is not 100-continue, then 417 in the error body, over a real port (${backend})`, async () => {
  const app = await buildTestApp();
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const answer = await new Promise<{ status?: number; type?: string; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/categorias?x=1', headers: { expect: 'mucho', 'content-type': 'application/json' } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.end('{"nombre":"Nunca"}');
    });
    assert.equal(answer.status, 417);
    assert.match(answer.type ?? '', /^application\/json/);
    const body = JSON.parse(answer.body) as Record<string, string>;
    assert.deepEqual({ ...body, timestamp: 'x' }, {
      type: 'error',
      code: '417',
      details: "La cabecera Expect 'mucho' no se admite; solo se admite 100-continue.",
      location: 'uri=/categorias',
      moreInfo: 'Error en la ruta: /categorias',
      timestamp: 'x',
    });
    assert.match(body.timestamp ?? '', ERROR_TIMESTAMP);
    assert.equal((await app.inject({ method: 'GET', url: '/categorias' })).body, '[]', 'nothing stored');
  } finally {
    await app.close();
  }
});
