// The live feed on PostgreSQL, where a change id can be taken by a transaction that commits after
// higher ids are visible.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import pg from 'pg';
import { follow, post, serve } from '../feedClient.js';
import { freshStore } from '../stores.js';

it('when a stream opens while a transaction holding a lower change id is in progress, then it gets that change when it commits, and none committed before it opened', async () => {
  const store = await freshStore();
  const { app, base } = await serve(store);
  const writer = new pg.Client({ connectionString: store.url });
  await writer.connect();
  try {
    await post(base, '/categorias', { nombre: 'Base' });
    // A change stored by hand in an open transaction: it takes id 2 and stays invisible.
    await writer.query('begin');
    const held = await writer.query<{ id: number }>(`
      insert into cambios (recurso, clave, operacion, antes, despues, campos, quien, quien_clave, cuando)
      select recurso, clave, 'modificacion', despues, despues, campos, quien, quien_clave, cuando from cambios where id = 1
      returning id`);
    assert.equal(held.rows[0]?.id, 2);
    await post(base, '/categorias', { nombre: 'Comprometida' });
    const stream = follow(`${base}/cambios`);
    await stream.until(() => stream.status === 200, 'its headers');
    await writer.query('commit');
    await post(base, '/categorias', { nombre: 'Después' });
    await stream.until((e) => e.length >= 2, 'the held change and the one after');
    assert.deepEqual(stream.events.map((e) => e.id), [2, 4]);
    stream.stop();
  } finally {
    await writer.end();
    await app.close();
    await store.drop();
  }
});
