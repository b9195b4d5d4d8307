// Updates of a record that another process wrote since this one last stored or read it. On
// PostgreSQL a process updates a record it knows without reading it first (db/knownRows.ts), so
// these hold that what it knows never decides an answer: each answer, and each logged change, is
// the one the record as it stands gives. Two apps on one store are the two processes.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { etagOf } from '../../src/cache/etag.js';
import { buildTestApp, createCategoria, createPelicula, send, type Json, type Pelicula } from '../helpers.js';
import { freshStore, type TestStore } from '../stores.js';

let store: TestStore;
let here: FastifyInstance;
let other: FastifyInstance;
let categoria_id = 0;
before(async () => {
  store = await freshStore();
  here = await buildTestApp({ DATABASE_URL: store.url });
  other = await buildTestApp({ DATABASE_URL: store.url });
  categoria_id = (await createCategoria(here)).id;
});
after(async () => {
  await other.close();
  await here.close();
  await store.drop();
});

async function patched(app: FastifyInstance, id: number, patch: Json, headers: Record<string, string> = {}): Promise<Pelicula> {
  const res = await app.inject({ method: 'PATCH', url: `/peliculas/${id}`, headers: { 'content-type': 'application/merge-patch+json', ...headers }, payload: JSON.stringify(patch) });
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Pelicula>();
}

/** The movie's logged modifications, oldest first: who, what before, what after. */
async function modifications(id: number): Promise<{ quien: string | null; antes: Json; despues: Json; campos: string[] }[]> {
  const res = await send(here, 'GET', `/cambios?recurso=peliculas&clave=${id}&operacion=modificacion`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ quien: string | null; antes: Json; despues: Json; campos: string[] }[]>().map(({ quien, antes, despues, campos }) => ({ quien, antes, despues, campos }));
}

async function stored(id: number): Promise<Json> {
  const res = await send(other, 'GET', `/peliculas?id=${id}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Json[]>()[0] ?? {};
}

it('when another process changes a record between two updates of this one, then the second keeps the other\'s change and logs the other\'s record as antes', async () => {
  const movie = await createPelicula(here, { categoria_id, duracion: 90 });
  const first = await patched(here, movie.id, { duracion: 91 });
  const others = await patched(other, movie.id, { sipnosis: 'Contada por otro proceso.' });
  const second = await patched(here, movie.id, { duracion: 92 });
  assert.deepEqual(second, { ...others, duracion: 92 });
  assert.deepEqual(await stored(movie.id), second);
  assert.deepEqual((await modifications(movie.id)).map(({ antes, despues, campos }) => ({ antes, despues, campos })), [
    { antes: movie, despues: first, campos: ['duracion'] },
    { antes: first, despues: others, campos: ['sipnosis'] },
    { antes: others, despues: second, campos: ['duracion'] },
  ]);

  // And a whole replacement (PUT) likewise.
  const again = await patched(other, movie.id, { titulo: `${movie.titulo} (otra)` });
  const res = await send(here, 'PUT', `/peliculas/${movie.id}`, { titulo: again.titulo, sipnosis: 'Reemplazada.', duracion: 93, categoria_id });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json(), { ...again, sipnosis: 'Reemplazada.', duracion: 93 });
  const last = (await modifications(movie.id)).at(-1);
  assert.deepEqual(last?.antes, again);
  assert.deepEqual(last?.campos, ['sipnosis', 'duracion']);
});

it('when another process deleted a record this one wrote, then an update here answers 404 and stores nothing', async () => {
  const movie = await createPelicula(here, { categoria_id });
  await patched(here, movie.id, { duracion: 111 });
  assert.equal((await send(other, 'DELETE', `/peliculas/${movie.id}`)).statusCode, 200);
  for (const method of ['PATCH', 'PUT'] as const) {
    const res = await send(here, method, `/peliculas/${movie.id}`, { titulo: movie.titulo, sipnosis: movie.sipnosis, duracion: 112, categoria_id });
    assert.equal(res.statusCode, 404, res.body);
    assert.equal(res.json<Json>().details, `No se encontró la película con id: ${movie.id}`);
  }
  assert.equal((await modifications(movie.id)).length, 1, 'only the update before the delete');
  assert.equal((await send(here, 'GET', `/peliculas?id=${movie.id}`)).body, '[]');
});

it('when another process changed a record, then If-Match is held to the record as it stands, not as this process last wrote it', async () => {
  const movie = await createPelicula(here, { categoria_id, duracion: 80 });
  const mine = await patched(here, movie.id, { duracion: 81 });
  const others = await patched(other, movie.id, { duracion: 82 });

  // The record as it stands matches: stored, though the record as this process wrote it would not.
  const matching = await patched(here, movie.id, { sipnosis: 'Con la etiqueta de ahora.' }, { 'if-match': etagOf(JSON.stringify(others)) });
  assert.deepEqual(matching, { ...others, sipnosis: 'Con la etiqueta de ahora.' });

  // The record as this process last wrote it matches, the record as it stands does not: refused.
  const theirs = await patched(other, movie.id, { duracion: 83 });
  const stale = await here.inject({ method: 'PATCH', url: `/peliculas/${movie.id}`, headers: { 'content-type': 'application/merge-patch+json', 'if-match': etagOf(JSON.stringify(matching)) }, payload: JSON.stringify({ duracion: 84 }) });
  assert.equal(stale.statusCode, 412, stale.body);
  assert.equal(stale.json<Json>().details, 'El registro cambió desde que lo leyó: la condición If-Match no se cumple.');
  assert.deepEqual(await stored(movie.id), theirs);
  assert.notEqual(etagOf(JSON.stringify(mine)), etagOf(JSON.stringify(others)));
});

it('when another process changed a record, then a PATCH here changes what the record as it stands gives, whatever this process last wrote', async () => {
  const movie = await createPelicula(here, { categoria_id, duracion: 70 });
  const mine = await patched(here, movie.id, { duracion: 71 });
  const others = await patched(other, movie.id, { duracion: 72 });

  // Nothing to change for the record as this process wrote it; something for the record as it stands.
  const back = await patched(here, movie.id, { duracion: 71 });
  assert.deepEqual(back, mine);
  assert.deepEqual(await stored(movie.id), mine);
  assert.deepEqual((await modifications(movie.id)).at(-1), { quien: null, antes: others, despues: mine, campos: ['duracion'] });

  // Something to change for the record as this process knew it; nothing for the record as it stands.
  const theirs = await patched(other, movie.id, { duracion: 73 });
  const logged = (await modifications(movie.id)).length;
  assert.deepEqual(await patched(here, movie.id, { duracion: 73 }), theirs);
  assert.equal((await modifications(movie.id)).length, logged, 'nothing stored, nothing logged');
});
