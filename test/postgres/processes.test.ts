import assert from 'node:assert/strict';
import { migrationNames } from '../../src/db/migrate.js';
import { describe, it } from 'node:test';
import pg from 'pg';
import { throughPort, tcpProxy } from '../proxy.js';
import { logLines, type Service } from '../service.js';
import { harness } from '../harness.js';

const { store, service: start } = harness();

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}
const json = { 'content-type': 'application/json' };

describe('several service processes on one PostgreSQL database', () => {
  it('when two start at the same moment on an empty database, then both come up and the migration ran once', async () => {
    const { url } = await store();
    const [a, b] = await Promise.all([start({ DATABASE_URL: url }), start({ DATABASE_URL: url })]);
    await Promise.all([a.healthy(30000), b.healthy(30000)]);

    const migrations = await query<{ name: string }>(url, 'select name from kysely_migration');
    assert.deepEqual(migrations.map((m) => m.name).sort(), migrationNames);
    const applied = [a, b].filter((s) => logLines(s.output()).some((l) => l.msg === 'migrations applied'));
    assert.equal(applied.length, 1, 'exactly one process applied the migration');

    // A write through one is read back through the other, both ways.
    const created = await fetch(`${a.base}/peliculas`, {
      method: 'POST', headers: json,
      body: JSON.stringify({ titulo: 'Relatos salvajes', sipnosis: 'Seis relatos.', duracion: 122, categoria_id: await categoria(a) }),
    });
    assert.equal(created.status, 201);
    const read = await fetch(`${b.base}/peliculas/relatos%20salvajes`);
    assert.deepEqual(await read.json(), await created.json());

    const updated = await fetch(`${b.base}/peliculas/1`, {
      method: 'PUT', headers: json,
      body: JSON.stringify({ titulo: 'Relatos salvajes', sipnosis: 'Seis relatos de venganza.', duracion: 122, categoria_id: 1 }),
    });
    assert.equal(updated.status, 200);
    const reread = (await (await fetch(`${a.base}/peliculas/Relatos%20salvajes`)).json()) as { sipnosis: string };
    assert.equal(reread.sipnosis, 'Seis relatos de venganza.');

    assert.deepEqual(await Promise.all([a.stop(), b.stop()]), [0, 0]);
  });

  it('when the database is unreachable at start, then the service waits, logging, and comes up once it is reachable', async () => {
    const { url } = await store();
    const proxy = await tcpProxy(Number(new URL(url).port));
    try {
      await proxy.cut();
      const service = await start({ DATABASE_URL: throughPort(url, proxy.port) });
      await service.printed(/waiting for the database/);
      assert.equal(await fetch(`${service.base}/health`).then(() => 'answered', () => 'not listening'), 'not listening');

      await proxy.restore();
      await service.healthy(30000);
      assert.ok(logLines(service.output()).some((l) => l.msg === 'database reachable'));
      assert.equal(await service.stop(), 0);
    } finally {
      await proxy.close();
    }
  });

  it('when the database stays unreachable past DATABASE_WAIT_MS, then start-up fails with exit 1 and says why', async () => {
    const { url } = await store();
    const proxy = await tcpProxy(Number(new URL(url).port));
    await proxy.cut();
    const service = await start({ DATABASE_URL: throughPort(url, proxy.port), DATABASE_WAIT_MS: '1000' });
    assert.equal(await service.stop('SIGCONT'), 1);
    const fatal = logLines(service.output()).find((l) => l.msg === 'start-up failed');
    assert.match(String(fatal?.reason), /database not reachable after 1000 ms/);
  });
});

/** Creates a category through `service` and returns its id. */
async function categoria(service: Service): Promise<number> {
  const res = await fetch(`${service.base}/categorias`, { method: 'POST', headers: json, body: JSON.stringify({ nombre: 'Comedia negra' }) });
  assert.equal(res.status, 201);
  return ((await res.json()) as { id: number }).id;
}
