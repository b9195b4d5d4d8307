import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { resources } from '../../src/resources/index.js';
import { appOn, cartelera } from '../cli/cli.js';
import {
  createArtista, createCategoria, createEventoUrbano, createObra, createParticipacion, createPelicula, peliculaBody, send, withApp,
} from '../helpers.js';
import { root } from '../service.js';
import { backend, freshStore } from '../stores.js';
import { tempDir } from '../tempDir.js';

// A page's X-Total-Count, when nothing is filtered, is the table's row count as `versiones` keeps it
// (migration 0004: triggers in the writing transaction), not a count of the table. These tests hold
// it to the table's real size after every kind of write, failed ones included, and when another
// process writes.

type Counts = Record<string, number>;

/** Each resource's X-Total-Count for an unfiltered page, checked against the length of its whole list. */
async function totals(app: FastifyInstance): Promise<Counts> {
  const counts: Counts = {};
  for (const { path } of resources) {
    const page = await send(app, 'GET', `${path}?_page=1&_limit=1`);
    assert.equal(page.statusCode, 200, `${path}: ${page.body}`);
    const all = await send(app, 'GET', path);
    const total = Number(page.headers['x-total-count']);
    assert.equal(total, all.json<unknown[]>().length, `${path}: X-Total-Count ${total} is not the number of records listed`);
    counts[path] = total;
  }
  return counts;
}

const none: Counts = { '/categorias': 0, '/peliculas': 0, '/Obras': 0, '/eventosUrbanos': 0, '/artistas': 0, '/participaciones': 0, '/lugares': 0, '/funciones': 0 };

describe(`row counts kept beside the table versions (${backend})`, () => {
  it('when records are created, replaced, patched, deleted with cascades, or refused, then every page total is the table size', async () => {
    await withApp(async (app) => {
      assert.deepEqual(await totals(app), none);
      const categoria = await createCategoria(app);
      const other = await createCategoria(app);
      const pelicula = await createPelicula(app, { categoria_id: categoria.id });
      const kept = await createPelicula(app, { categoria_id: categoria.id });
      await createObra(app, { categoria_id: categoria.id });
      await createEventoUrbano(app, { categoria_id: other.id });
      const artista = await createArtista(app);
      await createParticipacion(app, { artistas_dni: artista.dni, evento_id: pelicula.id });
      await createParticipacion(app, { artistas_dni: artista.dni, evento_id: kept.id });
      const lugar = (await send(app, 'POST', '/lugares', { nombre: 'Sala', direccion: 'Calle 1' })).json<{ id: number }>();
      const serie = { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, desde: '2027-01-01', hasta: '2027-01-03', dias: ['viernes', 'sábado', 'domingo'], horas: ['20:00'] };
      assert.equal((await send(app, 'POST', '/funciones/serie', serie)).statusCode, 201);
      assert.deepEqual(await totals(app), { ...none, '/categorias': 2, '/peliculas': 2, '/Obras': 1, '/eventosUrbanos': 1, '/artistas': 1, '/participaciones': 2, '/lugares': 1, '/funciones': 3 });

      // Changes in place and refused writes leave every count as it was.
      assert.equal((await send(app, 'PUT', `/peliculas/${kept.id}`, peliculaBody(other.id))).statusCode, 200);
      assert.equal((await send(app, 'PATCH', `/peliculas/${kept.id}`, { duracion: 99 })).statusCode, 200);
      assert.equal((await send(app, 'POST', '/peliculas', peliculaBody(categoria.id, { titulo: pelicula.titulo }))).statusCode, 400);
      assert.equal((await send(app, 'POST', '/peliculas', peliculaBody(999_999))).statusCode, 400);
      assert.equal((await send(app, 'DELETE', `/categorias/${categoria.id}`)).statusCode, 400);
      const stale = await app.inject({ method: 'DELETE', url: `/peliculas/${kept.id}`, headers: { 'if-match': '"stale"' } });
      assert.equal(stale.statusCode, 412);
      assert.equal((await send(app, 'POST', '/funciones/serie', serie)).statusCode, 400);
      assert.equal((await send(app, 'DELETE', `/lugares/${lugar.id}`)).statusCode, 400);
      assert.deepEqual(await totals(app), { ...none, '/categorias': 2, '/peliculas': 2, '/Obras': 1, '/eventosUrbanos': 1, '/artistas': 1, '/participaciones': 2, '/lugares': 1, '/funciones': 3 });

      // Deleting a movie takes its participation and showtimes with it; deleting the artist, the other participation.
      assert.equal((await send(app, 'DELETE', `/peliculas/${pelicula.id}`)).statusCode, 200);
      assert.deepEqual(await totals(app), { ...none, '/categorias': 2, '/peliculas': 1, '/Obras': 1, '/eventosUrbanos': 1, '/artistas': 1, '/participaciones': 1, '/lugares': 1 });
      assert.equal((await send(app, 'DELETE', `/artistas/${artista.dni}`)).statusCode, 200);
      assert.deepEqual(await totals(app), { ...none, '/categorias': 2, '/peliculas': 1, '/Obras': 1, '/eventosUrbanos': 1, '/lugares': 1 });
    });
  });

  it('when another process imports and deletes records, then the next page through this one counts them', async () => {
    const store = await freshStore();
    after(() => store.drop());
    const app = await appOn(store.url);
    after(() => app.close());
    const categoria = await createCategoria(app);
    await createPelicula(app, { categoria_id: categoria.id });
    // Asked twice, so the second answer comes from the page cache that the other process must invalidate.
    assert.equal((await totals(app))['/peliculas'], 1);
    assert.equal((await totals(app))['/peliculas'], 1);

    const dir = tempDir('cartelera-counts-');
    const file = join(dir, 'peliculas.json');
    const peliculas = Array.from({ length: 25 }, (_, i) => peliculaBody(categoria.id, { titulo: `Importada ${i}` }));
    writeFileSync(file, JSON.stringify({ formato: 'cartelera', version: 1, peliculas }));
    const run = await cartelera(['import', file], store.url);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((await totals(app))['/peliculas'], 26);

    await deleteInAnotherProcess(store.url, "delete from peliculas where titulo like 'Importada 1%'");
    assert.equal((await totals(app))['/peliculas'], 15);
    // The kept counts agree with the tables; the change log does not know of a delete made in SQL
    // behind the service's back, and check says so for each movie.
    const check = await cartelera(['check'], store.url);
    assert.doesNotMatch(check.stdout, /versiones says/);
    assert.match(check.stdout, /problem: peliculas \d+: the change log's last change \(\d+\) does not leave it as it is stored\n/);
    assert.match(check.stdout, /problem: …and 6 more records that differ from their last change\n/);
  });
});

/** Runs one SQL statement on the store from a process of its own, through the same store code as the service. */
async function deleteInAnotherProcess(url: string, statement: string): Promise<void> {
  const script = `
    import { sql } from 'kysely';
    import { openDatabase } from './src/db/connect.ts';
    const db = openDatabase(process.env.DATABASE_URL);
    await sql.raw(process.env.STATEMENT).execute(db);
    await db.destroy();`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, STATEMENT: statement },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
}
