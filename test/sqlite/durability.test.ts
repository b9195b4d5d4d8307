// A SQLite commit is synced to disk off the event loop (db/sqlite.ts, Durability): nothing it
// committed is answered before that sync has finished, neither the write nor a read that shows it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { buildTestApp, createPelicula, peliculaBody, send } from '../helpers.js';
import { holdThreadPool, until } from '../threadPool.js';

const dir = mkdtempSync(join(tmpdir(), 'cartelera-durability-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('durable commits on SQLite', () => {
  it('when a write commits, then neither its answer nor a read that shows it goes out before the commit is synced to disk', async () => {
    const file = join(dir, 'catalogo.sqlite');
    const app = await buildTestApp({ DATABASE_URL: `sqlite:${file}` });
    const store = new SQLite(file, { readonly: true });
    try {
      const movie = await createPelicula(app);
      const duracionStored = () => (store.prepare('select duracion from peliculas where id = ?').pluck().get(movie.id) as number);
      const pool = await holdThreadPool();
      let released = false;
      const answered = <T>(request: Promise<T>) => request.then((response) => ({ response, released }));

      const put = answered(send(app, 'PUT', `/peliculas/${movie.id}`, peliculaBody(movie.categoria_id, { titulo: movie.titulo, duracion: 91 })));
      // The commit itself is made at once: another connection reads it.
      await until(() => duracionStored() === 91);
      const get = answered(send(app, 'GET', `/peliculas/${encodeURIComponent(movie.titulo)}`));
      // A request that neither reads nor writes the store is answered meanwhile.
      const refused = await send(app, 'POST', '/peliculas', {});
      assert.equal(refused.statusCode, 400);

      released = true;
      await pool.release();
      const [written, read] = await Promise.all([put, get]);
      assert.equal(written.response.statusCode, 200, written.response.body);
      assert.equal(written.released, true, 'the write was answered after its sync');
      assert.equal(read.response.statusCode, 200, read.response.body);
      assert.equal((read.response.json() as { duracion: number }).duracion, 91);
      assert.equal(read.released, true, 'the read that shows the write was answered after its sync');
    } finally {
      store.close();
      await app.close();
    }
  });
});
