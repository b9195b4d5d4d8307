import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { etagOf } from '../../src/cache/etag.js';
import {
  assertError, buildTestApp, createArtista, createCategoria, createEventoUrbano, createObra, createParticipacion,
  createPelicula, peliculaBody, send, unique, type Json,
} from '../helpers.js';

// PATCH (JSON merge patch) and conditional writes (If-Match) on PUT, PATCH and DELETE.

const MISSING_ID = 2147483000;
const PRECONDITION = 'El registro cambió desde que lo leyó: la condición If-Match no se cumple.';

function patch(app: FastifyInstance, url: string, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'PATCH',
    url,
    headers: { 'content-type': 'application/merge-patch+json', ...headers },
    payload: JSON.stringify(body),
  });
}

function write(app: FastifyInstance, method: 'PUT' | 'PATCH' | 'DELETE', url: string, ifMatch: string, body?: Json) {
  return app.inject({
    method,
    url,
    headers: { 'if-match': ifMatch },
    ...(body === undefined ? {} : { payload: body }),
  });
}

/** The record as the list answers it now, or undefined when it is gone. */
async function current(app: FastifyInstance, path: string, key: string, value: unknown): Promise<Json | undefined> {
  const res = await send(app, 'GET', `${path}?${key}=${value}`);
  assert.equal(res.statusCode, 200, res.body);
  const [record, ...rest] = res.json<Json[]>();
  assert.deepEqual(rest, []);
  return record;
}

interface PatchCase {
  path: string;
  key: 'id' | 'dni';
  create(app: FastifyInstance): Promise<Json>;
  /** A patch of some fields, and those fields as stored (normalized as PUT would). */
  change(app: FastifyInstance, record: Json): Promise<{ patch: Json; stored: Json }>;
}

const same = (patch: Json) => ({ patch, stored: patch });
const PATCH_CASES: PatchCase[] = [
  { path: '/categorias', key: 'id', create: createCategoria, change: async () => same({ nombre: unique('Renombrada') }) },
  { path: '/peliculas', key: 'id', create: createPelicula, change: async () => same({ duracion: 95 }) },
  { path: '/Obras', key: 'id', create: createObra, change: async () => same({ descripcion: 'Otra descripción.' }) },
  {
    path: '/eventosUrbanos',
    key: 'id',
    create: createEventoUrbano,
    change: async () => ({
      patch: { fecha: '2025-12-24', lugar: '  Parque Central  ' },
      stored: { fecha: '2025-12-24T00:00:00.000+00:00', lugar: 'Parque Central' },
    }),
  },
  { path: '/artistas', key: 'dni', create: createArtista, change: async () => same({ tipo: 'directora', descripcion: 'Dirige teatro.' }) },
  {
    path: '/participaciones',
    key: 'id',
    create: createParticipacion,
    change: async (app) => same({ evento_id: (await createPelicula(app)).id }),
  },
];

describe('PATCH: a JSON merge patch of some fields', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  for (const { path, key, create, change } of PATCH_CASES) {
    it(`when ${path}/{${key}} is patched with some fields, then only those change and the rest is kept`, async () => {
      const record = await create(app);
      const other = await create(app);
      const { patch: body, stored } = await change(app, record);
      const res = await patch(app, `${path}/${record[key]}`, body);
      assert.equal(res.statusCode, 200, res.body);
      const expected = { ...record, ...stored };
      assert.deepEqual(res.json(), expected);
      assert.deepEqual(Object.keys(res.json<Json>()), Object.keys(record), 'fields in the same order as GET');
      assert.deepEqual(await current(app, path, key, record[key]), expected);
      assert.deepEqual(await current(app, path, key, other[key]), other, 'another record is untouched');
    });
  }

  it('when the patch is sent as application/json, then it is applied the same way', async () => {
    const pelicula = await createPelicula(app);
    const res = await send(app, 'PATCH', `/peliculas/${pelicula.id}`, { sipnosis: 'Nueva sinopsis.' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { ...pelicula, sipnosis: 'Nueva sinopsis.' });
    assert.deepEqual(await current(app, '/peliculas', 'id', pelicula.id), { ...pelicula, sipnosis: 'Nueva sinopsis.' });
  });

  it('when the patch is empty, then 200 with the record unchanged', async () => {
    const obra = await createObra(app);
    const res = await patch(app, `/Obras/${obra.id}`, {});
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), obra);
    assert.deepEqual(await current(app, '/Obras', 'id', obra.id), obra);
  });

  it('when a field is given as PUT accepts it (digits for an integer, spaces around text), then it is stored as PUT stores it', async () => {
    const obra = await createObra(app);
    const titulo = unique('Bodas de Sangre');
    const res = await patch(app, `/Obras/${obra.id}`, { duracion: '95', titulo: `  ${titulo}  ` });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { ...obra, duracion: 95, titulo });
    const lookup = await send(app, 'GET', `/Obras/${encodeURIComponent(titulo.toUpperCase())}`);
    assert.equal(lookup.statusCode, 200, 'the new title is looked up like any other');
    assert.deepEqual(lookup.json(), { ...obra, duracion: 95, titulo });
  });

  it('when a field breaks the rules of PUT, then 400 naming it, with the update sentence, and the record unchanged', async () => {
    const obra = await createObra(app);
    const cases: [Json, string][] = [
      [{ duracion: 0 }, "El campo 'duracion' debe estar entre 1 y 100000."],
      [{ duracion: 1.5 }, "El campo 'duracion' debe ser un número entero."],
      [{ titulo: null }, "El campo 'titulo' es obligatorio."],
      [{ titulo: '   ' }, "El campo 'titulo' no puede estar vacío."],
      [{ descripcion: 'x'.repeat(5001) }, "El campo 'descripcion' no puede tener más de 5000 caracteres."],
      [{ categoria_id: 'una' }, "El campo 'categoria_id' debe ser un número entero."],
    ];
    for (const [body, details] of cases) {
      assertError(await patch(app, `/Obras/${obra.id}`, body), 400, {
        details,
        moreInfo: `No se pudo actualizar la obra error en: /Obras/${obra.id}`,
      });
    }
    assert.deepEqual(await current(app, '/Obras', 'id', obra.id), obra);
  });

  it('when the patch names a category that does not exist, then 400 saying so, and the record unchanged', async () => {
    const pelicula = await createPelicula(app);
    assertError(await patch(app, `/peliculas/${pelicula.id}`, { categoria_id: MISSING_ID }), 400, {
      details: `No existe la categoría con id: ${MISSING_ID}.`,
      moreInfo: `No se pudo actualizar la pelicula error en: /peliculas/${pelicula.id}`,
    });
    assert.deepEqual(await current(app, '/peliculas', 'id', pelicula.id), pelicula);
  });

  it('when the body names another key than the path, then 400; when it names the same one, then the patch applies', async () => {
    const pelicula = await createPelicula(app);
    assertError(await patch(app, `/peliculas/${pelicula.id}`, { id: pelicula.id + 1000, duracion: 80 }), 400, {
      details: `El campo 'id' (${pelicula.id + 1000}) no coincide con el de la ruta (${pelicula.id}).`,
      moreInfo: `No se pudo actualizar la pelicula error en: /peliculas/${pelicula.id}`,
    });
    assert.deepEqual(await current(app, '/peliculas', 'id', pelicula.id), pelicula);
    const res = await patch(app, `/peliculas/${pelicula.id}`, { id: pelicula.id, duracion: 80 });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { ...pelicula, duracion: 80 });
  });

  it('when a title is renamed to one another record holds (ignoring case and accents), then 400 "Ya existe…" and nothing changes', async () => {
    const categoria = await createCategoria(app);
    const existente = await createObra(app, { titulo: unique('La Canción'), categoria_id: categoria.id });
    const obra = await createObra(app, { categoria_id: categoria.id });
    const titulo = existente.titulo.toLowerCase().replace('ó', 'o');
    assertError(await patch(app, `/Obras/${obra.id}`, { titulo }), 400, {
      details: `Ya existe una obra con el titulo de: ${titulo}, por favor, intente con otro distinto`,
      moreInfo: `No se pudo actualizar la obra error en: /Obras/${obra.id}`,
    });
    assert.deepEqual(await current(app, '/Obras', 'id', obra.id), obra);
    assert.deepEqual(await current(app, '/Obras', 'id', existente.id), existente);
  });

  it('when the record does not exist, then 404', async () => {
    assertError(await patch(app, `/peliculas/${MISSING_ID}`, { duracion: 80 }), 404, {
      details: `No se encontró la película con id: ${MISSING_ID}`,
      moreInfo: `No se encontró en la ruta: /peliculas/${MISSING_ID}`,
    });
    assertError(await patch(app, '/artistas/99999999999', { tipo: 'actor' }), 404, {
      details: 'No se encontró el artista con el dni: 99999999999',
      moreInfo: 'No se encontró en la ruta: /artistas/99999999999',
    });
  });

  it('when an artist is patched with another dni in the body, then 400 and the artist unchanged', async () => {
    const artista = await createArtista(app);
    assertError(await patch(app, `/artistas/${artista.dni}`, { dni: artista.dni + 1, nombre: 'Luz' }), 400, {
      details: `El campo 'dni' (${artista.dni + 1}) no coincide con el de la ruta (${artista.dni}).`,
      moreInfo: `No se pudo actualizar el artista error en: /artistas/${artista.dni}`,
    });
    assert.deepEqual(await current(app, '/artistas', 'dni', artista.dni), artista);
  });

  it('when the patch holds unknown fields, then they are ignored, never stored or echoed', async () => {
    const artista = await createArtista(app);
    const res = await patch(app, `/artistas/${artista.dni}`, { nombre: 'Luz', edad: 40 });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { ...artista, nombre: 'Luz' });
    assert.deepEqual(await current(app, '/artistas', 'dni', artista.dni), { ...artista, nombre: 'Luz' });
  });

  it('when a participation is patched to a kind where its evento_id does not exist, then 400 naming the missing item, and it is unchanged', async () => {
    // Its own store, so that no work exists with the movie's id.
    const own = await buildTestApp();
    try {
      const participacion = await createParticipacion(own);
      assert.deepEqual((await send(own, 'GET', `/Obras?id=${participacion.evento_id}`)).json(), []);
      assertError(await patch(own, `/participaciones/${participacion.id}`, { tipo_evento: 'obra' }), 400, {
        details: `No existe la obra con id: ${participacion.evento_id}.`,
        moreInfo: `No se pudo actualizar la participacion error en: /participaciones/${participacion.id}`,
      });
      assert.deepEqual(await current(own, '/participaciones', 'id', participacion.id), participacion);
    } finally {
      await own.close();
    }
  });

  it('when a participation is patched to a kind and an item that exist, then it names that item', async () => {
    const participacion = await createParticipacion(app);
    const obra = await createObra(app);
    const res = await patch(app, `/participaciones/${participacion.id}`, { tipo_evento: 'obra', evento_id: obra.id });
    assert.equal(res.statusCode, 200, res.body);
    const expected = { ...participacion, tipo_evento: 'obra', evento_id: obra.id };
    assert.deepEqual(res.json(), expected);
    assert.deepEqual(await current(app, '/participaciones', 'id', participacion.id), expected);
  });
});

// ---------------------------------------------------------------------------------------------

interface ConditionalCase {
  name: string;
  path: string;
  key: 'id' | 'dni';
  create(app: FastifyInstance): Promise<Json>;
  /** The ETag a client reads for the record as it is now. */
  etag(app: FastifyInstance, record: Json): Promise<string>;
  /** A full replacement (PUT) and a partial one (PATCH), each different from the record and from each other. */
  replacement(app: FastifyInstance, record: Json): Promise<Json>;
  patch(app: FastifyInstance, record: Json): Promise<Json>;
  /** moreInfo of a refused update and of a refused delete. */
  updateInfo(path: string): string;
  removeInfo(path: string): string;
}

/** GETs a lookup and returns its ETag, checking it is the tag of the record as answered. */
async function lookupTag(app: FastifyInstance, url: string, record: Json): Promise<string> {
  const res = await send(app, 'GET', url);
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
  assert.deepEqual(res.json(), record, url);
  const etag = String(res.headers.etag);
  assert.equal(etag, etagOf(JSON.stringify(record)), 'the ETag of the record as GET answers it');
  return etag;
}

const CONDITIONAL_CASES: ConditionalCase[] = [
  {
    name: 'movie',
    path: '/peliculas',
    key: 'id',
    create: createPelicula,
    etag: (app, r) => lookupTag(app, `/peliculas/${encodeURIComponent(String(r.titulo))}`, r),
    replacement: async (_app, r) => peliculaBody(Number(r.categoria_id), { duracion: 150 }),
    patch: async () => ({ duracion: 77 }),
    updateInfo: (path) => `No se pudo actualizar la pelicula error en: ${path}`,
    removeInfo: (path) => `No se pudo eliminar la categoria error en: ${path}`,
  },
  {
    name: 'artist',
    path: '/artistas',
    key: 'dni',
    create: createArtista,
    etag: (app, r) => lookupTag(app, `/artistas/${r.dni}`, r),
    replacement: async () => ({ nombre: 'Luz', apellido: 'Gómez', tipo: 'cantante', descripcion: 'Canta boleros.' }),
    patch: async () => ({ descripcion: 'Actriz y directora.' }),
    updateInfo: (path) => `No se pudo actualizar el artista error en: ${path}`,
    removeInfo: (path) => `No se pudo eliminar el artista error en: ${path}`,
  },
  {
    name: 'participation',
    path: '/participaciones',
    key: 'id',
    create: createParticipacion,
    // A kind's lookup answers only its lowest id, so the tag is computed as the service does for
    // the record as the list answers it (its equality with the lookup's tag is tested below).
    etag: async (app, r) => {
      const record = await current(app, '/participaciones', 'id', r.id);
      assert.deepEqual(record, r);
      return etagOf(JSON.stringify(record));
    },
    replacement: async (app, r) => ({ artistas_dni: r.artistas_dni, tipo_evento: 'obra', evento_id: (await createObra(app)).id }),
    patch: async (app) => ({ artistas_dni: (await createArtista(app)).dni }),
    updateInfo: (path) => `No se pudo actualizar la participacion error en: ${path}`,
    removeInfo: (path) => `No se pudo eliminar la participacion error en: ${path}`,
  },
];

describe('conditional writes: If-Match on PUT, PATCH and DELETE', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  for (const c of CONDITIONAL_CASES) {
    const url = (record: Json) => `${c.path}/${record[c.key]}`;
    const read = (record: Json) => current(app, c.path, c.key, record[c.key]);

    it(`when the ${c.name}'s PUT, PATCH and DELETE each carry the ETag just read, then each succeeds`, async () => {
      const record = await c.create(app);
      const first = await c.etag(app, record);

      const replacement = await c.replacement(app, record);
      const put = await write(app, 'PUT', url(record), first, replacement);
      assert.equal(put.statusCode, 200, put.body);
      const replaced = put.json<Json>();
      assert.deepEqual(replaced, { ...record, ...replacement });
      assert.deepEqual(await read(record), replaced);

      const second = await c.etag(app, replaced);
      assert.notEqual(second, first);
      const changes = await c.patch(app, record);
      const patched = await write(app, 'PATCH', url(record), second, changes);
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual(patched.json(), { ...replaced, ...changes });
      assert.deepEqual(await read(record), { ...replaced, ...changes });

      const third = await c.etag(app, patched.json<Json>());
      const removed = await write(app, 'DELETE', url(record), third);
      assert.equal(removed.statusCode, 200, removed.body);
      assert.equal(await read(record), undefined);
    });

    it(`when the ${c.name}'s write carries a stale ETag (the record changed since), then 412 and the record unchanged`, async () => {
      const record = await c.create(app);
      const stale = await c.etag(app, record);
      const changes = await c.patch(app, record);
      const changed = await patch(app, url(record), changes);
      assert.equal(changed.statusCode, 200, changed.body);
      const now = changed.json<Json>();

      const replacement = await c.replacement(app, record);
      assertError(await write(app, 'PUT', url(record), stale, replacement), 412, { details: PRECONDITION, moreInfo: c.updateInfo(url(record)) });
      assertError(await write(app, 'PATCH', url(record), stale, await c.patch(app, record)), 412, { details: PRECONDITION, moreInfo: c.updateInfo(url(record)) });
      assertError(await write(app, 'DELETE', url(record), stale), 412, { details: PRECONDITION, moreInfo: c.removeInfo(url(record)) });
      assert.deepEqual(await read(record), now, 'unchanged, and still there');

      // The current tag, but weak: If-Match compares strongly.
      const weak = `W/${await c.etag(app, now)}`;
      assertError(await write(app, 'DELETE', url(record), weak), 412, { details: PRECONDITION });
      assert.deepEqual(await read(record), now);
    });

    it(`when the ${c.name}'s If-Match lists a stale tag and the current one, then the write succeeds`, async () => {
      const record = await c.create(app);
      const stale = await c.etag(app, record);
      const changed = await patch(app, url(record), await c.patch(app, record));
      assert.equal(changed.statusCode, 200, changed.body);
      const tag = await c.etag(app, changed.json<Json>());
      const removed = await write(app, 'DELETE', url(record), `${stale}, ${tag}`);
      assert.equal(removed.statusCode, 200, removed.body);
      assert.equal(await read(record), undefined);
    });

    it(`when the ${c.name}'s If-Match is *, then writes succeed while it exists, and 412 once it does not`, async () => {
      const record = await c.create(app);
      const changes = await c.patch(app, record);
      const patched = await write(app, 'PATCH', url(record), '*', changes);
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual(patched.json(), { ...record, ...changes });
      const replacement = await c.replacement(app, record);
      const put = await write(app, 'PUT', url(record), '*', replacement);
      assert.equal(put.statusCode, 200, put.body);
      assert.deepEqual(put.json(), { ...record, ...replacement });
      const removed = await write(app, 'DELETE', url(record), '*');
      assert.equal(removed.statusCode, 200, removed.body);
      assert.equal(await read(record), undefined);

      assertError(await write(app, 'PUT', url(record), '*', replacement), 412, { details: PRECONDITION, moreInfo: c.updateInfo(url(record)) });
      assertError(await write(app, 'PATCH', url(record), '*', changes), 412, { details: PRECONDITION, moreInfo: c.updateInfo(url(record)) });
      assertError(await write(app, 'DELETE', url(record), '*'), 412, { details: PRECONDITION, moreInfo: c.removeInfo(url(record)) });
      assert.equal(await read(record), undefined, 'nothing was created');
    });

    it(`when the ${c.name}'s writes carry no If-Match, then they behave as before, whatever changed in between`, async () => {
      const record = await c.create(app);
      const changes = await c.patch(app, record);
      assert.equal((await patch(app, url(record), changes)).statusCode, 200);
      const replacement = await c.replacement(app, record);
      const put = await app.inject({ method: 'PUT', url: url(record), payload: replacement });
      assert.equal(put.statusCode, 200, put.body);
      assert.deepEqual(await read(record), { ...record, ...replacement });
      assert.equal((await send(app, 'DELETE', url(record))).statusCode, 200);
      assert.equal(await read(record), undefined);
      assert.equal((await send(app, 'DELETE', url(record))).statusCode, 404);
    });
  }

  it('when a movie is renamed under If-Match, then the old title is gone and the new one answers a new ETag', async () => {
    const pelicula = await createPelicula(app);
    const tag = await lookupTag(app, `/peliculas/${encodeURIComponent(pelicula.titulo)}`, pelicula);
    const titulo = unique('Nuevo título');
    const res = await write(app, 'PATCH', `/peliculas/${pelicula.id}`, tag, { titulo });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await send(app, 'GET', `/peliculas/${encodeURIComponent(pelicula.titulo)}`)).statusCode, 404);
    const renamed = { ...pelicula, titulo };
    assert.notEqual(await lookupTag(app, `/peliculas/${encodeURIComponent(titulo)}`, renamed), tag);
  });

  it('when GET /participaciones/{tipo} answers a participation, then its ETag is the tag of that record, and If-Match with it succeeds', async () => {
    // Its own store, so that this participation is the lowest id of its kind.
    const own = await buildTestApp();
    try {
      const evento = await createEventoUrbano(own);
      const participacion = await createParticipacion(own, { tipo_evento: 'eventoUrbano', evento_id: evento.id });
      await createParticipacion(own, { tipo_evento: 'eventoUrbano', evento_id: evento.id });
      const tag = await lookupTag(own, '/participaciones/eventoUrbano', participacion);
      const [listed] = (await send(own, 'GET', `/participaciones?id=${participacion.id}`)).json<Json[]>();
      assert.equal(etagOf(JSON.stringify(listed)), tag);

      const artista = await createArtista(own);
      const res = await write(own, 'PATCH', `/participaciones/${participacion.id}`, tag, { artistas_dni: artista.dni });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { ...participacion, artistas_dni: artista.dni });
      assertError(await write(own, 'DELETE', `/participaciones/${participacion.id}`, tag), 412, { details: PRECONDITION });
      assert.deepEqual(await current(own, '/participaciones', 'id', participacion.id), { ...participacion, artistas_dni: artista.dni });
    } finally {
      await own.close();
    }
  });
});
