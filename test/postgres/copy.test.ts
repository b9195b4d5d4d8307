import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { upload } from '../api/uploads.js';
import { harness } from '../harness.js';
import { createPelicula, type Json } from '../helpers.js';
import { appOn, cartelera, everyList, withoutInstant } from '../cli/cli.js';
import { tempDir } from '../tempDir.js';

const { store } = harness();

/** Every change the store's log holds, as GET /cambios answers them. */
async function changeLog(url: string): Promise<{ id: number; quien: string }[]> {
  const app = await appOn(url);
  try {
    return (await app.inject({ method: 'GET', url: '/cambios?_limit=1000' })).json();
  } finally {
    await app.close();
  }
}

it('when a catalogue is copied SQLite → PostgreSQL → SQLite, then every list answers the same, and the ids continue past the copied ones', async () => {
  const dir = tempDir('cartelera-copy-');
  const sqlite = `sqlite:${join(dir, 'origen.sqlite')}`;
  assert.equal((await cartelera(['seed', '--quien', 'Ana'], sqlite)).code, 0);
  const postgres = await store();

  const there = await cartelera(['copy', '--to', postgres.url], sqlite);
  assert.equal(there.code, 0, there.stderr);
  assert.match(there.stderr, /copy: peliculas 12 records, sha256 [0-9a-f]{64}/);
  const back = `sqlite:${join(dir, 'vuelta.sqlite')}`;
  const again = await cartelera(['copy', '--to', back], postgres.url);
  assert.equal(again.code, 0, again.stderr);

  const original = await everyList(sqlite);
  assert.deepEqual(await everyList(postgres.url), original);
  assert.deepEqual(await everyList(back), original);
  // The change log comes along, change for change, and still describes every record.
  const log = await changeLog(sqlite);
  assert.equal(log.length, 173);
  assert.deepEqual(await changeLog(postgres.url), log);
  assert.deepEqual(await changeLog(back), log);
  assert.match((await cartelera(['check'], postgres.url)).stdout, /cambios: 173\nintegrity: ok\n$/);
  assert.equal(withoutInstant((await cartelera(['export'], back)).stdout), withoutInstant((await cartelera(['export'], sqlite)).stdout));

  // A new record on the copy gets the next id, not one the copy brought.
  const nueva = join(dir, 'nueva.ndjson');
  writeFileSync(nueva, '{"recurso":"categorias","registro":{"nombre":"Nueva"}}\n');
  assert.equal((await cartelera(['import', nueva], postgres.url)).code, 0);
  assert.deepEqual((JSON.parse((await everyList(postgres.url))['/categorias'] ?? '[]') as { id: number }[]).at(-1), { id: 10, nombre: 'Nueva' });
  assert.deepEqual((await changeLog(postgres.url)).at(-1)?.id, 174);
  const refused = await cartelera(['copy', '--to', postgres.url], sqlite);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /holds \d+ records; --replace empties it first/);
  const replaced = await cartelera(['copy', '--to', postgres.url, '--replace'], sqlite);
  assert.equal(replaced.code, 0, replaced.stderr);
  assert.deepEqual(await everyList(postgres.url), original);
});

it('when asked to back up a PostgreSQL store, then it says to use pg_dump or export, and exits 1', async () => {
  const postgres = await store();
  const run = await cartelera(['backup', join(tmpdir(), 'nunca.sqlite')], postgres.url);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /^cartelera: store postgres:\/\/[^\n]+\ncartelera: backup copies a SQLite store; on PostgreSQL use pg_dump, or cartelera export\n$/);
});

it('when a catalogue with images is copied SQLite → PostgreSQL → SQLite, then images, their renditions and every kept file come along, and uploads and undo work on the copy', async () => {
  const dir = tempDir('cartelera-copy-');
  const sqlite = `sqlite:${join(dir, 'origen.sqlite')}`;
  const source = await appOn(sqlite);
  const picture = (background: { r: number; g: number; b: number }) => sharp({ create: { width: 80, height: 60, channels: 3, background } }).jpeg().toBuffer();
  const uploaded = async (app: FastifyInstance, fields: Json, bytes: Buffer) => {
    const res = await app.inject({ method: 'POST', url: '/imagenes', ...(await upload([{ name: 'foto.jpg', bytes }], fields)) });
    assert.equal(res.statusCode, 201, res.body);
    return res.json<{ id: number }>();
  };
  const rendition = async (app: FastifyInstance, id: number) => {
    const res = await app.inject({ method: 'GET', url: `/imagenes/${id}/archivo?ancho=64&formato=png` });
    assert.equal(res.statusCode, 200, res.body);
    return [res.headers.etag, res.rawPayload.toString('base64')];
  };
  let deleted: number;
  try {
    const movie = await createPelicula(source);
    const [, second, third] = [
      await uploaded(source, { recurso: 'peliculas', clave: movie.id, alt: 'Uno' }, await picture({ r: 255, g: 0, b: 0 })),
      await uploaded(source, { recurso: 'peliculas', clave: movie.id, alt: 'Dos' }, await picture({ r: 0, g: 255, b: 0 })),
      await uploaded(source, { recurso: 'peliculas', clave: movie.id, alt: 'Tres' }, await picture({ r: 0, g: 0, b: 255 })),
    ];
    assert.equal((await source.inject({ method: 'DELETE', url: `/imagenes/${second.id}` })).statusCode, 200);
    deleted = (await source.inject({ method: 'GET', url: `/cambios?recurso=imagenes&operacion=baja` })).json<{ id: number }[]>()[0]?.id ?? 0;
    assert.equal((await source.inject({ method: 'PATCH', url: `/imagenes/${third.id}`, payload: { orden: 1 } })).statusCode, 200);
  } finally {
    await source.close();
  }
  const postgres = await store();
  const there = await cartelera(['copy', '--to', postgres.url], sqlite);
  assert.equal(there.code, 0, there.stderr);
  // The deleted image's file stays while the log refers to it: three files for two images.
  assert.match(there.stderr, /copy: imagenes 2 records, sha256 [0-9a-f]{64}\ncopy: imagen_archivos 3 files, sha256 [0-9a-f]{64}\n/);
  const original = await everyList(sqlite);
  assert.deepEqual(await everyList(postgres.url), original);
  assert.match((await cartelera(['check'], postgres.url)).stdout, /imagenes: 2\n[^]*integrity: ok\n$/);

  const [before, copy] = [await appOn(sqlite), await appOn(postgres.url)];
  try {
    const images = (await copy.inject({ method: 'GET', url: '/imagenes' })).json<{ id: number }[]>();
    assert.deepEqual(images, (await before.inject({ method: 'GET', url: '/imagenes' })).json());
    for (const { id } of images) assert.deepEqual(await rendition(copy, id), await rendition(before, id));
    // The copy's identity sequence is past the copied ids, and the kept file comes back with an undo.
    const undone = await copy.inject({ method: 'POST', url: `/cambios/${deleted}/deshacer` });
    assert.equal(undone.statusCode, 200, undone.body);
    assert.equal((await copy.inject({ method: 'GET', url: '/imagenes/2/archivo?ancho=64' })).statusCode, 200);
    assert.equal((await uploaded(copy, { recurso: 'peliculas', clave: 1, alt: 'Cuatro' }, await picture({ r: 9, g: 9, b: 9 }))).id, 4);
  } finally {
    await Promise.all([before.close(), copy.close()]);
  }
  const back = `sqlite:${join(dir, 'vuelta.sqlite')}`;
  const again = await cartelera(['copy', '--to', back], postgres.url);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /copy: imagenes 4 records, sha256 [0-9a-f]{64}\ncopy: imagen_archivos 4 files/);
  assert.deepEqual(await everyList(back), await everyList(postgres.url));
  assert.match((await cartelera(['check'], back)).stdout, /imagenes: 4\n[^]*integrity: ok\n$/);
  // Replacing a target with images empties their files too.
  const replaced = await cartelera(['copy', '--to', postgres.url, '--replace'], sqlite);
  assert.equal(replaced.code, 0, replaced.stderr);
  assert.match(replaced.stderr, /copy: imagen_archivos 3 files/);
});
