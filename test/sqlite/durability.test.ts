// A SQLite commit is synced to disk off the event loop (db/sqlite.ts, Durability): nothing it
// committed is answered before that sync has finished, neither the write nor a read that shows it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { fullList, LIST_CACHE_MAX_BYTES } from '../../src/cache/fullList.js';
import { tableVersions } from '../../src/cache/versions.js';
import { openDatabase } from '../../src/db/connect.js';
import { buildTestApp, createCategoria, createPelicula, peliculaBody, send } from '../helpers.js';
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

  it('when a write waits for its sync, then a kept answer of another record goes out meanwhile, and an answer read from the store waits for the sync', async () => {
    const file = join(dir, 'guardadas.sqlite');
    const app = await buildTestApp({ DATABASE_URL: `sqlite:${file}` });
    try {
      const { id: categoria } = await createCategoria(app);
      const [kept, written, unread] = [await createPelicula(app, { categoria_id: categoria }), await createPelicula(app, { categoria_id: categoria }), await createPelicula(app, { categoria_id: categoria })];
      const lookup = (title: string) => send(app, 'GET', `/peliculas/${encodeURIComponent(title)}`);
      // Asked once, with every commit on disk: kept (cache/answers.ts).
      for (const movie of [kept, written]) assert.equal((await lookup(movie.titulo)).statusCode, 200);

      const pool = await holdThreadPool();
      let released = false;
      const answered = <T>(request: Promise<T>) => request.then((response) => ({ response, released }));
      try {
        const put = answered(send(app, 'PUT', `/peliculas/${written.id}`, peliculaBody(categoria, { titulo: written.titulo, duracion: 91 })));
        const store = new SQLite(file, { readonly: true });
        await until(() => store.prepare('select duracion from peliculas where id = ?').pluck().get(written.id) === 91);
        store.close();
        // The kept answer shows only commits on disk: it does not wait for the PUT's sync. Unheld, it is
        // answered within a few turns of the event loop.
        const asked = lookup(kept.titulo);
        const turns = async (n: number) => {
          for (let i = 0; i < n; i++) await new Promise(setImmediate);
        };
        assert.equal(await Promise.race([asked.then(() => 'answered'), turns(200).then(() => 'waiting')]), 'answered', 'the kept answer went out during the sync');
        const hit = await asked;
        assert.equal(hit.statusCode, 200, hit.body);
        assert.deepEqual(hit.json(), kept);
        // The written record's answer was dropped; read again, it shows the commit being synced. A record
        // never asked for is read from the store too, which holds that commit: both wait.
        const changed = answered(lookup(written.titulo));
        const fresh = answered(lookup(unread.titulo));
        released = true;
        await pool.release();
        const [w, c, f] = await Promise.all([put, changed, fresh]);
        assert.equal(w.response.statusCode, 200, w.response.body);
        assert.equal(c.released, true, 'the answer that shows the write went out after its sync');
        assert.equal((c.response.json() as { duracion: number }).duracion, 91);
        assert.equal(f.released, true, 'an answer read from the store while a sync was under way went out after it');
        assert.deepEqual(f.response.json(), unread);
      } finally {
        if (!released) await pool.release();
      }
    } finally {
      await app.close();
    }
  });

  it('when a commit lands while a list too large to keep is streaming, then the pieces that may show it wait for its sync', async () => {
    const file = join(dir, 'lista.sqlite');
    const app = await buildTestApp({ DATABASE_URL: `sqlite:${file}` });
    const { id: categoria } = await createCategoria(app);
    await app.close();
    // Enough 5 KB movies to pass the cache's limit, and as many again after it: the list streams.
    const count = Math.ceil((LIST_CACHE_MAX_BYTES * 2) / 5000);
    const other = new SQLite(file);
    const insert = other.prepare('insert into peliculas (titulo, titulo_clave, sipnosis, duracion, categoria_id) values (?, ?, ?, 90, ?)');
    other.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(`Larga ${i}`, `larga ${i}`, 'x'.repeat(4900), categoria);
    })();
    const last = other.prepare('select max(id) from peliculas').pluck().get() as number;

    const db = openDatabase(`sqlite:${file}`);
    try {
      const list = await fullList(db, tableVersions(db, { peliculas: 'peliculas' }), 'peliculas', 'id', (row) => JSON.stringify(row))();
      assert.ok('stream' in list, 'the list is too large to keep');
      const pieces = list.stream[Symbol.asyncIterator]();
      await pieces.next();

      // Another process commits a change to the list's last row, read by a later page.
      const pool = await holdThreadPool();
      let text = '';
      const rest = async () => {
        for (let piece = await pieces.next(); !piece.done; piece = await pieces.next()) text += String(piece.value);
      };
      // Reading the rest needs no thread of the pool: unheld, it ends within a few turns of the event loop.
      const turns = async (n: number) => {
        for (let i = 0; i < n; i++) await new Promise(setImmediate);
      };
      let reading: Promise<void> | undefined;
      let outcome: string;
      try {
        other.prepare('update peliculas set duracion = 91 where id = ?').run(last);
        reading = rest();
        outcome = await Promise.race([reading.then(() => 'ended'), turns(200).then(() => 'waiting')]);
      } finally {
        await pool.release();
      }
      await reading;
      assert.equal(outcome, 'waiting', 'the rest waited for the sync');
      assert.match(text, new RegExp(`"id":${last},[^}]*"duracion":91`));
    } finally {
      other.close();
      await db.destroy();
    }
  });
});
