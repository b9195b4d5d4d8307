import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { comparable } from '../../src/catalogue/comparable.js';
import {
  artistaBody,
  assertError,
  buildTestApp,
  createArtista,
  createCategoria,
  createEventoUrbano,
  createObra,
  createParticipacion,
  createPelicula,
  send,
  unique,
  type Json,
} from '../helpers.js';

/** A resource whose records are unique on, and looked up by, a title or name. */
interface Keyed {
  what: string;
  path: string;
  field: 'titulo' | 'nombre';
  /** Creates a record with this title or name (and the rows it needs). */
  create: (app: FastifyInstance, value: string) => Promise<Json>;
  /** A valid create body for this title or name; creates the rows it refers to. */
  body: (app: FastifyInstance, value: string) => Promise<Json>;
  duplicate: (value: string) => string;
  notFound: (value: string) => string;
  failed: { create: string; update: string };
}

const keyed: Keyed[] = [
  {
    what: 'movie',
    path: '/peliculas',
    field: 'titulo',
    create: (app, titulo) => createPelicula(app, { titulo }),
    body: async (app, titulo) => ({ titulo, sipnosis: 'Una historia.', duracion: 100, categoria_id: (await createCategoria(app)).id }),
    duplicate: (t) => `Ya existe una película con el titulo de: ${t}, por favor, intente con otro distinto`,
    notFound: (t) => `No se encontró la película con el título: ${t}`,
    failed: { create: 'una pelicula categoria', update: 'la pelicula' },
  },
  {
    what: 'work',
    path: '/Obras',
    field: 'titulo',
    create: (app, titulo) => createObra(app, { titulo }),
    body: async (app, titulo) => ({ titulo, descripcion: 'Una obra.', duracion: 90, categoria_id: (await createCategoria(app)).id }),
    duplicate: (t) => `Ya existe una obra con el titulo de: ${t}, por favor, intente con otro distinto`,
    notFound: (t) => `No se encontró la obra con el título: ${t}`,
    failed: { create: 'una nueva obra', update: 'la obra' },
  },
  {
    what: 'urban event',
    path: '/eventosUrbanos',
    field: 'titulo',
    create: (app, titulo) => createEventoUrbano(app, { titulo }),
    body: async (app, titulo) => ({
      titulo,
      descripcion: 'Un evento.',
      fecha: '2025-10-10',
      lugar: 'Plaza Mayor',
      categoria_id: (await createCategoria(app)).id,
    }),
    duplicate: (t) => `Ya existe un evento con el titulo de: ${t}, por favor, intente con otro distinto`,
    notFound: (t) => `No se encontró el evento con el título: ${t}`,
    failed: { create: 'un nuevo evento', update: 'el evento' },
  },
  {
    what: 'category',
    path: '/categorias',
    field: 'nombre',
    create: (app, nombre) => createCategoria(app, { nombre }),
    body: async (_app, nombre) => ({ nombre }),
    duplicate: (n) => `Ya existe una categoría con el nombre: ${n}, por favor, intente con otro distinto`,
    notFound: (n) => `No se encontró la categoría con el nombre: ${n}`,
    failed: { create: 'una nueva categoria', update: 'la categoria' },
  },
];

const keyedOf = (what: string): Keyed => {
  const found = keyed.find((k) => k.what === what);
  assert.ok(found, what);
  return found;
};

const withoutAccents = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '');
const duplicateArtist = (dni: unknown) => `Ya existe un artista con el dni: ${dni}, por favor, intente con otro distinto`;
const duplicateParticipation = (dni: unknown, tipo: string, id: unknown) =>
  `Ya existe una participación con el artista, tipo de evento e id de evento: ${dni}, ${tipo}, ${id}, por favor, intente con otro distinto`;

async function list(app: FastifyInstance, path: string): Promise<Json[]> {
  const res = await send(app, 'GET', path);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Json[]>();
}

const lookup = (app: FastifyInstance, k: Keyed, value: string) => send(app, 'GET', `${k.path}/${encodeURIComponent(value)}`);

/** The same title spelled `i` different ways: case, accents and padding vary. */
function spelling(base: string, i: number): string {
  const forms = [base, base.toLowerCase(), base.toUpperCase(), withoutAccents(base), withoutAccents(base).toUpperCase()];
  const form = forms[i % forms.length] ?? base;
  return `${' '.repeat(i % 3)}${form}${' '.repeat(i % 2)}`;
}

describe('keys, lookups and uniqueness', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(async () => {
    await app.close();
  });

  for (const k of keyed) {
    describe(`${k.what} ${k.field}`, () => {
      it(`when a ${k.what} is looked up in other case, without accents or padded, then it is found with its value as sent`, async () => {
        const value = unique('La Canción');
        const created = await k.create(app, value);
        const spellings = [
          withoutAccents(value).toLowerCase(),
          value.toUpperCase(),
          `  ${value.toLowerCase()}  `,
          `${withoutAccents(value)} `,
          value.normalize('NFD'),
        ];
        for (const spelled of spellings) {
          const res = await lookup(app, k, spelled);
          assert.equal(res.statusCode, 200, `${spelled}: ${res.body}`);
          assert.deepEqual(res.json(), created);
          assert.equal(res.json<Json>()[k.field], value);
        }
      });

      it(`when a ${k.what} is created with padding, then it is stored trimmed and found by that value`, async () => {
        const value = unique('Déjà vu');
        const created = await k.create(app, `   ${value}  `);
        assert.equal(created[k.field], value);
        const res = await lookup(app, k, value);
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), created);
      });

      it(`when a ${k.what} is created with a ${k.field} equal but for case and accents, then it is a 400 and nothing is stored`, async () => {
        const value = unique('La Canción');
        const original = await k.create(app, value);
        const before = await list(app, k.path);
        const sent = `  ${withoutAccents(value).toUpperCase()} `;
        const res = await send(app, 'POST', k.path, await k.body(app, sent));
        assertError(res, 400, {
          details: k.duplicate(sent.trim()),
          moreInfo: `No se pudo ingresar ${k.failed.create} error en: ${k.path}`,
        });
        assert.deepEqual(await list(app, k.path), before);
        const read = await lookup(app, k, value);
        assert.deepEqual(read.json(), original);
      });

      it(`when a ${k.what} is created with exactly the ${k.field} of another, then it is a 400 and nothing is stored`, async () => {
        const value = unique('Roma');
        await k.create(app, value);
        const before = await list(app, k.path);
        const res = await send(app, 'POST', k.path, await k.body(app, value));
        assertError(res, 400, {
          details: k.duplicate(value),
          moreInfo: `No se pudo ingresar ${k.failed.create} error en: ${k.path}`,
        });
        assert.deepEqual(await list(app, k.path), before);
      });

      it(`when a ${k.what} is renamed to another record's ${k.field} under the comparison, then it is a 400 and nothing changes`, async () => {
        const taken = unique('Canción Tomada');
        await k.create(app, taken);
        const renamed = await k.create(app, unique('Otra'));
        const { id, ...fields } = renamed;
        const sent = withoutAccents(taken).toLowerCase();
        const res = await send(app, 'PUT', `${k.path}/${id}`, { ...fields, [k.field]: sent });
        assertError(res, 400, {
          details: k.duplicate(sent),
          moreInfo: `No se pudo actualizar ${k.failed.update} error en: ${k.path}/${id}`,
        });
        const after = await list(app, k.path);
        assert.deepEqual(after.find((r) => r.id === id), renamed);
        assert.equal(after.filter((r) => comparable(String(r[k.field])) === comparable(taken)).length, 1);
      });

      it(`when a ${k.what} is renamed to its own ${k.field} in other case and accents, then it is a 200 and the new spelling is stored`, async () => {
        const value = unique('la cancion');
        const existing = await k.create(app, value);
        const { id, ...fields } = existing;
        const respelled = value.toUpperCase().replace('CANCION', 'CANCIÓN');
        const res = await send(app, 'PUT', `${k.path}/${id}`, { ...fields, [k.field]: respelled });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json<Json>()[k.field], respelled);
        const read = await lookup(app, k, value);
        assert.equal(read.statusCode, 200, read.body);
        assert.deepEqual(read.json(), { ...existing, [k.field]: respelled });
      });

      it(`when 20 ${k.what} creates of one ${k.field} in different spellings race, then exactly one is stored`, async () => {
        const base = unique('Canción Simultánea');
        const bodies = await Promise.all(Array.from({ length: 20 }, (_, i) => k.body(app, spelling(base, i))));
        const before = await list(app, k.path);
        const responses = await Promise.all(bodies.map((body) => app.inject({ method: 'POST', url: k.path, payload: body })));
        const created = responses.filter((r) => r.statusCode === 201);
        assert.equal(created.length, 1, responses.map((r) => r.body).join('\n'));
        responses.forEach((res, i) => {
          if (res.statusCode === 201) return;
          assertError(res, 400, {
            details: k.duplicate(spelling(base, i).trim()),
            moreInfo: `No se pudo ingresar ${k.failed.create} error en: ${k.path}`,
          });
        });
        const after = await list(app, k.path);
        assert.equal(after.length, before.length + 1);
        assert.equal(after.filter((r) => comparable(String(r[k.field])) === comparable(base)).length, 1);
        const read = await lookup(app, k, base);
        assert.equal(read.statusCode, 200, read.body);
        assert.deepEqual(read.json(), created[0]?.json());
      });

      it(`when a ${k.what} ${k.field} is 255 accented characters, then it is created and found by its percent-encoded path`, async () => {
        const value = 'á'.repeat(255);
        const res = await send(app, 'POST', k.path, await k.body(app, value));
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.headers.location, `${k.path}/${encodeURIComponent(value)}`);
        const read = await send(app, 'GET', String(res.headers.location));
        assert.equal(read.statusCode, 200, read.body);
        assert.deepEqual(read.json(), res.json());
        const folded = await lookup(app, k, value.toUpperCase());
        assert.equal(folded.statusCode, 200, folded.body);
        assert.equal(folded.json<Json>()[k.field], value);
      });

      it(`when a ${k.what} is written 'Straße' and sought as 'STRASSE', then they count as the same`, async () => {
        const value = unique('Straße');
        const original = await k.create(app, value);
        const read = await lookup(app, k, value.replace('ß', 'SS').toUpperCase());
        assert.equal(read.statusCode, 200, read.body);
        assert.deepEqual(read.json(), original);
        const before = await list(app, k.path);
        const sent = value.replace('ß', 'ss').toUpperCase();
        const res = await send(app, 'POST', k.path, await k.body(app, sent));
        assertError(res, 400, { details: k.duplicate(sent), moreInfo: `No se pudo ingresar ${k.failed.create} error en: ${k.path}` });
        assert.deepEqual(await list(app, k.path), before);
      });

      it(`when a ${k.what} is written 'Müller' and sought as 'MULLER', then they count as the same`, async () => {
        const value = unique('Müller');
        const original = await k.create(app, value);
        const read = await lookup(app, k, value.replace('ü', 'u').toUpperCase());
        assert.equal(read.statusCode, 200, read.body);
        assert.deepEqual(read.json(), original);
        const before = await list(app, k.path);
        const sent = value.replace('ü', 'u').toUpperCase();
        const res = await send(app, 'POST', k.path, await k.body(app, sent));
        assertError(res, 400, { details: k.duplicate(sent), moreInfo: `No se pudo ingresar ${k.failed.create} error en: ${k.path}` });
        assert.deepEqual(await list(app, k.path), before);
      });

      it(`when no ${k.what} has the ${k.field}, then it is a 404 naming the decoded value and the raw path`, async () => {
        const value = unique('No existe ñandú');
        const path = `${k.path}/${encodeURIComponent(value)}`;
        const res = await send(app, 'GET', path);
        assertError(res, 404, { details: k.notFound(value), moreInfo: `No se encontró en la ruta: ${path}` });
        assert.equal(res.json<Json>().location, `uri=${path}`);
      });
    });
  }

  describe('titles with reserved URL characters', () => {
    const k = keyedOf('movie');
    for (const prefix of ['AC/DC', '¿Qué pasa?', '100% Real', 'Uno#Dos', 'a+b', 'Tom & Jerry']) {
      it(`when a movie is titled '${prefix}…', then its Location reads it back`, async () => {
        const value = unique(prefix);
        const res = await send(app, 'POST', k.path, await k.body(app, value));
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.headers.location, `/peliculas/${encodeURIComponent(value)}`);
        const read = await send(app, 'GET', String(res.headers.location));
        assert.equal(read.statusCode, 200, read.body);
        assert.deepEqual(read.json(), res.json());
      });
    }
  });

  describe('artist dni', () => {
    it('when an artist is created with a dni another holds, then it is a 400 and the first is unchanged', async () => {
      const original = await createArtista(app);
      const before = await list(app, '/artistas');
      const res = await send(app, 'POST', '/artistas', artistaBody({ dni: original.dni, nombre: 'Otra' }));
      assertError(res, 400, {
        details: duplicateArtist(original.dni),
        moreInfo: 'No se pudo ingresar un nuevo artista error en: /artistas',
      });
      assert.deepEqual(await list(app, '/artistas'), before);
    });

    it('when an artist is created with a taken dni as a digit string, then it is a 400 naming the dni', async () => {
      const original = await createArtista(app);
      const before = await list(app, '/artistas');
      const res = await send(app, 'POST', '/artistas', artistaBody({ dni: String(original.dni) }));
      assertError(res, 400, {
        details: duplicateArtist(original.dni),
        moreInfo: 'No se pudo ingresar un nuevo artista error en: /artistas',
      });
      assert.deepEqual(await list(app, '/artistas'), before);
    });

    it('when 20 creates of one artist dni race, then exactly one is stored', async () => {
      const dni = 40111222;
      const before = await list(app, '/artistas');
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          app.inject({ method: 'POST', url: '/artistas', payload: artistaBody({ dni, nombre: `Nombre ${i}` }) }),
        ),
      );
      assert.equal(responses.filter((r) => r.statusCode === 201).length, 1, responses.map((r) => r.body).join('\n'));
      for (const res of responses.filter((r) => r.statusCode !== 201)) {
        assertError(res, 400, { details: duplicateArtist(dni), moreInfo: 'No se pudo ingresar un nuevo artista error en: /artistas' });
      }
      const after = await list(app, '/artistas');
      assert.equal(after.length, before.length + 1);
      assert.equal(after.filter((a) => a.dni === dni).length, 1);
    });

    it('when an artist is looked up by its dni, then it is found', async () => {
      const artista = await createArtista(app);
      const res = await send(app, 'GET', `/artistas/${artista.dni}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), artista);
    });

    it('when no artist has the dni, then it is a 404 naming the dni', async () => {
      const dni = 9007199254740000;
      const res = await send(app, 'GET', `/artistas/${dni}`);
      assertError(res, 404, {
        details: `No se encontró el artista con el dni: ${dni}`,
        moreInfo: `No se encontró en la ruta: /artistas/${dni}`,
      });
    });

    it("when an artist is looked up by 'abc', then it is a 400 naming the parameter", async () => {
      const res = await send(app, 'GET', '/artistas/abc');
      assertError(res, 400, { details: "El parámetro 'dni' debe ser un número entero." });
    });

    it('when an artist is looked up by 0, then it is a 400 naming the parameter', async () => {
      const res = await send(app, 'GET', '/artistas/0');
      assertError(res, 400, { details: "El parámetro 'dni' debe estar entre 1 y 9007199254740991." });
    });
  });

  describe('participations', () => {
    it('when a participation repeats an artist, kind and item, then it is a 400 and nothing is stored', async () => {
      const existing = await createParticipacion(app);
      const before = await list(app, '/participaciones');
      const res = await send(app, 'POST', '/participaciones', {
        artistas_dni: existing.artistas_dni,
        tipo_evento: existing.tipo_evento,
        evento_id: existing.evento_id,
      });
      assertError(res, 400, {
        details: duplicateParticipation(existing.artistas_dni, existing.tipo_evento, existing.evento_id),
        moreInfo: 'No se pudo ingresar una nueva participacion error en: /participaciones',
      });
      assert.deepEqual(await list(app, '/participaciones'), before);
    });

    it('when the same artist takes part in another item, then it is stored', async () => {
      const existing = await createParticipacion(app);
      const other = await createPelicula(app);
      const res = await send(app, 'POST', '/participaciones', {
        artistas_dni: existing.artistas_dni,
        tipo_evento: 'pelicula',
        evento_id: other.id,
      });
      assert.equal(res.statusCode, 201, res.body);
    });

    it('when a participation is changed to repeat another, then it is a 400 and it is unchanged', async () => {
      const taken = await createParticipacion(app);
      const changed = await createParticipacion(app, { artistas_dni: taken.artistas_dni });
      const res = await send(app, 'PUT', `/participaciones/${changed.id}`, {
        artistas_dni: taken.artistas_dni,
        tipo_evento: taken.tipo_evento,
        evento_id: taken.evento_id,
      });
      assertError(res, 400, {
        details: duplicateParticipation(taken.artistas_dni, taken.tipo_evento, taken.evento_id),
        moreInfo: `No se pudo actualizar la participacion error en: /participaciones/${changed.id}`,
      });
      const after = await list(app, '/participaciones');
      assert.deepEqual(after.find((p) => p.id === changed.id), changed);
    });
  });

  describe('comparable', () => {
    const same: [string, string][] = [
      ['La Canción', 'la cancion '],
      ['  LA CANCIÓN  ', 'la canción'],
      ['Straße', 'STRASSE'],
      ['Müller', 'MULLER'],
      ['Ñandú', 'nandu'],
      ['Cancio\u0301n', 'Canción'],
      ['ﬁesta', 'FIESTA'],
    ];
    for (const [a, b] of same) {
      it(`when '${a}' and '${b}' are made comparable, then they are the same`, () => {
        assert.equal(comparable(a), comparable(b));
      });
    }

    it("when 'La Canción ' is made comparable, then it is 'la cancion'", () => {
      assert.equal(comparable('La Canción '), 'la cancion');
    });

    it("when 'Straße' is made comparable, then it is 'strasse'", () => {
      assert.equal(comparable('Straße'), 'strasse');
    });

    it('when two titles differ in letters, then their comparable forms differ', () => {
      assert.notEqual(comparable('Roma'), comparable('Ramo'));
      assert.notEqual(comparable('La Canción'), comparable('La Cancion 2'));
    });
  });
});
