import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from './helpers.js';
import { logLines, npmStart, root, startService } from './service.js';
import { backend } from './stores.js';
import { harness } from './harness.js';

const { store } = harness();

/** Resolves once `app`, closing, has stopped taking connections (its close runs over a few turns of the event loop). */
async function stoppedListening(app: FastifyInstance): Promise<void> {
  while (app.server.listening) await new Promise((resolve) => setImmediate(resolve));
}
const storeUrl = async () => (await store()).url;

describe(`over a real port (${backend})`, () => {
  it('when started with npm start, then it runs on the Node.js the project pins, serves the interface, logs requests as JSON, and SIGTERM stops it with exit 0', async () => {
    const server = await npmStart({ DATABASE_URL: await storeUrl(), METRICS_ENABLED: 'true' });
    await server.healthy();
    const pinned = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: { node: string } }).dependencies.node;
    assert.match(pinned, /^\d+\.\d+\.\d+$/, 'package.json pins one exact Node.js version');
    const metrics = await (await fetch(`${server.base}/metrics`)).text();
    assert.match(metrics, new RegExp(`^nodejs_version_info\\{version="v${pinned.replaceAll('.', '\\.')}"`, 'm'));

    const created = await fetch(`${server.base}/categorias`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nombre: 'Teatro clásico', secreto: 'no-debe-aparecer-en-los-logs' }),
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('location'), '/categorias/Teatro%20cl%C3%A1sico');
    const found = await fetch(`${server.base}/categorias/teatro%20clasico`);
    assert.deepEqual(await found.json(), { id: 1, nombre: 'Teatro clásico' });

    assert.equal(await server.stop('SIGTERM'), 0);
    await assert.rejects(fetch(`${server.base}/health`));
    const logs = logLines(server.output()) as { msg?: string; signal?: string; res?: { statusCode?: number } }[];
    assert.ok(logs.some((l) => l.msg === 'request completed' && l.res?.statusCode === 201));
    assert.ok(logs.some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM'));
    assert.doesNotMatch(server.output(), /no-debe-aparecer-en-los-logs/);
  });

  it('when DATABASE_URL names no store the service can open, then start-up fails with exit 1 and says why', async () => {
    const child = spawn(process.execPath, ['dist/server.js'], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: 'data/cartelera.sqlite' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const [code] = await once(child, 'exit');
    assert.equal(code, 1);
    const fatal = logLines(output).find((l) => l.msg === 'start-up failed');
    assert.match(String(fatal?.reason), /DATABASE_URL must start with sqlite:, postgres:\/\/ or postgresql:\/\//);
  });

  it('when restarted on the same store, then what was written is still there', async () => {
    const databaseUrl = await storeUrl();
    const first = await startService({ DATABASE_URL: databaseUrl });
    await first.healthy();
    const res = await fetch(`${first.base}/artistas`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dni: 30111222, nombre: 'Norma', apellido: 'Aleandro', tipo: 'actriz', descripcion: 'Actriz argentina.' }),
    });
    assert.equal(res.status, 201);
    assert.equal(await first.stop('SIGINT'), 0);

    const second = await startService({ DATABASE_URL: databaseUrl });
    await second.healthy();
    const again = await fetch(`${second.base}/artistas/30111222`);
    assert.equal(again.status, 200);
    assert.equal(((await again.json()) as { apellido: string }).apellido, 'Aleandro');
    assert.equal(await second.stop('SIGTERM'), 0);
  });

  it('when the service closes during a request, then that request is still answered', async () => {
    const app = await buildTestApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const body = JSON.stringify({ nombre: 'En vuelo' });
    const answered = new Promise<{ status?: number; text: string }>((resolve, reject) => {
      // A connection of its own, closed after the answer: a kept-alive one would hold up the close for seconds.
      const req = request({ port, host: '127.0.0.1', agent: false, method: 'POST', path: '/categorias', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, text }));
      });
      req.on('error', reject);
      // Half the body now; the rest once the service has the request and has stopped listening.
      app.server.once('request', () => {
        closed = app.close();
        void stoppedListening(app).then(() => req.end(body.slice(5)));
      });
      req.write(body.slice(0, 5));
    });
    let closed: Promise<void> | undefined;
    const res = await answered;
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(JSON.parse(res.text), { id: 1, nombre: 'En vuelo' });
    await closed;
  });
});
