import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import {
  artistaBody, buildTestApp, createArtista, createCategoria, createObra, createPelicula, DELETE_TIMESTAMP,
  eventoUrbanoBody, obraBody, peliculaBody, send, unique, type Json,
} from '../helpers.js';

/**
 * The five operations of every resource, one table row per resource: what a valid body looks
 * like, how the record is answered, how it is looked up, and the Spanish sentence of its delete.
 */
interface ResourceCase {
  path: string;
  /** Field names in the order the spec lists them, which is the order answered. */
  fields: string[];
  key: 'id' | 'dni';
  /** A valid create body; creates what it refers to. */
  body(app: FastifyInstance): Promise<Json>;
  /** The record as answered for `body` (without a service-assigned id). */
  answered(body: Json): Json;
  /** A valid replacement for PUT; creates what it refers to. */
  changed(body: Json, app: FastifyInstance): Json | Promise<Json>;
  lookup(record: Json): string;
  location(record: Json): string;
  deleted(key: number): string;
}

const sameAs = (body: Json) => body;
const encoded = (path: string, value: unknown) => `${path}/${encodeURIComponent(String(value))}`;

const cases: ResourceCase[] = [
  {
    path: '/categorias',
    fields: ['id', 'nombre'],
    key: 'id',
    body: async () => ({ nombre: unique('Cine de autor') }),
    answered: sameAs,
    changed: (b) => ({ nombre: `${b.nombre} (renombrada)` }),
    lookup: (r) => encoded('/categorias', r.nombre),
    location: (r) => encoded('/categorias', r.nombre),
    deleted: (id) => `la categoría con el id: ${id}. fue eliminada correctamente.`,
  },
  {
    path: '/peliculas',
    fields: ['id', 'titulo', 'sipnosis', 'duracion', 'categoria_id'],
    key: 'id',
    body: async (app) => peliculaBody((await createCategoria(app)).id),
    answered: sameAs,
    changed: (b) => ({ ...b, sipnosis: 'Otra sinopsis.', duracion: 121 }),
    lookup: (r) => encoded('/peliculas', r.titulo),
    location: (r) => encoded('/peliculas', r.titulo),
    deleted: (id) => `la pelicula con el id: ${id}. fue eliminada correctamente.`,
  },
  {
    path: '/Obras',
    fields: ['id', 'titulo', 'descripcion', 'duracion', 'categoria_id'],
    key: 'id',
    body: async (app) => obraBody((await createCategoria(app)).id),
    answered: sameAs,
    changed: (b) => ({ ...b, descripcion: 'Nueva puesta en escena.', duracion: 95 }),
    lookup: (r) => encoded('/Obras', r.titulo),
    location: (r) => encoded('/Obras', r.titulo),
    deleted: (id) => `la obra con el id: ${id}. fue eliminada correctamente.`,
  },
  {
    path: '/eventosUrbanos',
    fields: ['id', 'titulo', 'descripcion', 'fecha', 'lugar', 'categoria_id'],
    key: 'id',
    body: async (app) => eventoUrbanoBody((await createCategoria(app)).id, { fecha: '2025-10-10' }),
    // A plain date is answered as midnight UTC.
    answered: (b) => ({ ...b, fecha: String(b.fecha).length === 10 ? `${b.fecha}T00:00:00.000+00:00` : b.fecha }),
    changed: (b) => ({ ...b, lugar: 'Parque Central', fecha: '2026-01-31T20:00:00.000+00:00' }),
    lookup: (r) => encoded('/eventosUrbanos', r.titulo),
    location: (r) => encoded('/eventosUrbanos', r.titulo),
    deleted: (id) => `el evento con el id: ${id}. fue eliminado correctamente.`,
  },
  {
    path: '/artistas',
    fields: ['dni', 'nombre', 'apellido', 'tipo', 'descripcion'],
    key: 'dni',
    body: async () => artistaBody(),
    answered: sameAs,
    changed: (b) => ({ ...b, tipo: 'directora', descripcion: 'Dirige cine y teatro.' }),
    lookup: (r) => `/artistas/${r.dni}`,
    location: (r) => `/artistas/${r.dni}`,
    deleted: (dni) => `el artista con el id: ${dni}. fue eliminado correctamente.`,
  },
  {
    path: '/participaciones',
    fields: ['id', 'artistas_dni', 'tipo_evento', 'evento_id'],
    key: 'id',
    body: async (app) => ({
      artistas_dni: (await createArtista(app)).dni,
      tipo_evento: 'pelicula',
      evento_id: (await createPelicula(app)).id,
    }),
    answered: sameAs,
    changed: async (b, app) => ({ ...b, tipo_evento: 'obra', evento_id: (await createObra(app)).id }),
    lookup: (r) => `/participaciones/${r.tipo_evento}`,
    location: (r) => `/participaciones?id=${r.id}`,
    deleted: (id) => `la participación con el id: ${id}. fue eliminada correctamente.`,
  },
];

describe('the five operations of every resource', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  for (const c of cases) {
    describe(c.path, () => {
      it('when a record is created, then the answer is 201 with the stored record and a Location that reads it back', async () => {
        const body = await c.body(app);
        const res = await send(app, 'POST', c.path, body);
        assert.equal(res.statusCode, 201, res.body);
        const record = res.json<Json>();
        assert.deepEqual(Object.keys(record), c.fields);
        assert.deepEqual(record, { ...(c.key === 'id' ? { id: record.id } : {}), ...c.answered(body) });
        if (c.key === 'id') assert.ok(Number.isInteger(record.id) && (record.id as number) > 0);
        assert.equal(res.headers.location, c.location(record));
        if (c.path !== '/participaciones') {
          const readBack = await send(app, 'GET', String(res.headers.location));
          assert.equal(readBack.statusCode, 200);
          assert.deepEqual(readBack.json(), record);
        }
      });

      it('when the list is read, then it is a JSON array of every record, ordered by key', async () => {
        const first = (await send(app, 'POST', c.path, await c.body(app))).json<Json>();
        const second = (await send(app, 'POST', c.path, await c.body(app))).json<Json>();
        const res = await send(app, 'GET', c.path);
        assert.equal(res.statusCode, 200);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        const list = res.json<Json[]>();
        assert.ok(Array.isArray(list));
        for (const item of list) assert.deepEqual(Object.keys(item), c.fields);
        const keys = list.map((r) => r[c.key] as number);
        assert.deepEqual(keys, [...keys].sort((a, b) => a - b));
        assert.deepEqual(list.filter((r) => r[c.key] === first[c.key] || r[c.key] === second[c.key]), [first, second]);
      });

      it('when a record is looked up by its lookup value, then it is answered alone', async () => {
        const record = (await send(app, 'POST', c.path, await c.body(app))).json<Json>();
        const res = await send(app, 'GET', c.lookup(record));
        assert.equal(res.statusCode, 200);
        const found = res.json<Json>();
        assert.deepEqual(Object.keys(found), c.fields);
        // The participation lookup answers the lowest id of the kind, which may be an older one.
        if (c.path === '/participaciones') assert.equal(found.tipo_evento, record.tipo_evento);
        else assert.deepEqual(found, record);
      });

      it('when a record is replaced, then the answer is 200 with the updated record, and it is stored', async () => {
        const body = await c.body(app);
        const record = (await send(app, 'POST', c.path, body)).json<Json>();
        const key = record[c.key] as number;
        const replacement = await c.changed(body, app);
        const res = await send(app, 'PUT', `${c.path}/${key}`, replacement);
        assert.equal(res.statusCode, 200, res.body);
        const updated = res.json<Json>();
        assert.deepEqual(Object.keys(updated), c.fields);
        assert.deepEqual(updated, { [c.key]: key, ...c.answered(replacement) });
        const list = (await send(app, 'GET', c.path)).json<Json[]>();
        assert.deepEqual(list.find((r) => r[c.key] === key), updated);
      });

      it('when a record is deleted, then the spec delete body names it, and it is gone', async () => {
        const record = (await send(app, 'POST', c.path, await c.body(app))).json<Json>();
        const key = record[c.key] as number;
        const res = await send(app, 'DELETE', `${c.path}/${key}`);
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json<Json>();
        assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'location', 'timestamp', 'type']);
        assert.equal(body.type, 'Success');
        assert.equal(body.code, '200');
        assert.equal(body.details, c.deleted(key));
        assert.equal(body.location, `${c.path}/${key}`);
        assert.match(String(body.timestamp), DELETE_TIMESTAMP);
        const list = (await send(app, 'GET', c.path)).json<Json[]>();
        assert.equal(list.some((r) => r[c.key] === key), false);
        assert.equal((await send(app, 'DELETE', `${c.path}/${key}`)).statusCode, 404);
      });

      it('when the list is asked for with HEAD, then the headers come without a body', async () => {
        const res = await send(app, 'HEAD', c.path);
        assert.equal(res.statusCode, 200);
        assert.equal(res.body, '');
      });
    });
  }
});
