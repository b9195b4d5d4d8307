import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import {
  artistaBody, assertError, buildTestApp, createArtista, createCategoria, createPelicula, peliculaBody, send, type Json,
} from '../helpers.js';
import { backend } from '../stores.js';

/** Runs every request at once, with the odd one out in the middle of the crowd. */
async function together(app: FastifyInstance, crowd: Parameters<typeof send>[], oddOne: Parameters<typeof send>) {
  const all = [...crowd.slice(0, crowd.length / 2), oddOne, ...crowd.slice(crowd.length / 2)];
  const answers = await Promise.all(all.map((args) => send(...args)));
  const odd = answers.splice(crowd.length / 2, 1)[0];
  assert.ok(odd);
  return { crowd: answers, odd };
}

describe(`integrity under concurrent writes (${backend})`, () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  it('when a category is deleted while movies are created in it, then either the movies land and the delete is refused, or the delete wins and they are refused', async () => {
    const { id } = await createCategoria(app);
    const creates = Array.from({ length: 20 }, (): Parameters<typeof send> => [app, 'POST', '/peliculas', peliculaBody(id)]);
    const { crowd, odd } = await together(app, creates, [app, 'DELETE', `/categorias/${id}`]);

    for (const res of crowd) {
      if (res.statusCode !== 201) assertError(res, 400, { details: `No existe la categoría con id: ${id}.` });
    }
    const created = crowd.filter((r) => r.statusCode === 201).length;
    const stored = (await send(app, 'GET', '/peliculas')).json<Json[]>().filter((p) => p.categoria_id === id);
    assert.equal(stored.length, created, 'every 201 is stored, and nothing else');
    const categoryThere = (await send(app, 'GET', '/categorias')).json<Json[]>().some((c) => c.id === id);
    if (odd.statusCode === 200) {
      assert.equal(created, 0, 'a deleted category has no movies');
      assert.equal(categoryThere, false);
    } else {
      assertError(odd, 400, { details: /^La categoría ".+" está en uso( por \d+ películas?)?; no se puede eliminar\.$/ });
      assert.ok(created > 0);
      assert.equal(categoryThere, true);
    }
  });

  it('when an artist is deleted while participations are created for them, then no participation outlives the artist', async () => {
    const { dni } = await createArtista(app);
    const peliculas = await Promise.all(Array.from({ length: 20 }, () => createPelicula(app)));
    const creates = peliculas.map((p): Parameters<typeof send> => [
      app, 'POST', '/participaciones', { artistas_dni: dni, tipo_evento: 'pelicula', evento_id: p.id },
    ]);
    const { crowd, odd } = await together(app, creates, [app, 'DELETE', `/artistas/${dni}`]);

    assert.equal(odd.statusCode, 200, odd.body);
    for (const res of crowd) {
      if (res.statusCode !== 201) assertError(res, 400, { details: `No existe el artista con el dni: ${dni}.` });
    }
    const left = (await send(app, 'GET', '/participaciones')).json<Json[]>().filter((p) => p.artistas_dni === dni);
    assert.deepEqual(left, [], 'the cascade took every participation committed before the delete');
  });

  it('when one participation is created twenty times at once, then exactly one is stored', async () => {
    const { dni } = await createArtista(app);
    const { id } = await createPelicula(app);
    const body = { artistas_dni: dni, tipo_evento: 'pelicula', evento_id: id };
    const answers = await Promise.all(Array.from({ length: 20 }, () => send(app, 'POST', '/participaciones', body)));
    assert.equal(answers.filter((r) => r.statusCode === 201).length, 1);
    for (const res of answers.filter((r) => r.statusCode !== 201)) {
      assertError(res, 400, { details: /^Ya existe una participación/ });
    }
    const stored = (await send(app, 'GET', '/participaciones')).json<Json[]>().filter((p) => p.artistas_dni === dni);
    assert.equal(stored.length, 1);
  });

  it('when two records are renamed to the same title at once, then exactly one rename lands', async () => {
    const [a, b] = [await createPelicula(app), await createPelicula(app)];
    const answers = await Promise.all(
      [a, b].map((p) => send(app, 'PUT', `/peliculas/${p.id}`, { ...p, titulo: 'El mismo título' })),
    );
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 400]);
    const titles = (await send(app, 'GET', '/peliculas')).json<Json[]>().filter((p) => p.titulo === 'El mismo título');
    assert.equal(titles.length, 1);
  });

  it('when the same artist dni is created at once with different names, then one is stored and the rest are refused', async () => {
    const body = artistaBody();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => send(app, 'POST', '/artistas', { ...body, nombre: `Nombre ${i}` })),
    );
    assert.equal(answers.filter((r) => r.statusCode === 201).length, 1);
    const stored = (await send(app, 'GET', `/artistas/${body.dni}`)).json<Json>();
    const winner = answers.find((r) => r.statusCode === 201)?.json<Json>();
    assert.deepEqual(stored, winner);
  });
});
