import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  assertError, buildTestApp, createArtista, createCategoria, createEventoUrbano, createObra, createParticipacion,
  createPelicula, send, unique, type Json, type Pelicula,
} from '../helpers.js';

// The json-server 0.17 query dialect on the six lists: pages, filters, search, sort and headers.

type Param = [string, string | number];
/** `path?name=value&…`, percent-encoded the way a client would send it. */
const withQuery = (path: string, ...params: Param[]) =>
  `${path}?${new URLSearchParams(params.map(([name, value]): [string, string] => [name, String(value)])).toString()}`;

async function get(app: FastifyInstance, url: string): Promise<LightMyRequestResponse> {
  const res = await send(app, 'GET', url);
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
  assert.ok(Array.isArray(res.json()), `${url}: the body is a plain array`);
  return res;
}

const keysOf = (res: LightMyRequestResponse, key = 'id') => res.json<Json[]>().map((r) => r[key]);
const idsOf = (records: Json[]) => records.map((r) => r.id);

/** The Link header as rel → URL. */
function linksOf(res: LightMyRequestResponse): Record<string, string> {
  const header = res.headers.link;
  assert.equal(typeof header, 'string', 'a Link header');
  return Object.fromEntries([...String(header).matchAll(/<([^>]*)>; rel="(\w+)"/g)].map(([, url = '', rel = '']) => [rel, url]));
}

/** A category of its own and one movie in it per override, created in order (so ids ascend). */
async function moviesInOwnCategory(app: FastifyInstance, overrides: Json[]) {
  const categoria = await createCategoria(app);
  const movies: Pelicula[] = [];
  for (const o of overrides) movies.push(await createPelicula(app, { categoria_id: categoria.id, ...o }));
  return { categoria, movies };
}
const manyMovies = (app: FastifyInstance, n: number) => moviesInOwnCategory(app, Array.from({ length: n }, () => ({})));

const LIST_MORE_INFO = (path: string) => `No se pudo completar la consulta en: ${path}`;

describe('lists without parameters: the spec answer, unchanged', () => {
  it('when the six lists are read with no parameter, then each is exactly the records created, in key order, with no X-Total-Count or Link', async () => {
    const app = await buildTestApp();
    try {
      const categoria = await createCategoria(app);
      const peliculas = [await createPelicula(app, { categoria_id: categoria.id }), await createPelicula(app, { categoria_id: categoria.id })];
      const obra = await createObra(app, { categoria_id: categoria.id });
      const evento = await createEventoUrbano(app, { categoria_id: categoria.id });
      const mayor = await createArtista(app, { dni: 40000002 });
      const menor = await createArtista(app, { dni: 40000001 });
      const participaciones = [
        await createParticipacion(app, { artistas_dni: mayor.dni, evento_id: peliculas[0]?.id }),
        await createParticipacion(app, { artistas_dni: menor.dni, tipo_evento: 'obra', evento_id: obra.id }),
      ];
      const expected: [string, Json[]][] = [
        ['/categorias', [categoria]],
        ['/peliculas', peliculas],
        ['/Obras', [obra]],
        ['/eventosUrbanos', [evento]],
        ['/artistas', [menor, mayor]],
        ['/participaciones', participaciones],
      ];
      for (const [path, records] of expected) {
        const res = await get(app, path);
        assert.deepEqual(res.json(), records, path);
        assert.equal(res.headers['x-total-count'], undefined, path);
        assert.equal(res.headers.link, undefined, path);
      }
    } finally {
      await app.close();
    }
  });
});

describe('list pages', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  it('when an unrecognised parameter is given (?_=123, ?nada=1), then exactly the plain list, without X-Total-Count or Link', async () => {
    await createPelicula(app);
    const plain = await get(app, '/peliculas');
    for (const url of ['/peliculas?_=123', '/peliculas?nada=1&_=1700000000000']) {
      const res = await get(app, url);
      assert.equal(res.body, plain.body, url);
      assert.equal(res.headers.etag, plain.headers.etag, url);
      assert.equal(res.headers['x-total-count'], undefined, url);
      assert.equal(res.headers.link, undefined, url);
    }
  });

  it('when _page and _limit ask for a middle page, then that page, the filtered total and first/prev/next/last links keeping the filter', async () => {
    const { categoria: c, movies } = await manyMovies(app, 25);
    const res = await get(app, `/peliculas?categoria_id=${c.id}&_page=2&_limit=10`);
    assert.deepEqual(res.json(), movies.slice(10, 20));
    assert.equal(res.headers['x-total-count'], '25');
    assert.deepEqual(linksOf(res), {
      first: `/peliculas?categoria_id=${c.id}&_page=1&_limit=10`,
      prev: `/peliculas?categoria_id=${c.id}&_page=1&_limit=10`,
      next: `/peliculas?categoria_id=${c.id}&_page=3&_limit=10`,
      last: `/peliculas?categoria_id=${c.id}&_page=3&_limit=10`,
    });
  });

  it('when a list is asked with parameters it does not know, then its links carry only those of the list, however long the others are', async () => {
    const { categoria: c } = await manyMovies(app, 15);
    const long = 'x'.repeat(8000);
    for (const path of [`/peliculas?categoria_id=${c.id}&_page=1&_limit=10&x=${long}&_=123`, `/cambios?_page=1&_limit=10&x=${long}`]) {
      const res = await get(app, path);
      assert.equal(res.statusCode, 200);
      assert.ok(String(res.headers.link).length < 400, String(res.headers.link).slice(0, 200));
      assert.doesNotMatch(String(res.headers.link), /[?&](x|_)=/);
    }
    assert.equal(linksOf(await get(app, `/peliculas?categoria_id=${c.id}&_page=1&_limit=10&x=1`)).next, `/peliculas?categoria_id=${c.id}&_page=2&_limit=10`);
  });

  it('when the first or the last page is asked, then there is no prev, or no next, link', async () => {
    const { categoria: c, movies } = await manyMovies(app, 25);
    const first = await get(app, `/peliculas?categoria_id=${c.id}&_page=1&_limit=10`);
    assert.deepEqual(first.json(), movies.slice(0, 10));
    assert.deepEqual(Object.keys(linksOf(first)).sort(), ['first', 'last', 'next']);
    const last = await get(app, `/peliculas?categoria_id=${c.id}&_page=3&_limit=10`);
    assert.deepEqual(last.json(), movies.slice(20));
    assert.equal(last.headers['x-total-count'], '25');
    assert.deepEqual(Object.keys(linksOf(last)).sort(), ['first', 'last', 'prev']);
  });

  it('when _page is given without _limit, then pages hold 10 records and the links name _limit=10', async () => {
    const { categoria: c, movies } = await manyMovies(app, 12);
    const res = await get(app, `/peliculas?categoria_id=${c.id}&_page=2`);
    assert.deepEqual(res.json(), movies.slice(10));
    assert.equal(res.headers['x-total-count'], '12');
    assert.deepEqual(linksOf(res), {
      first: `/peliculas?categoria_id=${c.id}&_page=1&_limit=10`,
      prev: `/peliculas?categoria_id=${c.id}&_page=1&_limit=10`,
      last: `/peliculas?categoria_id=${c.id}&_page=2&_limit=10`,
    });
  });

  it('when a page past the end is asked, then an empty array with the total', async () => {
    const { categoria: c } = await manyMovies(app, 3);
    const res = await get(app, `/peliculas?categoria_id=${c.id}&_page=5&_limit=2`);
    assert.deepEqual(res.json(), []);
    assert.equal(res.headers['x-total-count'], '3');
  });

  /** Follows every link of a windowed answer and checks each names the expected slice. */
  async function assertLinksLeadTo(res: LightMyRequestResponse, expected: Record<string, Json[]>) {
    const links = linksOf(res);
    assert.deepEqual(Object.keys(links).sort(), Object.keys(expected).sort());
    for (const [rel, url] of Object.entries(links)) {
      assert.match(url, /^\/peliculas\?/, `${rel} is a relative URL`);
      const target = await get(app, url);
      assert.deepEqual(idsOf(target.json<Json[]>()), idsOf(expected[rel] ?? []), `${rel}: ${url}`);
    }
  }

  it('when _start and _end are given, then that slice, and links to the neighbouring slices of the same size', async () => {
    const { categoria: c, movies } = await manyMovies(app, 25);
    const res = await get(app, `/peliculas?categoria_id=${c.id}&_start=5&_end=8`);
    assert.deepEqual(res.json(), movies.slice(5, 8));
    assert.equal(res.headers['x-total-count'], '25');
    await assertLinksLeadTo(res, { first: movies.slice(0, 3), prev: movies.slice(2, 5), next: movies.slice(8, 11), last: movies.slice(24) });
  });

  it('when _start and _limit are given, then _limit records from _start, and links in the same terms', async () => {
    const { categoria: c, movies } = await manyMovies(app, 25);
    const res = await get(app, `/peliculas?categoria_id=${c.id}&_start=20&_limit=10`);
    assert.deepEqual(res.json(), movies.slice(20));
    assert.equal(res.headers['x-total-count'], '25');
    await assertLinksLeadTo(res, { first: movies.slice(0, 10), prev: movies.slice(10, 20), last: movies.slice(20) });
  });

  it('when limit and offset are given, then that slice, and links in the same terms', async () => {
    const { categoria: c, movies } = await manyMovies(app, 25);
    const res = await get(app, `/peliculas?categoria_id=${c.id}&limit=5&offset=10`);
    assert.deepEqual(res.json(), movies.slice(10, 15));
    assert.equal(res.headers['x-total-count'], '25');
    await assertLinksLeadTo(res, { first: movies.slice(0, 5), prev: movies.slice(5, 10), next: movies.slice(15, 20), last: movies.slice(20) });
  });

  it('when only _limit is given, then the first _limit records, with links', async () => {
    const { categoria: c, movies } = await manyMovies(app, 7);
    const res = await get(app, `/peliculas?categoria_id=${c.id}&_limit=3`);
    assert.deepEqual(res.json(), movies.slice(0, 3));
    assert.equal(res.headers['x-total-count'], '7');
    await assertLinksLeadTo(res, { first: movies.slice(0, 3), next: movies.slice(3, 6), last: movies.slice(6) });
  });

  it('when a page of exactly 1000 records is asked, then it is answered', async () => {
    const { categoria: c, movies } = await manyMovies(app, 2);
    for (const url of [`/peliculas?categoria_id=${c.id}&_limit=1000`, `/peliculas?categoria_id=${c.id}&limit=1000`, `/peliculas?categoria_id=${c.id}&_start=0&_end=1000`]) {
      const res = await get(app, url);
      assert.deepEqual(res.json(), movies, url);
    }
  });

  it('when a page of more than 1000 records is asked, then 400 naming the limit', async () => {
    const cases: [string, string][] = [
      ['_limit=1001', "El parámetro '_limit' debe estar entre 1 y 1000."],
      ['_page=1&_limit=1001', "El parámetro '_limit' debe estar entre 1 y 1000."],
      ['_start=10&_limit=1001', "El parámetro '_limit' debe estar entre 1 y 1000."],
      ['limit=1001', "El parámetro 'limit' debe estar entre 1 y 1000."],
      ['limit=1001&offset=0', "El parámetro 'limit' debe estar entre 1 y 1000."],
      ['_start=0&_end=1001', "El parámetro '_end' pide una página de más de 1000 registros, el máximo."],
      ['_end=5000', "El parámetro '_end' pide una página de más de 1000 registros, el máximo."],
    ];
    for (const [query, details] of cases) {
      assertError(await send(app, 'GET', `/peliculas?${query}`), 400, { details, moreInfo: LIST_MORE_INFO('/peliculas') });
    }
  });

  it('when a page parameter is not a valid number, then 400 naming it', async () => {
    const cases: [string, string | RegExp][] = [
      ['_page=0', /^El parámetro '_page' debe estar entre 1 y \d+\.$/],
      ['_page=abc', "El parámetro '_page' debe ser un número entero."],
      ['_limit=0', "El parámetro '_limit' debe estar entre 1 y 1000."],
      ['_limit=2.5', "El parámetro '_limit' debe ser un número entero."],
      ['offset=-1', "El parámetro 'offset' debe ser un número entero."],
      ['_start=5&_end=5', "El parámetro '_end' debe ser mayor que '_start'."],
    ];
    for (const [query, details] of cases) {
      assertError(await send(app, 'GET', `/peliculas?${query}`), 400, { details, moreInfo: LIST_MORE_INFO('/peliculas') });
    }
  });

  it('when HEAD asks for a page, then the same X-Total-Count, Link and ETag as GET, and no body', async () => {
    const { categoria: c } = await manyMovies(app, 5);
    const url = `/peliculas?categoria_id=${c.id}&_page=2&_limit=2`;
    const getRes = await get(app, url);
    const head = await send(app, 'HEAD', url);
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    assert.equal(head.headers['x-total-count'], '5');
    assert.equal(head.headers['x-total-count'], getRes.headers['x-total-count']);
    assert.equal(head.headers.link, getRes.headers.link);
    assert.equal(head.headers.etag, getRes.headers.etag);
  });

  it('when a filter or a sort is used without a page, then X-Total-Count but no Link', async () => {
    const { categoria: c, movies } = await manyMovies(app, 3);
    for (const url of [`/peliculas?categoria_id=${c.id}`, `/peliculas?categoria_id=${c.id}&_sort=id`]) {
      const res = await get(app, url);
      assert.deepEqual(res.json(), movies, url);
      assert.equal(res.headers['x-total-count'], '3', url);
      assert.equal(res.headers.link, undefined, url);
    }
  });

  it('when any of the six lists is asked for a page, then a plain array of its first records and the total of the whole list', async () => {
    const categoria = await createCategoria(app);
    await createParticipacion(app);
    await createObra(app, { categoria_id: categoria.id });
    await createEventoUrbano(app, { categoria_id: categoria.id });
    for (const path of ['/peliculas', '/Obras', '/eventosUrbanos', '/artistas', '/categorias', '/participaciones']) {
      const plain = (await get(app, path)).json<Json[]>();
      const res = await get(app, `${path}?_page=1&_limit=1`);
      assert.deepEqual(res.json(), plain.slice(0, 1), path);
      assert.equal(res.headers['x-total-count'], String(plain.length), path);
      assert.match(linksOf(res).first ?? '', new RegExp(`^${path}\\?`), path);
    }
  });
});

describe('list filters', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  it('when a field is given (?id=, ?categoria_id=), then only the records equal to it, with the filtered total', async () => {
    const { categoria: c, movies } = await manyMovies(app, 3);
    await createPelicula(app);
    const byCategory = await get(app, `/peliculas?categoria_id=${c.id}`);
    assert.deepEqual(byCategory.json(), movies);
    assert.equal(byCategory.headers['x-total-count'], '3');
    const byId = await get(app, `/peliculas?id=${movies[1]?.id}`);
    assert.deepEqual(byId.json(), [movies[1]]);
    assert.equal(byId.headers['x-total-count'], '1');
  });

  it('when a key is repeated (?id=4&id=9), then the records equal to any of the values, by id', async () => {
    const { movies } = await manyMovies(app, 3);
    const [a, , b] = movies;
    const res = await get(app, withQuery('/peliculas', ['id', Number(b?.id)], ['id', Number(a?.id)]));
    assert.deepEqual(res.json(), [a, b]);
    assert.equal(res.headers['x-total-count'], '2');
  });

  it('when each of the six lists is filtered by a field, then only the records equal to it', async () => {
    const categoria = await createCategoria(app, { nombre: unique('Música Clásica') });
    const pelicula = await createPelicula(app, { categoria_id: categoria.id });
    const obra = await createObra(app, { titulo: unique('El Público'), categoria_id: categoria.id });
    const evento = await createEventoUrbano(app, { lugar: unique('Plaza Mayor'), categoria_id: categoria.id });
    const artista = await createArtista(app);
    const enObra = await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'obra', evento_id: obra.id });
    await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: pelicula.id });
    const cases: [string, Json[]][] = [
      [withQuery('/peliculas', ['titulo', pelicula.titulo]), [pelicula]],
      [withQuery('/Obras', ['titulo', obra.titulo.toLowerCase().replace('ú', 'u')]), [obra]],
      [withQuery('/eventosUrbanos', ['lugar', evento.lugar.toUpperCase()]), [evento]],
      [withQuery('/artistas', ['dni', artista.dni]), [artista]],
      [withQuery('/categorias', ['nombre', categoria.nombre.replace('ú', 'u').replace('á', 'a')]), [categoria]],
      [withQuery('/participaciones', ['artistas_dni', artista.dni], ['tipo_evento', 'obra']), [enObra]],
    ];
    for (const [url, expected] of cases) {
      const res = await get(app, url);
      assert.deepEqual(res.json(), expected, url);
      assert.equal(res.headers['x-total-count'], String(expected.length), url);
    }
  });

  it('when a text field is compared (?titulo=la cancion), then case, accents and surrounding spaces are ignored', async () => {
    const suffix = unique('n');
    const { categoria: c, movies } = await moviesInOwnCategory(app, [{ titulo: `La Canción ${suffix}` }, { titulo: `La Canciones ${suffix}` }]);
    for (const value of [`la cancion ${suffix}`, `LA CANCIÓN ${suffix}`, `  La Canción ${suffix} `]) {
      const res = await get(app, withQuery('/peliculas', ['categoria_id', c.id], ['titulo', value]));
      assert.deepEqual(res.json(), [movies[0]], value);
    }
    assert.deepEqual((await get(app, withQuery('/peliculas', ['categoria_id', c.id], ['titulo', 'la cancion']))).json(), []);
  });

  it('when _gte, _lte and _ne are given on an integer, then the records in range or not equal', async () => {
    const { categoria: c, movies } = await moviesInOwnCategory(app, [{ duracion: 60 }, { duracion: 90 }, { duracion: 120 }]);
    const [corta, media, larga] = movies;
    const cases: [Param[], Json[]][] = [
      [[['duracion_gte', 90]], [media, larga] as Json[]],
      [[['duracion_lte', 90]], [corta, media] as Json[]],
      [[['duracion_gte', 61], ['duracion_lte', 119]], [media] as Json[]],
      [[['duracion_ne', 90]], [corta, larga] as Json[]],
      [[['id_ne', Number(corta?.id)], ['id_ne', Number(larga?.id)]], [media] as Json[]],
    ];
    for (const [params, expected] of cases) {
      const url = withQuery('/peliculas', ['categoria_id', c.id], ...params);
      const res = await get(app, url);
      assert.deepEqual(res.json(), expected, url);
      assert.equal(res.headers['x-total-count'], String(expected.length), url);
    }
  });

  it('when _like is given on a text field, then the records that contain it, ignoring case and accents, and % or _ are literal', async () => {
    const { categoria: c, movies } = await moviesInOwnCategory(app, [
      { titulo: unique('La Canción del Mar') },
      { titulo: unique('Otra CANCION') },
      { titulo: unique('Roma') },
      { titulo: unique('Al 100% real') },
      { titulo: unique('1000 cosas') },
    ]);
    const [mar, otra, , cien] = movies;
    const cases: [string, Json[]][] = [
      ['canción', [mar, otra] as Json[]],
      ['CANCION', [mar, otra] as Json[]],
      ['100%', [cien] as Json[]],
      ['%', [cien] as Json[]],
      ['_', []],
    ];
    for (const [value, expected] of cases) {
      const res = await get(app, withQuery('/peliculas', ['categoria_id', c.id], ['titulo_like', value]));
      assert.deepEqual(res.json(), expected, value);
    }
  });

  it('when _gte is given on a text field, then text compares by its comparable form in code-point order', async () => {
    const { categoria: c, movies } = await moviesInOwnCategory(app, [{ titulo: unique('Ábaco') }, { titulo: unique('beta') }, { titulo: unique('Zeta') }]);
    const res = await get(app, withQuery('/peliculas', ['categoria_id', c.id], ['titulo_gte', 'B']));
    assert.deepEqual(res.json(), movies.slice(1));
  });

  it('when several filters are given, then the records that meet all of them', async () => {
    const { categoria: c, movies } = await moviesInOwnCategory(app, [
      { titulo: unique('Noche'), duracion: 80 },
      { titulo: unique('Noche'), duracion: 130 },
      { titulo: unique('Día'), duracion: 130 },
    ]);
    const res = await get(app, withQuery('/peliculas', ['categoria_id', c.id], ['titulo_like', 'noche'], ['duracion_gte', 100]));
    assert.deepEqual(res.json(), [movies[1]]);
    assert.equal(res.headers['x-total-count'], '1');
  });

  it('when fecha is filtered, then the contract date rules apply (a date is midnight UTC, an offset is honoured)', async () => {
    const categoria = await createCategoria(app);
    const e = [
      await createEventoUrbano(app, { categoria_id: categoria.id, fecha: '2024-12-31T23:59:59Z' }),
      await createEventoUrbano(app, { categoria_id: categoria.id, fecha: '2025-01-01' }),
      await createEventoUrbano(app, { categoria_id: categoria.id, fecha: '2025-06-01T12:00:00-03:00' }),
    ];
    const cases: [Param, Json[]][] = [
      [['fecha_gte', '2025-01-01'], [e[1], e[2]] as Json[]],
      [['fecha_lte', '2025-01-01'], [e[0], e[1]] as Json[]],
      [['fecha', '2025-01-01T00:00:00.000Z'], [e[1]] as Json[]],
      [['fecha_gte', '2025-01-01T01:00:00+02:00'], e],
      [['fecha_ne', '2025-06-01T15:00:00Z'], [e[0], e[1]] as Json[]],
    ];
    for (const [param, expected] of cases) {
      const url = withQuery('/eventosUrbanos', ['categoria_id', categoria.id], param);
      assert.deepEqual((await get(app, url)).json(), expected, url);
    }
  });

  it('when a date filter is not a valid date, then 400 naming the parameter', async () => {
    for (const [param, value] of [['fecha_gte', '2025-02-30'], ['fecha_lte', 'ayer'], ['fecha', '2025-13-01']] as const) {
      assertError(await send(app, 'GET', withQuery('/eventosUrbanos', [param, value])), 400, {
        details: `El parámetro '${param}' debe ser una fecha válida (AAAA-MM-DD o fecha y hora ISO 8601).`,
        moreInfo: LIST_MORE_INFO('/eventosUrbanos'),
      });
    }
  });

  it('when an integer filter is not an integer, then 400 naming the parameter', async () => {
    const cases: [string, Param][] = [
      ['/peliculas', ['duracion_gte', 'abc']],
      ['/peliculas', ['duracion_gte', '1.5']],
      ['/peliculas', ['id', 'x']],
      ['/artistas', ['dni', 'doce']],
      ['/participaciones', ['evento_id_lte', 'true']],
    ];
    for (const [path, [param, value]] of cases) {
      assertError(await send(app, 'GET', withQuery(path, [param, value])), 400, {
        details: `El parámetro '${param}' debe ser un número entero.`,
        moreInfo: LIST_MORE_INFO(path),
      });
    }
  });

  it('when an integer filter is outside the field\'s range, then it means what it says (no row, or every row), never an error', async () => {
    const { categoria, movies } = await moviesInOwnCategory(app, [{ duracion: 90 }, { duracion: 120 }]);
    const own: Param = ['categoria_id', categoria.id];
    const cases: [Param, Pelicula[]][] = [
      [['id', '2147483648'], []],
      [['id', '-9999999999999999'], []],
      [['duracion_gte', 0], movies],
      [['duracion_gte', '100001'], []],
      [['duracion_lte', '9999999999999999'], movies],
      [['duracion_lte', 0], []],
      [['id_ne', '9999999999999999'], movies],
      [['duracion_ne', -1], movies],
    ];
    for (const [param, expected] of cases) {
      const res = await get(app, withQuery('/peliculas', own, param));
      assert.deepEqual(idsOf(res.json()), idsOf(expected), param.join('='));
      assert.equal(res.headers['x-total-count'], String(expected.length), param.join('='));
    }
    // One value the field can hold among several it cannot: that one counts.
    const either = await get(app, withQuery('/peliculas', own, ['id', '0'], ['id', movies[1]?.id ?? 0], ['id', '2147483648']));
    assert.deepEqual(idsOf(either.json()), [movies[1]?.id]);
    assert.deepEqual((await get(app, withQuery('/artistas', ['dni', '9007199254740993']))).json(), []);
    assert.deepEqual((await get(app, withQuery('/participaciones', ['evento_id_lte', '-9999999999999999']))).json(), []);
  });

  it('when a text filter holds U+0000, which no field can, then 400 naming the parameter', async () => {
    for (const param of ['titulo', 'titulo_like', 'sipnosis_gte']) {
      assertError(await send(app, 'GET', withQuery('/peliculas', [param, 'a\u0000b'])), 400, {
        details: `El parámetro '${param}' contiene un carácter no admitido (U+0000 o un sustituto UTF-16 aislado).`,
        moreInfo: LIST_MORE_INFO('/peliculas'),
      });
    }
  });

  it('when a parameter is named after an Object property (__proto__, constructor, toString…), then it is ignored like any unknown one', async () => {
    const { categoria, movies } = await moviesInOwnCategory(app, [{}, {}]);
    for (const param of ['__proto__', 'constructor', 'toString', 'hasOwnProperty_like', 'constructor_gte', '__proto___ne']) {
      const res = await get(app, withQuery('/peliculas', ['categoria_id', categoria.id], [param, '1']));
      assert.deepEqual(idsOf(res.json()), idsOf(movies), param);
      assert.equal(res.headers['x-total-count'], '2', param);
    }
  });

  it('when an enum filter names an unknown value, then 400 listing the allowed values', async () => {
    for (const param of ['tipo_evento', 'tipo_evento_ne']) {
      assertError(await send(app, 'GET', withQuery('/participaciones', [param, 'concierto'])), 400, {
        details: `El parámetro '${param}' debe ser uno de: pelicula, obra, eventoUrbano.`,
        moreInfo: LIST_MORE_INFO('/participaciones'),
      });
    }
  });

  it('when an enum filter names a kind (?tipo_evento=pelicula), then only the participations of that kind', async () => {
    const artista = await createArtista(app);
    const obra = await createObra(app);
    const enPelicula = await createParticipacion(app, { artistas_dni: artista.dni });
    await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'obra', evento_id: obra.id });
    const res = await get(app, withQuery('/participaciones', ['artistas_dni', artista.dni], ['tipo_evento', 'pelicula']));
    assert.deepEqual(res.json(), [enPelicula]);
  });

  it('when _like is given on a field that is not text, then 400 saying it is only for text fields', async () => {
    const cases: [string, string][] = [
      ['/peliculas', 'duracion_like'],
      ['/eventosUrbanos', 'fecha_like'],
      ['/participaciones', 'tipo_evento_like'],
      ['/artistas', 'dni_like'],
    ];
    for (const [path, param] of cases) {
      assertError(await send(app, 'GET', withQuery(path, [param, '9'])), 400, {
        details: `El parámetro '${param}' solo se admite en campos de texto.`,
        moreInfo: LIST_MORE_INFO(path),
      });
    }
  });
});

describe('list search (q)', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  it('when q is given on movies, then the records with it in any text field, ignoring case and accents', async () => {
    const { categoria: c, movies } = await moviesInOwnCategory(app, [
      { titulo: unique('Noche de Acción') },
      { sipnosis: 'Una ACCION sin fin.' },
      { titulo: unique('Roma'), sipnosis: 'Drama.' },
    ]);
    for (const q of ['accion', 'ACCIÓN', ' acción ']) {
      const res = await get(app, withQuery('/peliculas', ['categoria_id', c.id], ['q', q]));
      assert.deepEqual(res.json(), movies.slice(0, 2), q);
      assert.equal(res.headers['x-total-count'], '2', q);
    }
  });

  it('when q holds % or _, then they are matched literally', async () => {
    const { categoria: c, movies } = await moviesInOwnCategory(app, [{ sipnosis: 'Al 100% real.' }, { sipnosis: '1000 cosas.' }]);
    assert.deepEqual((await get(app, withQuery('/peliculas', ['categoria_id', c.id], ['q', '100%']))).json(), [movies[0]]);
    assert.deepEqual((await get(app, withQuery('/peliculas', ['categoria_id', c.id], ['q', '1_0']))).json(), []);
  });

  it('when q is given on works, events, artists and categories, then it searches each one\'s text fields', async () => {
    const categoria = await createCategoria(app, { nombre: unique('Danza Contemporánea') });
    const obra = await createObra(app, { categoria_id: categoria.id, descripcion: `Un clásico ${unique('Lorca')}.` });
    const evento = await createEventoUrbano(app, { categoria_id: categoria.id, lugar: unique('Plaza de la Constitución') });
    const artista = await createArtista(app, { apellido: unique('Núñez') });
    const oficio = await createArtista(app, { tipo: unique('Bailarín') });
    const cases: [string, string, Json[]][] = [
      ['/Obras', String(obra.descripcion).slice(11, -1).toUpperCase(), [obra]],
      ['/eventosUrbanos', evento.lugar.replace('ó', 'o').toLowerCase(), [evento]],
      ['/artistas', artista.apellido.replace('ú', 'u'), [artista]],
      ['/artistas', oficio.tipo.replace('í', 'i').toUpperCase(), [oficio]],
      ['/categorias', categoria.nombre.replace('á', 'a'), [categoria]],
    ];
    for (const [path, q, expected] of cases) {
      const res = await get(app, withQuery(path, ['q', q]));
      assert.deepEqual(res.json(), expected, `${path} q=${q}`);
    }
  });

  it('when q is given on participations, which have no free-text field, then it searches their kind', async () => {
    await createParticipacion(app);
    const obra = await createObra(app);
    await createParticipacion(app, { tipo_evento: 'obra', evento_id: obra.id });
    const res = await send(app, 'GET', '/participaciones?q=OBRA');
    assert.equal(res.statusCode, 200, res.body);
    const found = res.json<Json[]>();
    assert.ok(found.length > 0);
    assert.ok(found.every((p) => p.tipo_evento === 'obra'));
    assert.equal(res.headers['x-total-count'], String(found.length));
    assert.deepEqual((await send(app, 'GET', '/categorias?q=zzzz-nada')).json(), []);
  });

  it('when q holds U+0000, then 400 naming it', async () => {
    assertError(await send(app, 'GET', withQuery('/peliculas', ['q', '\u0000'])), 400, {
      details: "El parámetro 'q' contiene un carácter no admitido (U+0000 o un sustituto UTF-16 aislado).",
      moreInfo: LIST_MORE_INFO('/peliculas'),
    });
  });
});

describe('list sort', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  async function fourMovies() {
    return moviesInOwnCategory(app, [
      { titulo: unique('B'), duracion: 100 },
      { titulo: unique('A'), duracion: 90 },
      { titulo: unique('C'), duracion: 100 },
      { titulo: unique('D'), duracion: 90 },
    ]);
  }

  it('when _sort names fields with a leading - (duracion,-titulo), then ascending and descending by each, in turn', async () => {
    const { categoria: c, movies: [b, a, cc, d] } = await fourMovies();
    const res = await get(app, `/peliculas?categoria_id=${c.id}&_sort=duracion,-titulo`);
    assert.deepEqual(res.json(), [d, a, cc, b]);
    assert.equal(res.headers['x-total-count'], '4');
  });

  it('when _order gives one direction per _sort field, then each field sorts its own way', async () => {
    const { categoria: c, movies: [b, a, cc, d] } = await fourMovies();
    const res = await get(app, `/peliculas?categoria_id=${c.id}&_sort=duracion,titulo&_order=desc,asc`);
    assert.deepEqual(res.json(), [b, cc, a, d]);
  });

  it('when _order gives one direction for several fields, then it applies to all of them', async () => {
    const { categoria: c, movies: [b, a, cc, d] } = await fourMovies();
    const res = await get(app, `/peliculas?categoria_id=${c.id}&_sort=duracion,titulo&_order=desc`);
    assert.deepEqual(res.json(), [cc, b, d, a]);
  });

  it('when records tie on the sort fields, then the key breaks the tie, ascending, whatever the order asked', async () => {
    const { categoria: c, movies: [b, a, cc, d] } = await fourMovies();
    assert.deepEqual((await get(app, `/peliculas?categoria_id=${c.id}&_sort=duracion`)).json(), [a, d, b, cc]);
    assert.deepEqual((await get(app, `/peliculas?categoria_id=${c.id}&_sort=duracion&_order=desc`)).json(), [b, cc, a, d]);
    assert.deepEqual((await get(app, `/peliculas?categoria_id=${c.id}&_sort=-duracion`)).json(), [b, cc, a, d]);
  });

  it('when text is sorted, then by its comparable form in code-point order (Ábaco with abaco, a space before letters)', async () => {
    const { categoria: c, movies } = await moviesInOwnCategory(app, [
      { titulo: unique('Zeta') },
      { titulo: unique('abacus') },
      { titulo: unique('Lab') },
      { titulo: unique('Ábaco') },
      { titulo: unique('La Z') },
    ]);
    const [zeta, abacus, lab, abaco, laZ] = movies;
    assert.deepEqual((await get(app, `/peliculas?categoria_id=${c.id}&_sort=titulo`)).json(), [abaco, abacus, laZ, lab, zeta]);
    assert.deepEqual((await get(app, `/peliculas?categoria_id=${c.id}&_sort=-titulo`)).json(), [zeta, lab, laZ, abacus, abaco]);
  });

  it('when other lists are sorted by a date, a key or a kind, then the order asked', async () => {
    const categoria = await createCategoria(app);
    const eventos = [
      await createEventoUrbano(app, { categoria_id: categoria.id, fecha: '2025-03-01' }),
      await createEventoUrbano(app, { categoria_id: categoria.id, fecha: '2024-03-01' }),
      await createEventoUrbano(app, { categoria_id: categoria.id, fecha: '2025-03-01T10:00:00+01:00' }),
    ];
    const [marzo25, marzo24, marzo25Tarde] = eventos;
    assert.deepEqual(
      (await get(app, `/eventosUrbanos?categoria_id=${categoria.id}&_sort=-fecha`)).json(),
      [marzo25Tarde, marzo25, marzo24],
    );

    const artistas = [await createArtista(app), await createArtista(app), await createArtista(app)];
    const dnis = artistas.map((a) => a.dni);
    const byDni = await get(app, withQuery('/artistas', ...dnis.map((dni): Param => ['dni', dni]), ['_sort', 'dni'], ['_order', 'desc']));
    assert.deepEqual(keysOf(byDni, 'dni'), [...dnis].sort((x, y) => y - x));

    const artista = await createArtista(app);
    const obra = await createObra(app, { categoria_id: categoria.id });
    const pelicula = await createParticipacion(app, { artistas_dni: artista.dni });
    const enObra = await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'obra', evento_id: obra.id });
    const enEvento = await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'eventoUrbano', evento_id: marzo24?.id });
    assert.deepEqual(
      (await get(app, `/participaciones?artistas_dni=${artista.dni}&_sort=tipo_evento`)).json(),
      [enEvento, enObra, pelicula],
    );
  });

  it('when _sort names a field that does not exist (or an internal column, or an Object property), then 400 naming it', async () => {
    for (const [path, field] of [['/peliculas', 'nada'], ['/peliculas', 'titulo_clave'], ['/artistas', 'id'], ['/participaciones', 'pelicula_id'], ['/categorias', '__proto__'], ['/Obras', 'constructor'], ['/artistas', 'toString']]) {
      assertError(await send(app, 'GET', `${path}?_sort=${field}`), 400, {
        details: new RegExp(`^El parámetro '_sort' nombra un campo que no existe: ${field} `),
        moreInfo: LIST_MORE_INFO(String(path)),
      });
    }
  });

  it('when _order comes without _sort, or says neither asc nor desc even with nothing to sort, then 400 names it', async () => {
    assertError(await send(app, 'GET', '/peliculas?_order=desc'), 400, {
      details: "El parámetro '_order' necesita '_sort', que nombra los campos que ordena.",
      moreInfo: LIST_MORE_INFO('/peliculas'),
    });
    for (const path of ['/peliculas?_order=sideways', '/cambios?_order=sideways']) {
      assertError(await send(app, 'GET', path), 400, { details: "El parámetro '_order' debe ser asc o desc." });
    }
    assert.equal((await send(app, 'GET', '/peliculas?_order=')).statusCode, 200);
  });

  it('when _order is neither asc nor desc, then 400', async () => {
    for (const order of ['up', 'asc,down']) {
      assertError(await send(app, 'GET', `/peliculas?_sort=titulo,duracion&_order=${order}`), 400, {
        details: "El parámetro '_order' debe ser asc o desc.",
        moreInfo: LIST_MORE_INFO('/peliculas'),
      });
    }
  });
});
