import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { backend, freshStore } from './stores.js';

/**
 * The service exactly as `npm start` builds it, with the settings in `env`, on a private store of
 * this run's backend (in-memory SQLite, or a fresh PostgreSQL database dropped when the app closes),
 * or on the store `env.DATABASE_URL` names, which the caller owns.
 */
export async function buildTestApp(testEnv: Record<string, string> = {}): Promise<FastifyInstance> {
  // TEST_LOG_LEVEL=error shows the service's own log while debugging a test. Load shedding is off
  // unless a test sets it: the tests' own heavy work shares the app's event loop.
  const env = { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0', ...testEnv };
  if (backend === 'sqlite' || testEnv.DATABASE_URL) return buildApp(loadConfig({ DATABASE_URL: 'sqlite::memory:', ...env }));
  const store = await freshStore();
  const app = await buildApp(loadConfig({ DATABASE_URL: store.url, ...env }));
  app.addHook('onClose', () => store.drop());
  return app;
}

/** Runs `test` on an app of its own (as buildTestApp makes it), closed afterwards whatever happens. */
export async function withApp(test: (app: FastifyInstance) => Promise<void>): Promise<void> {
  const app = await buildTestApp();
  try {
    await test(app);
  } finally {
    await app.close();
  }
}

export type Json = Record<string, unknown>;

/** A multipart/form-data body for `inject`: the text parts, and a file in `part` (default `archivo`). */
export async function multipart(fields: Json, file?: Buffer, part = 'archivo', filename = 'foto.bin') {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, String(value));
  if (file) body.append(part, new Blob([file]), filename);
  const request = new Request('http://localhost/', { method: 'POST', body });
  return { headers: { 'content-type': request.headers.get('content-type') ?? '' }, payload: Buffer.from(await request.arrayBuffer()) };
}

export function send(app: FastifyInstance, method: InjectOptions['method'], url: string, payload?: unknown) {
  return app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }) });
}

/** `YYYY-MM-DDTHH:MM:SS.mmm`, local time: the error body's timestamp. */
export const ERROR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;
/** `YYYY-MM-DDTHH:MM:SS`, local time: the delete body's timestamp. */
export const DELETE_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/** Asserts the spec's error body, exactly: its six fields and nothing else. */
export function assertError(
  res: LightMyRequestResponse,
  status: number,
  expected: { details: string | RegExp; moreInfo?: string | RegExp },
): void {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json<Json>();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'location', 'moreInfo', 'timestamp', 'type']);
  const path = new URL(res.raw.req.url ?? '/', 'http://x').pathname;
  assert.equal(body.type, 'error');
  assert.equal(body.code, String(status));
  assert.equal(body.location, `uri=${path}`);
  assert.match(String(body.timestamp), ERROR_TIMESTAMP);
  matches(String(body.details), expected.details);
  if (expected.moreInfo !== undefined) matches(String(body.moreInfo), expected.moreInfo);
}

function matches(actual: string, expected: string | RegExp) {
  if (typeof expected === 'string') assert.equal(actual, expected);
  else assert.match(actual, expected);
}

/** Creates through the API and returns the stored record; fails the test on anything but 201. */
async function create<T extends Json>(app: FastifyInstance, url: string, payload: Json): Promise<T> {
  const res = await send(app, 'POST', url, payload);
  assert.equal(res.statusCode, 201, `POST ${url}: ${res.body}`);
  return res.json<T>();
}

let counter = 0;
/** A title no other record in this process has. */
export const unique = (prefix: string) => `${prefix} ${++counter}`;

export interface Categoria extends Json { id: number; nombre: string }
export interface Pelicula extends Json { id: number; titulo: string; sipnosis: string; duracion: number; categoria_id: number }
export interface Obra extends Json { id: number; titulo: string; descripcion: string; duracion: number; categoria_id: number }
export interface EventoUrbano extends Json { id: number; titulo: string; descripcion: string; fecha: string; lugar: string; categoria_id: number }
export interface Artista extends Json { dni: number; nombre: string; apellido: string; tipo: string; descripcion: string }
export interface Participacion extends Json { id: number; artistas_dni: number; tipo_evento: string; evento_id: number }

// Valid bodies, with overrides. Each test builds the rows it needs.
export const categoriaBody = (o: Json = {}): Json => ({ nombre: unique('Categoría'), ...o });
export const peliculaBody = (categoria_id: number, o: Json = {}): Json => ({
  titulo: unique('Película'), sipnosis: 'Una historia.', duracion: 100, categoria_id, ...o,
});
export const obraBody = (categoria_id: number, o: Json = {}): Json => ({
  titulo: unique('Obra'), descripcion: 'Una obra.', duracion: 90, categoria_id, ...o,
});
export const eventoUrbanoBody = (categoria_id: number, o: Json = {}): Json => ({
  titulo: unique('Evento'), descripcion: 'Un evento.', fecha: '2025-10-10', lugar: 'Plaza Mayor', categoria_id, ...o,
});
export const artistaBody = (o: Json = {}): Json => ({
  dni: 20000000 + ++counter, nombre: 'Ana', apellido: 'Pérez', tipo: 'actriz', descripcion: 'Actriz de teatro.', ...o,
});

export const createCategoria = (app: FastifyInstance, o: Json = {}) => create<Categoria>(app, '/categorias', categoriaBody(o));
export async function createPelicula(app: FastifyInstance, o: Json = {}) {
  const categoria_id = (o.categoria_id as number | undefined) ?? (await createCategoria(app)).id;
  return create<Pelicula>(app, '/peliculas', peliculaBody(categoria_id, o));
}
export async function createObra(app: FastifyInstance, o: Json = {}) {
  const categoria_id = (o.categoria_id as number | undefined) ?? (await createCategoria(app)).id;
  return create<Obra>(app, '/Obras', obraBody(categoria_id, o));
}
export async function createEventoUrbano(app: FastifyInstance, o: Json = {}) {
  const categoria_id = (o.categoria_id as number | undefined) ?? (await createCategoria(app)).id;
  return create<EventoUrbano>(app, '/eventosUrbanos', eventoUrbanoBody(categoria_id, o));
}
export const createArtista = (app: FastifyInstance, o: Json = {}) => create<Artista>(app, '/artistas', artistaBody(o));
export async function createParticipacion(app: FastifyInstance, o: Json = {}) {
  const artistas_dni = (o.artistas_dni as number | undefined) ?? (await createArtista(app)).dni;
  const tipo_evento = (o.tipo_evento as string | undefined) ?? 'pelicula';
  const evento_id = (o.evento_id as number | undefined) ?? (await createPelicula(app)).id;
  return create<Participacion>(app, '/participaciones', { artistas_dni, tipo_evento, evento_id, ...o });
}
