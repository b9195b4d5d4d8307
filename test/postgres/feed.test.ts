// The live feed on PostgreSQL, where a change id can be taken by a transaction that commits after
// higher ids are visible.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import pg from 'pg';
import { upload } from '../api/uploads.js';
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

it('when every kind of write runs (create, replace, patch, delete and its cascade, undo, import), then each change id is taken by a transaction that already shows in snapshots', async () => {
  const store = await freshStore();
  const { app } = await serve(store);
  const admin = new pg.Client({ connectionString: store.url });
  await admin.connect();
  try {
    // The horizon waits for the transactions a snapshot saw in progress; one with no xid yet is not
    // among them (nextval alone gives none), so its change id could fall below the horizon unseen.
    await admin.query(`create function cambio_sin_xid() returns trigger language plpgsql as $$
      begin
        if pg_current_xact_id_if_assigned() is null then raise exception 'change % taken before its transaction wrote', new.id; end if;
        return new;
      end $$`);
    await admin.query('create trigger cambio_sin_xid before insert on cambios for each row execute function cambio_sin_xid()');
    const ok = async (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => {
      const res = await app.inject({ method, url, payload: payload as object });
      assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json<{ id: number }>();
    };
    const categoria = await ok('POST', '/categorias', { nombre: 'Drama' });
    const pelicula = await ok('POST', '/peliculas', { titulo: 'Roma', sipnosis: 'x', duracion: 135, categoria_id: categoria.id });
    await ok('POST', '/artistas', { dni: 30111222, nombre: 'Yalitza', apellido: 'Aparicio', tipo: 'actriz', descripcion: 'Actriz.' });
    await ok('POST', '/participaciones', { artistas_dni: 30111222, tipo_evento: 'pelicula', evento_id: pelicula.id });
    await ok('PUT', `/peliculas/${pelicula.id}`, { titulo: 'Roma', sipnosis: 'y', duracion: 135, categoria_id: categoria.id });
    await ok('PATCH', `/peliculas/${pelicula.id}`, { duracion: 136 });
    await ok('DELETE', `/peliculas/${pelicula.id}`);
    const [baja] = await fetchChanges(admin, "operacion = 'baja' and recurso = 'peliculas'");
    await ok('POST', `/cambios/${baja}/deshacer`);
    const body = await upload([{ name: 'categorias.csv', bytes: 'nombre\nComedia\nTerror\n' }]);
    const imported = await app.inject({ method: 'POST', url: '/importar', headers: body.headers, payload: body.payload });
    assert.equal(imported.statusCode, 200, imported.body);
    // alta ×4, modificacion ×2, baja ×2 (the movie, its participation), undo ×2, import ×2.
    assert.equal((await fetchChanges(admin, 'true')).length, 12);
  } finally {
    await admin.end();
    await app.close();
    await store.drop();
  }
});

async function fetchChanges(client: pg.Client, where: string): Promise<number[]> {
  const { rows } = await client.query<{ id: number }>(`select id from cambios where ${where} order by id`);
  return rows.map((r) => r.id);
}
