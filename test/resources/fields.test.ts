import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { canonicalFecha } from '../../src/catalogue/fecha.js';
import {
  artistaBody,
  assertError,
  buildTestApp,
  categoriaBody,
  createArtista,
  createCategoria,
  createEventoUrbano,
  createObra,
  createPelicula,
  eventoUrbanoBody,
  obraBody,
  peliculaBody,
  send,
  unique,
  type Json,
} from '../helpers.js';

/** How one resource is spoken to: everything the field and update rules vary by. */
interface Scenario {
  what: string;
  path: string;
  key: 'id' | 'dni';
  /** Required on create (the artist's dni included). */
  required: string[];
  /** Text fields and their length limit. */
  texts: Record<string, 255 | 5000>;
  /** `No se pudo ingresar <create> error en:` / `No se pudo actualizar <update> error en:` */
  failed: { create: string; update: string };
  notFound: (key: number) => string;
  /** A valid create body; creates whatever rows it refers to. */
  body: (app: FastifyInstance) => Promise<Json>;
}

const scenarios: Scenario[] = [
  {
    what: 'movie',
    path: '/peliculas',
    key: 'id',
    required: ['titulo', 'sipnosis', 'duracion', 'categoria_id'],
    texts: { titulo: 255, sipnosis: 5000 },
    failed: { create: 'una pelicula categoria', update: 'la pelicula' },
    notFound: (id) => `No se encontró la película con id: ${id}`,
    body: async (app) => peliculaBody((await createCategoria(app)).id),
  },
  {
    what: 'work',
    path: '/Obras',
    key: 'id',
    required: ['titulo', 'descripcion', 'duracion', 'categoria_id'],
    texts: { titulo: 255, descripcion: 5000 },
    failed: { create: 'una nueva obra', update: 'la obra' },
    notFound: (id) => `No se encontró la obra con id: ${id}`,
    body: async (app) => obraBody((await createCategoria(app)).id),
  },
  {
    what: 'urban event',
    path: '/eventosUrbanos',
    key: 'id',
    required: ['titulo', 'descripcion', 'fecha', 'lugar', 'categoria_id'],
    texts: { titulo: 255, descripcion: 5000, lugar: 255 },
    failed: { create: 'un nuevo evento', update: 'el evento' },
    notFound: (id) => `No se encontró el evento con id: ${id}`,
    body: async (app) => eventoUrbanoBody((await createCategoria(app)).id),
  },
  {
    what: 'artist',
    path: '/artistas',
    key: 'dni',
    required: ['dni', 'nombre', 'apellido', 'tipo', 'descripcion'],
    texts: { nombre: 255, apellido: 255, tipo: 255, descripcion: 5000 },
    failed: { create: 'un nuevo artista', update: 'el artista' },
    notFound: (dni) => `No se encontró el artista con el dni: ${dni}`,
    body: async () => artistaBody(),
  },
  {
    what: 'category',
    path: '/categorias',
    key: 'id',
    required: ['nombre'],
    texts: { nombre: 255 },
    failed: { create: 'una nueva categoria', update: 'la categoria' },
    notFound: (id) => `No se encontró la categoría con id: ${id}`,
    body: async () => categoriaBody(),
  },
  {
    what: 'participation',
    path: '/participaciones',
    key: 'id',
    required: ['artistas_dni', 'tipo_evento', 'evento_id'],
    texts: {},
    failed: { create: 'una nueva participacion', update: 'la participacion' },
    notFound: (id) => `No se encontró la participación con id: ${id}`,
    body: async (app) => ({
      artistas_dni: (await createArtista(app)).dni,
      tipo_evento: 'pelicula',
      evento_id: (await createPelicula(app)).id,
    }),
  },
];

const scenario = (what: string): Scenario => {
  const found = scenarios.find((s) => s.what === what);
  assert.ok(found, what);
  return found;
};

const createMoreInfo = (s: Scenario) => `No se pudo ingresar ${s.failed.create} error en: ${s.path}`;
const updateMoreInfo = (s: Scenario, key: unknown) => `No se pudo actualizar ${s.failed.update} error en: ${s.path}/${key}`;

const FECHA_SENTENCE = "El campo 'fecha' debe ser una fecha válida (AAAA-MM-DD o fecha y hora ISO 8601).";
const BODY_NOT_OBJECT = 'El cuerpo de la petición debe ser un objeto JSON.';
const NOT_INTEGERS: unknown[] = [1.5, '1.5', true, false, 'abc', '', [], {}];

/** `body` without the named fields. */
const without = (body: Json, ...fields: string[]): Json =>
  Object.fromEntries(Object.entries(body).filter(([name]) => !fields.includes(name)));

/** A value of exactly `length` characters that no other record holds. */
const ofLength = (length: number) => unique('L').padEnd(length, 'x');

/** Both sentences, in either order, joined by one space. */
function bothSentences(a: string, b: string): RegExp {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^(?:${esc(a)} ${esc(b)}|${esc(b)} ${esc(a)})$`);
}

async function list(app: FastifyInstance, path: string): Promise<Json[]> {
  const res = await send(app, 'GET', path);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Json[]>();
}

async function count(app: FastifyInstance, path: string): Promise<number> {
  return (await list(app, path)).length;
}

/** The stored record with this key, as the list answers it. */
async function stored(app: FastifyInstance, s: Scenario, key: unknown): Promise<Json | undefined> {
  return (await list(app, s.path)).find((r) => r[s.key] === key);
}

async function create(app: FastifyInstance, s: Scenario, o: Json = {}): Promise<Json> {
  const res = await send(app, 'POST', s.path, { ...(await s.body(app)), ...o });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<Json>();
}

/** A valid replacement body for a PUT: new values, no key. */
async function updateBody(app: FastifyInstance, s: Scenario, o: Json = {}): Promise<Json> {
  const body = { ...(await s.body(app)), ...o };
  return s.key === 'dni' && !('dni' in o) ? without(body, 'dni') : body;
}

/** The record a valid body is answered as: event dates in their canonical form. */
function answered(body: Json, key: Json): Json {
  const record = { ...body, ...key };
  if (typeof record.fecha === 'string') record.fecha = canonicalFecha(record.fecha, 'UTC');
  return record;
}

function postRaw(app: FastifyInstance, url: string, payload: string) {
  return app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
}

describe('field rules', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(async () => {
    await app.close();
  });

  describe('required fields', () => {
    for (const s of scenarios) {
      for (const field of s.required) {
        it(`when a ${s.what} is created without '${field}', then it is a 400 naming the field and nothing is stored`, async () => {
          const body = without(await s.body(app), field);
          const before = await count(app, s.path);
          const res = await send(app, 'POST', s.path, body);
          assertError(res, 400, { details: `El campo '${field}' es obligatorio.`, moreInfo: createMoreInfo(s) });
          assert.equal(await count(app, s.path), before);
        });

        it(`when a ${s.what} is created with '${field}' null, then it counts as missing`, async () => {
          const body = { ...(await s.body(app)), [field]: null };
          const before = await count(app, s.path);
          const res = await send(app, 'POST', s.path, body);
          assertError(res, 400, { details: `El campo '${field}' es obligatorio.`, moreInfo: createMoreInfo(s) });
          assert.equal(await count(app, s.path), before);
        });

        if (field === s.key) continue;

        it(`when a ${s.what} is updated without '${field}', then it is a 400 and the record is unchanged`, async () => {
          const existing = await create(app, s);
          const key = existing[s.key];
          const body = without(await updateBody(app, s), field);
          const res = await send(app, 'PUT', `${s.path}/${key}`, body);
          assertError(res, 400, { details: `El campo '${field}' es obligatorio.`, moreInfo: updateMoreInfo(s, key) });
          assert.deepEqual(await stored(app, s, key), existing);
        });

        it(`when a ${s.what} is updated with '${field}' null, then it counts as missing`, async () => {
          const existing = await create(app, s);
          const key = existing[s.key];
          const body = await updateBody(app, s, { [field]: null });
          const res = await send(app, 'PUT', `${s.path}/${key}`, body);
          assertError(res, 400, { details: `El campo '${field}' es obligatorio.`, moreInfo: updateMoreInfo(s, key) });
          assert.deepEqual(await stored(app, s, key), existing);
        });
      }
    }

    it('when a movie is created without two fields, then details holds one sentence per field, joined by a space', async () => {
      const s = scenario('movie');
      const body = without(await s.body(app), 'titulo', 'duracion');
      const before = await count(app, s.path);
      const res = await send(app, 'POST', s.path, body);
      assertError(res, 400, {
        details: bothSentences("El campo 'titulo' es obligatorio.", "El campo 'duracion' es obligatorio."),
        moreInfo: createMoreInfo(s),
      });
      assert.equal(await count(app, s.path), before);
    });

    it('when an artist is created with an empty object, then every required field is named once', async () => {
      const s = scenario('artist');
      const before = await count(app, s.path);
      const res = await send(app, 'POST', s.path, {});
      assertError(res, 400, { moreInfo: createMoreInfo(s), details: /./ });
      const details = String(res.json<Json>().details);
      const expected = s.required.map((f) => `El campo '${f}' es obligatorio.`);
      assert.deepEqual(details.split(/(?<=\.) /).sort(), [...expected].sort());
      assert.equal(await count(app, s.path), before);
    });

    it('when a work is updated with one field missing and one null, then both sentences appear joined by a space', async () => {
      const s = scenario('work');
      const existing = await createObra(app);
      const body = without(await updateBody(app, s, { descripcion: null }), 'categoria_id');
      const res = await send(app, 'PUT', `/Obras/${existing.id}`, body);
      assertError(res, 400, {
        details: bothSentences("El campo 'descripcion' es obligatorio.", "El campo 'categoria_id' es obligatorio."),
        moreInfo: `No se pudo actualizar la obra error en: /Obras/${existing.id}`,
      });
      assert.deepEqual(await stored(app, s, existing.id), existing);
    });
  });

  describe('text fields', () => {
    it('when a movie is created with padded strings, then they are stored and answered trimmed', async () => {
      const categoria = await createCategoria(app);
      const titulo = unique('Roma');
      const res = await send(app, 'POST', '/peliculas', peliculaBody(categoria.id, { titulo: `  ${titulo}  `, sipnosis: '\t Una historia. \n' }));
      assert.equal(res.statusCode, 201, res.body);
      const created = res.json<Json>();
      assert.equal(created.titulo, titulo);
      assert.equal(created.sipnosis, 'Una historia.');
      const read = await send(app, 'GET', `/peliculas/${encodeURIComponent(titulo)}`);
      assert.equal(read.statusCode, 200, read.body);
      assert.deepEqual(read.json(), created);
      assert.deepEqual(await stored(app, scenario('movie'), created.id), created);
    });

    it("when a category is created as '  Roma  ', then it is stored and answered as 'Roma'", async () => {
      const s = scenario('category');
      const res = await send(app, 'POST', '/categorias', { nombre: '  Roma  ' });
      assert.equal(res.statusCode, 201, res.body);
      const created = res.json<Json>();
      assert.equal(created.nombre, 'Roma');
      assert.equal((await stored(app, s, created.id))?.nombre, 'Roma');
    });

    it('when an urban event and an artist are created with padded strings, then every string is stored trimmed', async () => {
      const evento = await createEventoUrbano(app, { descripcion: ' Un evento. ', lugar: '  Plaza Mayor  ' });
      assert.equal(evento.descripcion, 'Un evento.');
      assert.equal(evento.lugar, 'Plaza Mayor');
      assert.equal((await stored(app, scenario('urban event'), evento.id))?.lugar, 'Plaza Mayor');
      const artista = await createArtista(app, { nombre: ' Ana ', apellido: ' Pérez ', tipo: ' actriz ', descripcion: ' Bio. ' });
      assert.deepEqual(
        [artista.nombre, artista.apellido, artista.tipo, artista.descripcion],
        ['Ana', 'Pérez', 'actriz', 'Bio.'],
      );
      assert.deepEqual(await stored(app, scenario('artist'), artista.dni), artista);
    });

    it('when a work is updated with padded strings, then they are stored trimmed', async () => {
      const existing = await createObra(app);
      const titulo = unique('Obra nueva');
      const res = await send(app, 'PUT', `/Obras/${existing.id}`, {
        titulo: `   ${titulo} `,
        descripcion: '  Otra obra.  ',
        duracion: 80,
        categoria_id: existing.categoria_id,
      });
      assert.equal(res.statusCode, 200, res.body);
      const expected = { ...existing, titulo, descripcion: 'Otra obra.', duracion: 80 };
      assert.deepEqual(res.json(), expected);
      assert.deepEqual(await stored(app, scenario('work'), existing.id), expected);
    });

    it('when a title or name would be a "." or ".." path segment, which URLs resolve away, then it is a 400 and nothing is stored', async () => {
      for (const s of [scenario('movie'), scenario('work'), scenario('urban event'), scenario('category')]) {
        const field = s.path === '/categorias' ? 'nombre' : 'titulo';
        const before = await count(app, s.path);
        for (const value of ['.', '..', ' .. ']) {
          const res = await send(app, 'POST', s.path, { ...(await s.body(app)), [field]: value });
          assertError(res, 400, {
            details: `El campo '${field}' no puede ser '.' ni '..', que no se podrían consultar por la ruta.`,
            moreInfo: createMoreInfo(s),
          });
        }
        assert.equal(await count(app, s.path), before);
      }
      // Other titles made of dots are ordinary segments, and read back by their Location.
      const res = await send(app, 'POST', '/categorias', { nombre: `...${unique('')}` });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal((await send(app, 'GET', String(res.headers.location))).statusCode, 200);
    });

    it('when a lookup path holds U+0000, then it is a 400 naming the parameter', async () => {
      assertError(await send(app, 'GET', '/categorias/a%00b'), 400, {
        details: "El parámetro 'nombre' contiene un carácter no admitido (U+0000 o un sustituto UTF-16 aislado).",
      });
    });

    it('when a title is 255 characters between padding spaces, then the trimmed value is within the limit', async () => {
      const titulo = ofLength(255);
      const created = await createPelicula(app, { titulo: `  ${titulo}  ` });
      assert.equal(created.titulo, titulo);
    });

    for (const s of scenarios) {
      for (const [field, max] of Object.entries(s.texts)) {
        it(`when a ${s.what}'s '${field}' is only whitespace, then it is a 400 saying it cannot be empty`, async () => {
          const before = await count(app, s.path);
          const res = await send(app, 'POST', s.path, { ...(await s.body(app)), [field]: ' \t\n ' });
          assertError(res, 400, { details: `El campo '${field}' no puede estar vacío.`, moreInfo: createMoreInfo(s) });
          assert.equal(await count(app, s.path), before);
        });

        it(`when a ${s.what}'s '${field}' is the empty string, then it is a 400 saying it cannot be empty`, async () => {
          const before = await count(app, s.path);
          const res = await send(app, 'POST', s.path, { ...(await s.body(app)), [field]: '' });
          assertError(res, 400, { details: `El campo '${field}' no puede estar vacío.`, moreInfo: createMoreInfo(s) });
          assert.equal(await count(app, s.path), before);
        });

        it(`when a ${s.what}'s '${field}' has ${max} characters, then it is accepted and stored whole`, async () => {
          const value = ofLength(max);
          const created = await create(app, s, { [field]: value });
          assert.equal(created[field], value);
          assert.equal((await stored(app, s, created[s.key]))?.[field], value);
        });

        it(`when a ${s.what}'s '${field}' has ${max + 1} characters, then it is a 400 naming the limit`, async () => {
          const before = await count(app, s.path);
          const res = await send(app, 'POST', s.path, { ...(await s.body(app)), [field]: ofLength(max + 1) });
          assertError(res, 400, {
            details: `El campo '${field}' no puede tener más de ${max} caracteres.`,
            moreInfo: createMoreInfo(s),
          });
          assert.equal(await count(app, s.path), before);
        });

        it(`when a ${s.what}'s '${field}' holds U+0000 or a lone surrogate, which no store keeps as sent, then it is a 400 naming the field`, async () => {
          const before = await count(app, s.path);
          for (const value of ['a\u0000b', 'a\ud800b', '\udfff']) {
            const res = await send(app, 'POST', s.path, { ...(await s.body(app)), [field]: value });
            assertError(res, 400, {
              details: `El campo '${field}' contiene un carácter no admitido (U+0000 o un sustituto UTF-16 aislado).`,
              moreInfo: createMoreInfo(s),
            });
          }
          assert.equal(await count(app, s.path), before);
        });

        it(`when a ${s.what}'s '${field}' is a number, then it is a 400 saying it must be text`, async () => {
          const before = await count(app, s.path);
          const res = await send(app, 'POST', s.path, { ...(await s.body(app)), [field]: 42 });
          assertError(res, 400, { details: `El campo '${field}' debe ser un texto.`, moreInfo: createMoreInfo(s) });
          assert.equal(await count(app, s.path), before);
        });

        it(`when a ${s.what} is updated with '${field}' only whitespace, then it is a 400 and the record is unchanged`, async () => {
          const existing = await create(app, s);
          const key = existing[s.key];
          const res = await send(app, 'PUT', `${s.path}/${key}`, await updateBody(app, s, { [field]: '   ' }));
          assertError(res, 400, { details: `El campo '${field}' no puede estar vacío.`, moreInfo: updateMoreInfo(s, key) });
          assert.deepEqual(await stored(app, s, key), existing);
        });

        it(`when a ${s.what} is updated with '${field}' of ${max + 1} characters, then it is a 400 and the record is unchanged`, async () => {
          const existing = await create(app, s);
          const key = existing[s.key];
          const res = await send(app, 'PUT', `${s.path}/${key}`, await updateBody(app, s, { [field]: ofLength(max + 1) }));
          assertError(res, 400, {
            details: `El campo '${field}' no puede tener más de ${max} caracteres.`,
            moreInfo: updateMoreInfo(s, key),
          });
          assert.deepEqual(await stored(app, s, key), existing);
        });

        it(`when a ${s.what} is updated with '${field}' of ${max} characters, then it is stored whole`, async () => {
          const existing = await create(app, s);
          const key = existing[s.key];
          const value = ofLength(max);
          const res = await send(app, 'PUT', `${s.path}/${key}`, await updateBody(app, s, { [field]: value }));
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.json<Json>()[field], value);
          assert.equal((await stored(app, s, key))?.[field], value);
        });
      }
    }
  });

  describe('integer fields', () => {
    for (const what of ['movie', 'work']) {
      for (const duracion of [0, -1, 100001]) {
        it(`when a ${what}'s duracion is ${duracion}, then it is a 400 with the range sentence`, async () => {
          const s = scenario(what);
          const before = await count(app, s.path);
          const res = await send(app, 'POST', s.path, { ...(await s.body(app)), duracion });
          assertError(res, 400, { details: "El campo 'duracion' debe estar entre 1 y 100000.", moreInfo: createMoreInfo(s) });
          assert.equal(await count(app, s.path), before);
        });
      }

      for (const duracion of [1, 100000]) {
        it(`when a ${what}'s duracion is ${duracion}, then it is accepted`, async () => {
          const s = scenario(what);
          const created = await create(app, s, { duracion });
          assert.equal(created.duracion, duracion);
        });
      }
    }

    it('when a movie is updated with duracion 100001, then it is a 400 and the record is unchanged', async () => {
      const s = scenario('movie');
      const existing = await createPelicula(app);
      const res = await send(app, 'PUT', `/peliculas/${existing.id}`, await updateBody(app, s, { duracion: 100001 }));
      assertError(res, 400, {
        details: "El campo 'duracion' debe estar entre 1 y 100000.",
        moreInfo: `No se pudo actualizar la pelicula error en: /peliculas/${existing.id}`,
      });
      assert.deepEqual(await stored(app, s, existing.id), existing);
    });

    it('when a movie\'s duracion is the string "90", then it is stored and answered as the number 90', async () => {
      const s = scenario('movie');
      const created = await create(app, s, { duracion: '90' });
      assert.equal(created.duracion, 90);
      assert.equal((await stored(app, s, created.id))?.duracion, 90);
    });

    it('when a work is updated with duracion "120" and categoria_id as digits, then both are stored as numbers', async () => {
      const s = scenario('work');
      const existing = await createObra(app);
      const categoria = await createCategoria(app);
      const res = await send(app, 'PUT', `/Obras/${existing.id}`, {
        titulo: existing.titulo,
        descripcion: existing.descripcion,
        duracion: '120',
        categoria_id: String(categoria.id),
      });
      assert.equal(res.statusCode, 200, res.body);
      const expected = { ...existing, duracion: 120, categoria_id: categoria.id };
      assert.deepEqual(res.json(), expected);
      assert.deepEqual(await stored(app, s, existing.id), expected);
    });

    it('when a participation gives its artist and item as digit strings, then they are stored as numbers', async () => {
      const s = scenario('participation');
      const artista = await createArtista(app);
      const pelicula = await createPelicula(app);
      const created = await create(app, s, { artistas_dni: String(artista.dni), evento_id: String(pelicula.id) });
      assert.equal(created.artistas_dni, artista.dni);
      assert.equal(created.evento_id, pelicula.id);
      assert.deepEqual(await stored(app, s, created.id), created);
    });

    const integerCases: [string, string][] = [
      ['movie', 'duracion'],
      ['work', 'categoria_id'],
      ['urban event', 'categoria_id'],
      ['participation', 'evento_id'],
      ['participation', 'artistas_dni'],
      ['artist', 'dni'],
    ];
    for (const [what, field] of integerCases) {
      for (const value of NOT_INTEGERS) {
        it(`when a ${what}'s ${field} is ${JSON.stringify(value)}, then it is a 400 saying it must be an integer`, async () => {
          const s = scenario(what);
          const before = await count(app, s.path);
          const res = await send(app, 'POST', s.path, { ...(await s.body(app)), [field]: value });
          assertError(res, 400, { details: `El campo '${field}' debe ser un número entero.`, moreInfo: createMoreInfo(s) });
          assert.equal(await count(app, s.path), before);
        });
      }
    }

    for (const value of NOT_INTEGERS) {
      it(`when a movie is updated with duracion ${JSON.stringify(value)}, then it is a 400 and the record is unchanged`, async () => {
        const s = scenario('movie');
        const existing = await createPelicula(app);
        const res = await send(app, 'PUT', `/peliculas/${existing.id}`, await updateBody(app, s, { duracion: value }));
        assertError(res, 400, {
          details: "El campo 'duracion' debe ser un número entero.",
          moreInfo: `No se pudo actualizar la pelicula error en: /peliculas/${existing.id}`,
        });
        assert.deepEqual(await stored(app, s, existing.id), existing);
      });
    }

    const idCases: [string, string][] = [
      ['movie', 'categoria_id'],
      ['work', 'categoria_id'],
      ['urban event', 'categoria_id'],
      ['participation', 'evento_id'],
    ];
    for (const [what, field] of idCases) {
      for (const value of [0, 2147483648]) {
        it(`when a ${what}'s ${field} is ${value}, then it is a 400 with the 32-bit range sentence`, async () => {
          const s = scenario(what);
          const before = await count(app, s.path);
          const res = await send(app, 'POST', s.path, { ...(await s.body(app)), [field]: value });
          assertError(res, 400, { details: `El campo '${field}' debe estar entre 1 y 2147483647.`, moreInfo: createMoreInfo(s) });
          assert.equal(await count(app, s.path), before);
        });
      }
    }

    it('when a category is updated with a body id of 0, then it is a 400 with the range sentence', async () => {
      const s = scenario('category');
      const existing = await createCategoria(app);
      const res = await send(app, 'PUT', `/categorias/${existing.id}`, { id: 0, nombre: unique('Otra') });
      assertError(res, 400, {
        details: "El campo 'id' debe estar entre 1 y 2147483647.",
        moreInfo: `No se pudo actualizar la categoria error en: /categorias/${existing.id}`,
      });
      assert.deepEqual(await stored(app, s, existing.id), existing);
    });
  });

  describe('artist dni', () => {
    const s = scenario('artist');

    it('when the dni is 9007199254740991, then it is accepted and answered exactly', async () => {
      const res = await send(app, 'POST', '/artistas', artistaBody({ dni: 9007199254740991 }));
      assert.equal(res.statusCode, 201, res.body);
      assert.match(res.body, /"dni":9007199254740991[,}]/);
      assert.equal(res.json<Json>().dni, 9007199254740991);
      const read = await send(app, 'GET', '/artistas/9007199254740991');
      assert.equal(read.statusCode, 200, read.body);
      assert.match(read.body, /"dni":9007199254740991[,}]/);
      assert.ok(await stored(app, s, 9007199254740991));
    });

    it('when the dni is 9007199254740992, then it is a 400 and nothing is stored', async () => {
      const before = await list(app, '/artistas');
      const res = await send(app, 'POST', '/artistas', artistaBody({ dni: 9007199254740992 }));
      assertError(res, 400, {
        details: "El campo 'dni' debe estar entre 1 y 9007199254740991.",
        moreInfo: 'No se pudo ingresar un nuevo artista error en: /artistas',
      });
      assert.deepEqual(await list(app, '/artistas'), before);
    });

    it('when the dni is 2^53+1 in the raw JSON text, then it is a 400 and never rounded or stored', async () => {
      const before = await list(app, '/artistas');
      const res = await postRaw(
        app,
        '/artistas',
        '{"dni":9007199254740993,"nombre":"Ana","apellido":"Pérez","tipo":"actriz","descripcion":"Actriz."}',
      );
      assertError(res, 400, {
        details: "El campo 'dni' debe estar entre 1 y 9007199254740991.",
        moreInfo: 'No se pudo ingresar un nuevo artista error en: /artistas',
      });
      const after = await list(app, '/artistas');
      assert.deepEqual(after, before);
      assert.ok(after.every((a) => Number(a.dni) <= Number.MAX_SAFE_INTEGER));
    });

    it('when the raw JSON dni has a fraction a double cannot hold, then it is a 400 and nothing is rounded or stored', async () => {
      const before = await list(app, '/artistas');
      const res = await postRaw(
        app,
        '/artistas',
        '{"dni":9007199254740990.5,"nombre":"Ana","apellido":"Pérez","tipo":"actriz","descripcion":"Actriz."}',
      );
      assertError(res, 400, {
        details: "El campo 'dni' debe ser un número entero.",
        moreInfo: 'No se pudo ingresar un nuevo artista error en: /artistas',
      });
      assert.deepEqual(await list(app, '/artistas'), before);
    });

    it('when the dni is a digit string beyond 2^53-1, then it is a 400 and nothing is stored', async () => {
      const before = await list(app, '/artistas');
      const res = await send(app, 'POST', '/artistas', artistaBody({ dni: '9007199254740993' }));
      assertError(res, 400, {
        details: "El campo 'dni' debe estar entre 1 y 9007199254740991.",
        moreInfo: 'No se pudo ingresar un nuevo artista error en: /artistas',
      });
      assert.deepEqual(await list(app, '/artistas'), before);
    });

    for (const dni of [0, -1, -30111222]) {
      it(`when the dni is ${dni}, then it is a 400 and nothing is stored`, async () => {
        const before = await list(app, '/artistas');
        const res = await send(app, 'POST', '/artistas', artistaBody({ dni }));
        assertError(res, 400, {
          details: "El campo 'dni' debe estar entre 1 y 9007199254740991.",
          moreInfo: 'No se pudo ingresar un nuevo artista error en: /artistas',
        });
        assert.deepEqual(await list(app, '/artistas'), before);
      });
    }

    it('when the dni is the string "30111222", then it is stored and answered as the number', async () => {
      const res = await send(app, 'POST', '/artistas', artistaBody({ dni: '30111222' }));
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json<Json>().dni, 30111222);
      assert.equal(res.headers.location, '/artistas/30111222');
      assert.equal((await stored(app, s, 30111222))?.dni, 30111222);
    });

    it('when a participation names an artist dni beyond 2^53-1, then it is a 400 with the range sentence', async () => {
      const p = scenario('participation');
      const before = await count(app, p.path);
      const res = await send(app, 'POST', p.path, { ...(await p.body(app)), artistas_dni: 9007199254740992 });
      assertError(res, 400, {
        details: "El campo 'artistas_dni' debe estar entre 1 y 9007199254740991.",
        moreInfo: createMoreInfo(p),
      });
      assert.equal(await count(app, p.path), before);
    });
  });

  describe('fecha', () => {
    const s = scenario('urban event');
    const accepted: [string, string][] = [
      ['2025-10-10', '2025-10-10T00:00:00.000+00:00'],
      ['2025-10-10T15:30:00', '2025-10-10T15:30:00.000+00:00'],
      ['2025-10-10T15:30:00-03:00', '2025-10-10T18:30:00.000+00:00'],
      ['2025-10-10T01:00:00.5+02:00', '2025-10-09T23:00:00.500+00:00'],
      ['2025-10-10T15:30:00Z', '2025-10-10T15:30:00.000+00:00'],
      ['2024-02-29', '2024-02-29T00:00:00.000+00:00'],
      ['2025-10-10T00:00:00.000+00:00', '2025-10-10T00:00:00.000+00:00'],
      ['0001-01-01', '0001-01-01T00:00:00.000+00:00'],
    ];
    for (const [sent, answered] of accepted) {
      it(`when an event's fecha is '${sent}', then it is answered as '${answered}'`, async () => {
        const created = await create(app, s, { fecha: sent });
        assert.equal(created.fecha, answered);
        const read = await send(app, 'GET', `/eventosUrbanos/${encodeURIComponent(String(created.titulo))}`);
        assert.equal(read.statusCode, 200, read.body);
        assert.equal(read.json<Json>().fecha, answered);
        assert.equal((await stored(app, s, created.id))?.fecha, answered);
      });
    }

    const refused = [
      '2025-02-30',
      '2025-13-01',
      '2024-02-30',
      '2023-02-29',
      '2025-02-30T00:00:00.000+00:00',
      '2025-10-10T24:00:00',
      'mañana',
      '10/10/2025',
      '',
      // Year 0 and earlier: PostgreSQL has no year 0 and writes BC instants in a form no client sends.
      '0000-01-01',
      '0000-12-31T23:59:59Z',
      '0001-01-01T00:00:00+00:01',
    ];
    for (const fecha of refused) {
      it(`when an event's fecha is '${fecha}', then it is a 400 with the fecha sentence and nothing is stored`, async () => {
        const before = await count(app, s.path);
        const res = await send(app, 'POST', s.path, { ...(await s.body(app)), fecha });
        assertError(res, 400, { details: FECHA_SENTENCE, moreInfo: createMoreInfo(s) });
        assert.equal(await count(app, s.path), before);
      });
    }

    it('when an event is updated with a date-time with offset, then it is stored in UTC', async () => {
      const existing = await createEventoUrbano(app);
      const res = await send(app, 'PUT', `/eventosUrbanos/${existing.id}`, {
        titulo: existing.titulo,
        descripcion: existing.descripcion,
        fecha: '2025-10-10T15:30:00-03:00',
        lugar: existing.lugar,
        categoria_id: existing.categoria_id,
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json<Json>().fecha, '2025-10-10T18:30:00.000+00:00');
      assert.equal((await stored(app, s, existing.id))?.fecha, '2025-10-10T18:30:00.000+00:00');
    });

    it('when an event is updated with an impossible date, then it is a 400 and the record is unchanged', async () => {
      const existing = await createEventoUrbano(app);
      const res = await send(app, 'PUT', `/eventosUrbanos/${existing.id}`, await updateBody(app, s, { fecha: '2025-02-30' }));
      assertError(res, 400, {
        details: FECHA_SENTENCE,
        moreInfo: `No se pudo actualizar el evento error en: /eventosUrbanos/${existing.id}`,
      });
      assert.deepEqual(await stored(app, s, existing.id), existing);
    });

    it('when an event\'s fecha is a number, then it is a 400 saying it must be text', async () => {
      const before = await count(app, s.path);
      const res = await send(app, 'POST', s.path, { ...(await s.body(app)), fecha: 20251010 });
      assertError(res, 400, { details: "El campo 'fecha' debe ser un texto.", moreInfo: createMoreInfo(s) });
      assert.equal(await count(app, s.path), before);
    });
  });

  describe('canonicalFecha', () => {
    const cases: [string, string | undefined][] = [
      ['2024-02-29', '2024-02-29T00:00:00.000+00:00'],
      ['2023-02-29', undefined],
      ['2025-04-31', undefined],
      ['2025-12-31T23:30:00-01:00', '2026-01-01T00:30:00.000+00:00'],
      ['2026-01-01T00:30:00+01:00', '2025-12-31T23:30:00.000+00:00'],
      ['2025-10-10T10:00Z', '2025-10-10T10:00:00.000+00:00'],
      ['2025-10-10T10:00:00.123456789Z', '2025-10-10T10:00:00.123+00:00'],
      ['2025-10-10T10:00:00+0530', '2025-10-10T04:30:00.000+00:00'],
      ['2025-10-10T24:00:00', undefined],
      ['2025-10-10T10:60:00', undefined],
      ['2025-10-10T10:00:00+24:00', undefined],
      ['0000-01-01T00:30:00+01:00', undefined],
      ['0000-06-15', undefined],
      ['0001-01-01T00:30:00+01:00', undefined],
      ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000+00:00'],
      ['2025-10-10 10:00:00', undefined],
      ['', undefined],
    ];
    for (const [value, expected] of cases) {
      it(`when canonicalFecha is given '${value}', then it answers ${expected === undefined ? 'undefined' : `'${expected}'`}`, () => {
        assert.equal(canonicalFecha(value, 'UTC'), expected);
      });
    }
  });

  describe('tipo_evento', () => {
    const s = scenario('participation');
    for (const tipo_evento of ['película', 'Pelicula', 'evento', 'peliculas', '']) {
      it(`when a participation's tipo_evento is '${tipo_evento}', then it is a 400 listing the allowed kinds`, async () => {
        const before = await count(app, s.path);
        const res = await send(app, 'POST', s.path, { ...(await s.body(app)), tipo_evento });
        assertError(res, 400, {
          details: "El campo 'tipo_evento' debe ser uno de: pelicula, obra, eventoUrbano.",
          moreInfo: createMoreInfo(s),
        });
        assert.equal(await count(app, s.path), before);
      });
    }

    it('when a participation is updated with an unknown tipo_evento, then it is a 400 and the record is unchanged', async () => {
      const existing = await create(app, s);
      const res = await send(app, 'PUT', `/participaciones/${existing.id}`, await updateBody(app, s, { tipo_evento: 'concierto' }));
      assertError(res, 400, {
        details: "El campo 'tipo_evento' debe ser uno de: pelicula, obra, eventoUrbano.",
        moreInfo: `No se pudo actualizar la participacion error en: /participaciones/${existing.id}`,
      });
      assert.deepEqual(await stored(app, s, existing.id), existing);
    });
  });

  describe('unknown fields', () => {
    it('when a movie is created with extra and id fields, then they are ignored and never echoed', async () => {
      const s = scenario('movie');
      const body = { ...(await s.body(app)), extra: 'x', id: 999 };
      const res = await send(app, 'POST', '/peliculas', body);
      assert.equal(res.statusCode, 201, res.body);
      const created = res.json<Json>();
      assert.deepEqual(Object.keys(created).sort(), ['categoria_id', 'duracion', 'id', 'sipnosis', 'titulo']);
      assert.notEqual(created.id, 999);
      assert.equal(res.body.includes('extra'), false);
      const listed = await stored(app, s, created.id);
      assert.deepEqual(listed, created);
      assert.equal(await stored(app, s, 999), undefined);
    });

    it('when a movie is created with its internal comparable column in the body, then it is ignored and the lookup still works', async () => {
      const s = scenario('movie');
      const body: Json = { ...(await s.body(app)), titulo_clave: 'otra cosa' };
      const res = await send(app, 'POST', '/peliculas', body);
      assert.equal(res.statusCode, 201, res.body);
      assert.equal('titulo_clave' in res.json<Json>(), false);
      const read = await send(app, 'GET', `/peliculas/${encodeURIComponent(String(body.titulo))}`);
      assert.equal(read.statusCode, 200, read.body);
      assert.deepEqual(read.json(), res.json());
    });

    it('when a category and an artist are created with unknown fields, then the stored records hold only their own', async () => {
      const categoria = await send(app, 'POST', '/categorias', categoriaBody({ extra: 'x', id: 999, color: 'rojo' }));
      assert.equal(categoria.statusCode, 201, categoria.body);
      assert.deepEqual(Object.keys(categoria.json<Json>()).sort(), ['id', 'nombre']);
      assert.deepEqual(Object.keys((await stored(app, scenario('category'), categoria.json<Json>().id)) ?? {}).sort(), ['id', 'nombre']);
      const artista = await send(app, 'POST', '/artistas', artistaBody({ extra: 'x', edad: 40 }));
      assert.equal(artista.statusCode, 201, artista.body);
      assert.deepEqual(Object.keys(artista.json<Json>()).sort(), ['apellido', 'descripcion', 'dni', 'nombre', 'tipo']);
    });

    it('when a work is updated with unknown fields, then they are ignored and never echoed', async () => {
      const s = scenario('work');
      const existing = await createObra(app);
      const res = await send(app, 'PUT', `/Obras/${existing.id}`, await updateBody(app, s, { extra: 'x' }));
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(Object.keys(res.json<Json>()).sort(), ['categoria_id', 'descripcion', 'duracion', 'id', 'titulo']);
      assert.deepEqual(await stored(app, s, existing.id), res.json());
    });
  });

  describe('body not an object', () => {
    const payloads: [string, string][] = [
      ['a JSON array', '[{"titulo":"Roma"}]'],
      ['a JSON string', '"Roma"'],
      ['a JSON number', '42'],
    ];
    for (const [label, payload] of payloads) {
      it(`when a movie create body is ${label}, then it is a 400 saying the body must be an object`, async () => {
        const before = await count(app, '/peliculas');
        const res = await postRaw(app, '/peliculas', payload);
        assertError(res, 400, { details: BODY_NOT_OBJECT, moreInfo: 'No se pudo ingresar una pelicula categoria error en: /peliculas' });
        assert.equal(await count(app, '/peliculas'), before);
      });
    }

    it('when a category update body is a JSON array, then it is a 400 and the record is unchanged', async () => {
      const existing = await createCategoria(app);
      const res = await app.inject({
        method: 'PUT',
        url: `/categorias/${existing.id}`,
        headers: { 'content-type': 'application/json' },
        payload: '["Otra"]',
      });
      assertError(res, 400, {
        details: BODY_NOT_OBJECT,
        moreInfo: `No se pudo actualizar la categoria error en: /categorias/${existing.id}`,
      });
      assert.deepEqual(await stored(app, scenario('category'), existing.id), existing);
    });
  });

  describe('updates', () => {
    for (const s of scenarios) {
      it(`when a ${s.what} is replaced with a valid body, then every field takes the new value`, async () => {
        const existing = await create(app, s);
        const key = existing[s.key];
        const body = await updateBody(app, s);
        const res = await send(app, 'PUT', `${s.path}/${key}`, body);
        assert.equal(res.statusCode, 200, res.body);
        const expected = answered(body, { [s.key]: key });
        assert.deepEqual(res.json(), expected);
        assert.deepEqual(await stored(app, s, key), expected);
      });

      it(`when a ${s.what} update body carries the path's ${s.key}, then it is a 200`, async () => {
        const existing = await create(app, s);
        const key = existing[s.key];
        const body = { ...(await updateBody(app, s)), [s.key]: key };
        const res = await send(app, 'PUT', `${s.path}/${key}`, body);
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), answered(body, {}));
        assert.deepEqual(await stored(app, s, key), answered(body, {}));
      });

      it(`when a ${s.what} update body carries a different ${s.key}, then it is a 400 and the record is unchanged`, async () => {
        const existing = await create(app, s);
        const key = Number(existing[s.key]);
        const other = key + 1000;
        const res = await send(app, 'PUT', `${s.path}/${key}`, { ...(await updateBody(app, s)), [s.key]: other });
        assertError(res, 400, {
          details: `El campo '${s.key}' (${other}) no coincide con el de la ruta (${key}).`,
          moreInfo: updateMoreInfo(s, key),
        });
        assert.deepEqual(await stored(app, s, key), existing);
        assert.equal(await stored(app, s, other), undefined);
      });

      it(`when a ${s.what} that does not exist is updated, then it is a 404 naming the ${s.key}`, async () => {
        const missing = 2147480000;
        const before = await count(app, s.path);
        const res = await send(app, 'PUT', `${s.path}/${missing}`, await updateBody(app, s));
        assertError(res, 404, { details: s.notFound(missing), moreInfo: `No se encontró en la ruta: ${s.path}/${missing}` });
        assert.equal(await count(app, s.path), before);
        assert.equal(await stored(app, s, missing), undefined);
      });

      const param = `El parámetro '${s.key}'`;
      const range = s.key === 'id' ? '1 y 2147483647' : '1 y 9007199254740991';
      const badPaths: [string, string][] = [
        ['abc', `${param} debe ser un número entero.`],
        ['1.5', `${param} debe ser un número entero.`],
        ['0', `${param} debe estar entre ${range}.`],
      ];
      for (const [segment, details] of badPaths) {
        it(`when a ${s.what} is updated at path ${s.key} '${segment}', then it is a 400 naming the parameter`, async () => {
          const before = await list(app, s.path);
          const res = await send(app, 'PUT', `${s.path}/${segment}`, await updateBody(app, s));
          assertError(res, 400, { details, moreInfo: updateMoreInfo(s, segment) });
          assert.deepEqual(await list(app, s.path), before);
        });
      }
    }

    it("when an artist's PUT carries another artist's dni, then it is a 400 and neither artist changes", async () => {
      const s = scenario('artist');
      const first = await createArtista(app);
      const second = await createArtista(app);
      const res = await send(app, 'PUT', `/artistas/${first.dni}`, artistaBody({ dni: second.dni, nombre: 'Otro' }));
      assertError(res, 400, {
        details: `El campo 'dni' (${second.dni}) no coincide con el de la ruta (${first.dni}).`,
        moreInfo: `No se pudo actualizar el artista error en: /artistas/${first.dni}`,
      });
      assert.deepEqual(await stored(app, s, first.dni), first);
      assert.deepEqual(await stored(app, s, second.dni), second);
    });

    it('when a movie PUT body id is the path id as a digit string, then it is a 200', async () => {
      const s = scenario('movie');
      const existing = await createPelicula(app);
      const res = await send(app, 'PUT', `/peliculas/${existing.id}`, await updateBody(app, s, { id: String(existing.id) }));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json<Json>().id, existing.id);
    });

    it('when a movie is updated at path id 2147483648, then it is a 400 naming the parameter', async () => {
      const s = scenario('movie');
      const res = await send(app, 'PUT', '/peliculas/2147483648', await updateBody(app, s));
      assertError(res, 400, {
        details: "El parámetro 'id' debe estar entre 1 y 2147483647.",
        moreInfo: 'No se pudo actualizar la pelicula error en: /peliculas/2147483648',
      });
    });
  });
});
