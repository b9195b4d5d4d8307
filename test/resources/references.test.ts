import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  assertError,
  buildTestApp,
  createArtista,
  createCategoria,
  createEventoUrbano,
  createObra,
  createParticipacion,
  createPelicula,
  DELETE_TIMESTAMP,
  eventoUrbanoBody,
  obraBody,
  peliculaBody,
  send,
  unique,
  type Json,
  type Participacion,
} from '../helpers.js';

type Item = Json & { id: number; titulo: string };
type CreateItem = (app: FastifyInstance, o?: Json) => Promise<Item>;

const MISSING_CATEGORIA = 999999;
/** Far above the dnis the factories hand out. */
const MISSING_DNI = 987654321;

async function list<T extends Json>(app: FastifyInstance, path: string): Promise<T[]> {
  const res = await send(app, 'GET', path);
  assert.equal(res.statusCode, 200, `GET ${path}: ${res.body}`);
  return res.json<T[]>();
}

const participaciones = (app: FastifyInstance) => list<Participacion>(app, '/participaciones');

/** The spec's delete body, exactly: its five fields and nothing else. */
function assertDeleted(res: LightMyRequestResponse, location: string, details: string): void {
  assert.equal(res.statusCode, 200, res.body);
  const { timestamp, ...rest } = res.json<Json>();
  assert.deepEqual(rest, { type: 'Success', code: '200', details, location });
  assert.match(String(timestamp), DELETE_TIMESTAMP);
}

/** An item whose id no record of the other kind (listed at `otherPath`) has. */
async function withIdFreeIn(app: FastifyInstance, create: CreateItem, otherPath: string): Promise<Item> {
  const taken = new Set((await list<Item>(app, otherPath)).map((r) => r.id));
  let item = await create(app);
  // Ids only grow, so this ends as soon as the ids pass the other kind's.
  while (taken.has(item.id)) item = await create(app);
  return item;
}

/** Two items of different kinds that share the same id number. */
async function withSameId(app: FastifyInstance, createA: CreateItem, createB: CreateItem): Promise<[Item, Item]> {
  let a = await createA(app);
  let b = await createB(app);
  while (a.id !== b.id) {
    if (a.id < b.id) a = await createA(app);
    else b = await createB(app);
  }
  return [a, b];
}

const kinds = [
  {
    name: 'a movie',
    path: '/peliculas',
    body: peliculaBody,
    create: createPelicula as CreateItem,
    createMoreInfo: 'No se pudo ingresar una pelicula categoria error en: /peliculas',
    updateMoreInfo: (path: string) => `No se pudo actualizar la pelicula error en: ${path}`,
  },
  {
    name: 'a work',
    path: '/Obras',
    body: obraBody,
    create: createObra as CreateItem,
    createMoreInfo: 'No se pudo ingresar una nueva obra error en: /Obras',
    updateMoreInfo: (path: string) => `No se pudo actualizar la obra error en: ${path}`,
  },
  {
    name: 'an urban event',
    path: '/eventosUrbanos',
    body: eventoUrbanoBody,
    create: createEventoUrbano as CreateItem,
    createMoreInfo: 'No se pudo ingresar un nuevo evento error en: /eventosUrbanos',
    updateMoreInfo: (path: string) => `No se pudo actualizar el evento error en: ${path}`,
  },
];

describe('categoria_id must name an existing category', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  for (const kind of kinds) {
    test(`when ${kind.name} is created with a category that does not exist, then it is refused and nothing is stored`, async () => {
      const body = kind.body(MISSING_CATEGORIA, { titulo: unique('Sin categoría') });

      const res = await send(app, 'POST', kind.path, body);

      assertError(res, 400, {
        details: `No existe la categoría con id: ${MISSING_CATEGORIA}.`,
        moreInfo: kind.createMoreInfo,
      });
      const lookup = await send(app, 'GET', `${kind.path}/${encodeURIComponent(String(body.titulo))}`);
      assert.equal(lookup.statusCode, 404, lookup.body);
      assert.ok(!(await list<Item>(app, kind.path)).some((r) => r.titulo === body.titulo));
    });

    test(`when ${kind.name} is updated to a category that does not exist, then it is refused and the record is unchanged`, async () => {
      const original = await kind.create(app);
      const path = `${kind.path}/${original.id}`;
      const body = { ...original, titulo: unique('Renombrada'), categoria_id: MISSING_CATEGORIA };

      const res = await send(app, 'PUT', path, body);

      assertError(res, 400, {
        details: `No existe la categoría con id: ${MISSING_CATEGORIA}.`,
        moreInfo: kind.updateMoreInfo(path),
      });
      const stored = await send(app, 'GET', `${kind.path}/${encodeURIComponent(original.titulo)}`);
      assert.equal(stored.statusCode, 200, stored.body);
      assert.deepEqual(stored.json(), original);
      const renamed = await send(app, 'GET', `${kind.path}/${encodeURIComponent(String(body.titulo))}`);
      assert.equal(renamed.statusCode, 404, renamed.body);
    });
  }
});

describe('a participation must name an existing artist and an existing item of its kind', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  const createMoreInfo = 'No se pudo ingresar una nueva participacion error en: /participaciones';

  test('when the artist does not exist, then creating the participation is refused and nothing is stored', async () => {
    const pelicula = await createPelicula(app);
    const existing = await participaciones(app);

    const res = await send(app, 'POST', '/participaciones', {
      artistas_dni: MISSING_DNI, tipo_evento: 'pelicula', evento_id: pelicula.id,
    });

    assertError(res, 400, { details: `No existe el artista con el dni: ${MISSING_DNI}.`, moreInfo: createMoreInfo });
    assert.deepEqual(await participaciones(app), existing);
  });

  test("when evento_id is a movie's id but no work has it, then a participation of kind 'obra' is refused", async () => {
    const artista = await createArtista(app);
    const pelicula = await withIdFreeIn(app, createPelicula, '/Obras');
    const existing = await participaciones(app);

    const res = await send(app, 'POST', '/participaciones', {
      artistas_dni: artista.dni, tipo_evento: 'obra', evento_id: pelicula.id,
    });

    assertError(res, 400, { details: `No existe la obra con id: ${pelicula.id}.`, moreInfo: createMoreInfo });
    assert.deepEqual(await participaciones(app), existing);
  });

  test("when evento_id is a work's id but no movie has it, then a participation of kind 'pelicula' is refused", async () => {
    const artista = await createArtista(app);
    const obra = await withIdFreeIn(app, createObra, '/peliculas');
    const existing = await participaciones(app);

    const res = await send(app, 'POST', '/participaciones', {
      artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: obra.id,
    });

    assertError(res, 400, { details: `No existe la película con id: ${obra.id}.`, moreInfo: createMoreInfo });
    assert.deepEqual(await participaciones(app), existing);
  });

  test("when evento_id is a movie's id but no urban event has it, then a participation of kind 'eventoUrbano' is refused", async () => {
    const artista = await createArtista(app);
    const pelicula = await withIdFreeIn(app, createPelicula, '/eventosUrbanos');
    const existing = await participaciones(app);

    const res = await send(app, 'POST', '/participaciones', {
      artistas_dni: artista.dni, tipo_evento: 'eventoUrbano', evento_id: pelicula.id,
    });

    assertError(res, 400, { details: `No existe el evento con id: ${pelicula.id}.`, moreInfo: createMoreInfo });
    assert.deepEqual(await participaciones(app), existing);
  });

  test('when both the artist and the item are missing, then the refusal names both', async () => {
    const pelicula = await withIdFreeIn(app, createPelicula, '/Obras');
    const existing = await participaciones(app);

    const res = await send(app, 'POST', '/participaciones', {
      artistas_dni: MISSING_DNI, tipo_evento: 'obra', evento_id: pelicula.id,
    });

    assertError(res, 400, {
      details: `No existe el artista con el dni: ${MISSING_DNI}. No existe la obra con id: ${pelicula.id}.`,
      moreInfo: createMoreInfo,
    });
    assert.deepEqual(await participaciones(app), existing);
  });

  test('when a participation is updated to a kind that has no item with its evento_id, then it is refused and unchanged', async () => {
    const pelicula = await withIdFreeIn(app, createPelicula, '/Obras');
    const participacion = await createParticipacion(app, { tipo_evento: 'pelicula', evento_id: pelicula.id });
    const path = `/participaciones/${participacion.id}`;

    const res = await send(app, 'PUT', path, {
      artistas_dni: participacion.artistas_dni, tipo_evento: 'obra', evento_id: pelicula.id,
    });

    assertError(res, 400, {
      details: `No existe la obra con id: ${pelicula.id}.`,
      moreInfo: `No se pudo actualizar la participacion error en: ${path}`,
    });
    const stored = (await participaciones(app)).find((p) => p.id === participacion.id);
    assert.deepEqual(stored, participacion);
  });

  test('when a participation is updated to a kind that has an item with its evento_id, then it is updated', async () => {
    const [pelicula, obra] = await withSameId(app, createPelicula, createObra);
    const participacion = await createParticipacion(app, { tipo_evento: 'pelicula', evento_id: pelicula.id });
    const expected = { ...participacion, tipo_evento: 'obra', evento_id: obra.id };

    const res = await send(app, 'PUT', `/participaciones/${participacion.id}`, {
      artistas_dni: participacion.artistas_dni, tipo_evento: 'obra', evento_id: obra.id,
    });

    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), expected);
    assert.deepEqual((await participaciones(app)).find((p) => p.id === participacion.id), expected);
  });
});

describe('GET /participaciones/{tipo_evento} with several participations of the kind', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  test('when several participations share a kind, then the one with the lowest id is answered, not the latest', async () => {
    const [obraA, obraB, obraC] = [await createObra(app), await createObra(app), await createObra(app)];
    const lowest = await createParticipacion(app, { tipo_evento: 'obra', evento_id: obraA.id });
    await createParticipacion(app, { tipo_evento: 'pelicula' });
    const second = await createParticipacion(app, { tipo_evento: 'obra', evento_id: obraB.id });
    await createParticipacion(app, { tipo_evento: 'eventoUrbano', evento_id: (await createEventoUrbano(app)).id });
    await createParticipacion(app, { tipo_evento: 'obra', evento_id: obraC.id });
    // The lowest-id one is also made the most recently written.
    const otherArtist = await createArtista(app);
    const rewritten = await send(app, 'PUT', `/participaciones/${lowest.id}`, {
      artistas_dni: otherArtist.dni, tipo_evento: 'obra', evento_id: obraA.id,
    });
    assert.equal(rewritten.statusCode, 200, rewritten.body);

    const res = await send(app, 'GET', '/participaciones/obra');

    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { ...lowest, artistas_dni: otherArtist.dni });

    const removed = await send(app, 'DELETE', `/participaciones/${lowest.id}`);
    assert.equal(removed.statusCode, 200, removed.body);
    const next = await send(app, 'GET', '/participaciones/obra');
    assert.equal(next.statusCode, 200, next.body);
    assert.deepEqual(next.json(), second);
  });
});

describe('GET /participaciones/{tipo_evento} without participations of the kind', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  test('when no participation has the kind, then the lookup is a 404', async () => {
    await createObra(app);
    await createParticipacion(app, { tipo_evento: 'pelicula' });
    await createParticipacion(app, { tipo_evento: 'eventoUrbano', evento_id: (await createEventoUrbano(app)).id });

    const res = await send(app, 'GET', '/participaciones/obra');

    assertError(res, 404, {
      details: 'No se encontró la participación con el tipo de evento: obra',
      moreInfo: 'No se encontró en la ruta: /participaciones/obra',
    });
  });

  test('when the kind is not one of the three, then the lookup is a 400', async () => {
    await createParticipacion(app, { tipo_evento: 'pelicula' });

    const res = await send(app, 'GET', '/participaciones/concierto');

    assertError(res, 400, { details: "El parámetro 'tipo_evento' debe ser uno de: pelicula, obra, eventoUrbano." });
  });
});

describe('deleting a category', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  test('when movies, a work and events use a category, then deleting it is refused naming the category and what uses it, and nothing is deleted', async () => {
    const categoria = await createCategoria(app);
    const items = [
      ['/peliculas', await createPelicula(app, { categoria_id: categoria.id })],
      ['/peliculas', await createPelicula(app, { categoria_id: categoria.id })],
      ['/peliculas', await createPelicula(app, { categoria_id: categoria.id })],
      ['/Obras', await createObra(app, { categoria_id: categoria.id })],
      ['/eventosUrbanos', await createEventoUrbano(app, { categoria_id: categoria.id })],
      ['/eventosUrbanos', await createEventoUrbano(app, { categoria_id: categoria.id })],
    ] as const;
    const path = `/categorias/${categoria.id}`;

    const res = await send(app, 'DELETE', path);

    assertError(res, 400, {
      details: `La categoría "${categoria.nombre}" está en uso por 3 películas, 1 obra y 2 eventos urbanos; no se puede eliminar.`,
      moreInfo: `No se pudo eliminar la categoria error en: ${path}`,
    });
    assert.deepEqual((await list(app, '/categorias')).find((c) => c.id === categoria.id), categoria);
    for (const [base, item] of items) {
      const stored = await send(app, 'GET', `${base}/${encodeURIComponent(item.titulo)}`);
      assert.equal(stored.statusCode, 200, stored.body);
      assert.deepEqual(stored.json(), item);
    }
  });

  test('when one work uses a category, then the refusal says one work uses it', async () => {
    const categoria = await createCategoria(app);
    const obra = await createObra(app, { categoria_id: categoria.id });
    const path = `/categorias/${categoria.id}`;

    const res = await send(app, 'DELETE', path);

    assertError(res, 400, {
      details: `La categoría "${categoria.nombre}" está en uso por 1 obra; no se puede eliminar.`,
      moreInfo: `No se pudo eliminar la categoria error en: ${path}`,
    });
    assert.deepEqual((await list(app, '/categorias')).find((c) => c.id === categoria.id), categoria);
    assert.deepEqual((await list(app, '/Obras')).find((o) => o.id === obra.id), obra);
  });

  test('when no record uses a category, then it is deleted with the delete body', async () => {
    const categoria = await createCategoria(app);
    const path = `/categorias/${categoria.id}`;

    const res = await send(app, 'DELETE', path);

    assertDeleted(res, path, `la categoría con el id: ${categoria.id}. fue eliminada correctamente.`);
    assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'details', 'location', 'timestamp', 'type']);
    assert.ok(!(await list(app, '/categorias')).some((c) => c.id === categoria.id));
    const lookup = await send(app, 'GET', `/categorias/${encodeURIComponent(categoria.nombre)}`);
    assert.equal(lookup.statusCode, 404, lookup.body);
  });

  test('when the only movie using a category is deleted, then the category can be deleted', async () => {
    const categoria = await createCategoria(app);
    const pelicula = await createPelicula(app, { categoria_id: categoria.id });
    assert.equal((await send(app, 'DELETE', `/peliculas/${pelicula.id}`)).statusCode, 200);

    const res = await send(app, 'DELETE', `/categorias/${categoria.id}`);

    assertDeleted(res, `/categorias/${categoria.id}`, `la categoría con el id: ${categoria.id}. fue eliminada correctamente.`);
    assert.ok(!(await list(app, '/categorias')).some((c) => c.id === categoria.id));
  });
});

describe('deletes cascade to participations', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  test("when an artist is deleted, then its participations go with it and other artists' stay", async () => {
    const artista = await createArtista(app);
    const other = await createArtista(app);
    const pelicula = await createPelicula(app);
    const obra = await createObra(app);
    const own = [
      await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: pelicula.id }),
      await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'obra', evento_id: obra.id }),
    ];
    const kept = await createParticipacion(app, { artistas_dni: other.dni, tipo_evento: 'pelicula', evento_id: pelicula.id });
    const path = `/artistas/${artista.dni}`;

    const res = await send(app, 'DELETE', path);

    assertDeleted(res, path, `el artista con el id: ${artista.dni}. fue eliminado correctamente.`);
    const remaining = await participaciones(app);
    assert.deepEqual(remaining.filter((p) => own.some((o) => o.id === p.id)), []);
    assert.ok(!remaining.some((p) => p.artistas_dni === artista.dni));
    assert.deepEqual(remaining.find((p) => p.id === kept.id), kept);
    assertError(await send(app, 'GET', path), 404, { details: `No se encontró el artista con el dni: ${artista.dni}` });
    assert.equal((await send(app, 'GET', `/peliculas/${encodeURIComponent(pelicula.titulo)}`)).statusCode, 200);
    assert.equal((await send(app, 'GET', `/Obras/${encodeURIComponent(obra.titulo)}`)).statusCode, 200);
  });

  test('when a movie is deleted, then its participations go with it and a work with the same id keeps its own', async () => {
    const [pelicula, obra] = await withSameId(app, createPelicula, createObra);
    const otherPelicula = await createPelicula(app);
    const artista = await createArtista(app);
    const gone = [
      await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: pelicula.id }),
      await createParticipacion(app, { tipo_evento: 'pelicula', evento_id: pelicula.id }),
    ];
    const kept = [
      await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'obra', evento_id: obra.id }),
      await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: otherPelicula.id }),
    ];
    const path = `/peliculas/${pelicula.id}`;

    const res = await send(app, 'DELETE', path);

    assertDeleted(res, path, `la pelicula con el id: ${pelicula.id}. fue eliminada correctamente.`);
    const remaining = await participaciones(app);
    assert.ok(!remaining.some((p) => gone.some((g) => g.id === p.id)));
    for (const participacion of kept) assert.deepEqual(remaining.find((p) => p.id === participacion.id), participacion);
    assert.deepEqual((await list(app, '/Obras')).find((o) => o.id === obra.id), obra);
    assert.ok(!(await list(app, '/peliculas')).some((p) => p.id === pelicula.id));
  });

  test('when a work is deleted, then its participations go with it and a movie with the same id keeps its own', async () => {
    const [obra, pelicula] = await withSameId(app, createObra, createPelicula);
    const artista = await createArtista(app);
    const gone = await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'obra', evento_id: obra.id });
    const kept = await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: pelicula.id });
    const path = `/Obras/${obra.id}`;

    const res = await send(app, 'DELETE', path);

    assertDeleted(res, path, `la obra con el id: ${obra.id}. fue eliminada correctamente.`);
    const remaining = await participaciones(app);
    assert.ok(!remaining.some((p) => p.id === gone.id));
    assert.deepEqual(remaining.find((p) => p.id === kept.id), kept);
    assert.deepEqual((await list(app, '/peliculas')).find((p) => p.id === pelicula.id), pelicula);
    assert.ok(!(await list(app, '/Obras')).some((o) => o.id === obra.id));
  });

  test('when an urban event is deleted, then its participations go with it and a movie with the same id keeps its own', async () => {
    const [evento, pelicula] = await withSameId(app, createEventoUrbano as CreateItem, createPelicula);
    const artista = await createArtista(app);
    const gone = await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'eventoUrbano', evento_id: evento.id });
    const kept = await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: pelicula.id });
    const path = `/eventosUrbanos/${evento.id}`;

    const res = await send(app, 'DELETE', path);

    assertDeleted(res, path, `el evento con el id: ${evento.id}. fue eliminado correctamente.`);
    const remaining = await participaciones(app);
    assert.ok(!remaining.some((p) => p.id === gone.id));
    assert.deepEqual(remaining.find((p) => p.id === kept.id), kept);
    assert.deepEqual((await list(app, '/peliculas')).find((p) => p.id === pelicula.id), pelicula);
    assert.ok(!(await list(app, '/eventosUrbanos')).some((e) => e.id === evento.id));
  });

  test('when a participation is deleted, then only it goes and its artist and item stay', async () => {
    const pelicula = await createPelicula(app);
    const artista = await createArtista(app);
    const participacion = await createParticipacion(app, { artistas_dni: artista.dni, evento_id: pelicula.id });
    const path = `/participaciones/${participacion.id}`;

    const res = await send(app, 'DELETE', path);

    assertDeleted(res, path, `la participación con el id: ${participacion.id}. fue eliminada correctamente.`);
    assert.ok(!(await participaciones(app)).some((p) => p.id === participacion.id));
    assert.equal((await send(app, 'GET', `/artistas/${artista.dni}`)).statusCode, 200);
    assert.equal((await send(app, 'GET', `/peliculas/${encodeURIComponent(pelicula.titulo)}`)).statusCode, 200);
  });
});

describe('deleting a record that does not exist', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  const cases: { name: string; base: string; create: (app: FastifyInstance) => Promise<Json>; key: string; sentence: string }[] = [
    { name: 'a movie', base: '/peliculas', create: createPelicula, key: 'id', sentence: 'No se encontró la película con id:' },
    { name: 'a work', base: '/Obras', create: createObra, key: 'id', sentence: 'No se encontró la obra con id:' },
    { name: 'an urban event', base: '/eventosUrbanos', create: createEventoUrbano, key: 'id', sentence: 'No se encontró el evento con id:' },
    { name: 'a category', base: '/categorias', create: createCategoria, key: 'id', sentence: 'No se encontró la categoría con id:' },
    { name: 'a participation', base: '/participaciones', create: createParticipacion, key: 'id', sentence: 'No se encontró la participación con id:' },
    { name: 'an artist', base: '/artistas', create: createArtista, key: 'dni', sentence: 'No se encontró el artista con el dni:' },
  ];

  for (const c of cases) {
    test(`when ${c.name} is already deleted, then deleting it again is a 404`, async () => {
      const record = await c.create(app);
      const key = String(record[c.key]);
      const path = `${c.base}/${key}`;
      assert.equal((await send(app, 'DELETE', path)).statusCode, 200);

      const res = await send(app, 'DELETE', path);

      assertError(res, 404, { details: `${c.sentence} ${key}`, moreInfo: `No se encontró en la ruta: ${path}` });
    });
  }
});

describe('a movie delete that fails', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  test("when the movie id in the path is not an integer, then the 400 carries the spec's movie delete moreInfo and nothing is deleted", async () => {
    const pelicula = await createPelicula(app);
    const existing = await list(app, '/peliculas');

    const res = await send(app, 'DELETE', '/peliculas/abc');

    assertError(res, 400, {
      details: "El parámetro 'id' debe ser un número entero.",
      moreInfo: 'No se pudo eliminar la categoria error en: /peliculas/abc',
    });
    assert.deepEqual(await list(app, '/peliculas'), existing);
    assert.ok(existing.some((p) => p.id === pelicula.id));
  });
});
