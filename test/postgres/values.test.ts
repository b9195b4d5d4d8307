import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, createCategoria, send, type Json } from '../helpers.js';
import { freshStore, type TestStore } from '../stores.js';

describe('PostgreSQL values read the same whatever the session settings', () => {
  let store: TestStore;
  let app: FastifyInstance;
  before(async () => {
    store = await freshStore();
    // A server whose default zone is not UTC, as a DBA may have set it.
    const client = new pg.Client({ connectionString: store.url });
    await client.connect();
    await client.query(`alter database ${new URL(store.url).pathname.slice(1)} set timezone to 'America/Bogota'`);
    await client.end();
    app = await buildTestApp({ DATABASE_URL: store.url });
  });
  after(async () => {
    await app.close();
    await store.drop();
  });

  it('when the session time zone is not UTC, then event dates are still answered as UTC instants', async () => {
    const { id } = await createCategoria(app);
    const body = { titulo: 'Carnaval', descripcion: 'Desfile.', lugar: 'Barranquilla', categoria_id: id };
    for (const [fecha, answered] of [
      ['2026-02-14', '2026-02-14T00:00:00.000+00:00'],
      ['2026-02-14T20:30:00.250-05:00', '2026-02-15T01:30:00.250+00:00'],
    ]) {
      const res = await send(app, 'POST', '/eventosUrbanos', { ...body, titulo: `Carnaval ${fecha}`, fecha });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json<Json>().fecha, answered);
      const listed = (await send(app, 'GET', '/eventosUrbanos')).json<Json[]>().find((e) => e.titulo === `Carnaval ${fecha}`);
      assert.equal(listed?.fecha, answered);
    }
  });

  it('when an artist has the largest dni, then it comes back as the same JSON number', async () => {
    const artista = { dni: 9007199254740991, nombre: 'Ana', apellido: 'Pérez', tipo: 'actriz', descripcion: 'Actriz.' };
    assert.equal((await send(app, 'POST', '/artistas', artista)).statusCode, 201);
    const res = await send(app, 'GET', '/artistas/9007199254740991');
    assert.match(res.body, /"dni":9007199254740991,/);
  });
});
