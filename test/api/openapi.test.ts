import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { routeDocs } from '../../src/api/openapi.js';
import { buildTestApp, send, type Json } from '../helpers.js';
import { importar } from './uploads.js';

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Every route the app serves, but HEAD, read from Fastify's own route tree one method at a time
 * (per method, the tree names each route's own parameters).
 */
function registeredRoutes(app: FastifyInstance): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = [];
  for (const method of METHODS) {
    const ancestors: string[] = [];
    for (const line of app.printRoutes({ method, commonPrefix: false }).split('\n')) {
      const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
      if (!match) continue;
      const [, indent = '', segment = '', methods] = match;
      ancestors.length = indent.length / 4;
      ancestors.push(segment);
      if (methods) routes.push({ method, url: ancestors.join('') });
    }
  }
  return routes;
}

/** A path with its parameters' names left out: `/peliculas/{}`, whether served as `:titulo` or described as `{titulo_o_id}`. */
const unnamed = (path: string) => path.replace(/:\w+|\{\w+\}/g, '{}');

const RESOURCES = ['/peliculas', '/Obras', '/eventosUrbanos', '/artistas', '/categorias', '/participaciones'];

type Schema = Json & { type?: string; enum?: unknown[] };
type Parameter = { name: string; in: string; required?: boolean; schema: Schema };
type Response = { content?: Record<string, { schema?: Json }>; headers?: Record<string, { schema: Schema }> };
type Operation = { responses: Record<string, Response>; operationId?: string; description?: string; parameters?: Parameter[] };
type Document = { openapi: string; info: Json; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Json> } };

describe('the OpenAPI description at /openapi.json and its browser at /docs', () => {
  let app: FastifyInstance;
  let doc: Document;
  before(async () => {
    // No live feed may open, so that asking for one answers its 503 at once.
    app = await buildTestApp({ METRICS_ENABLED: 'true', CHANGES_MAX_STREAMS: '0' });
    const res = await send(app, 'GET', '/openapi.json');
    assert.equal(res.statusCode, 200, res.body);
    doc = res.json<Document>();
  });
  after(() => app.close());

  it('when the description is fetched, then it is a valid OpenAPI 3.1 document named after the service', async () => {
    // The OpenAPI Initiative's own 3.1 schema (swagger-parser, the other well-known validator, is for 2.0 and 3.0);
    // what no JSON Schema can say, such as paths that differ only in a parameter's name, is tested below.
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    assert.deepEqual(result, { valid: true });
    assert.equal(doc.openapi, '3.1.0');
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    assert.equal(doc.info.title, 'cartelera');
    assert.equal(doc.info.version, version);
    assert.equal(typeof doc.info.description, 'string');
  });

  it('when the routes are listed, then every one of them is described with its method, and nothing else is', async () => {
    const documented = (url: string) => url.startsWith('/docs') || url === '/openapi.json';
    // The browser admin and the redirect to it are pages, not API operations.
    const page = (url: string) => url === '/' || url.startsWith('/admin');
    // OPTIONS * is the CORS preflight catch-all, not an operation of any path.
    const routes = registeredRoutes(app).filter((r) => !documented(r.url) && !page(r.url) && !(r.method === 'OPTIONS' && r.url === '*'));
    assert.ok(routes.length >= 6 * 5 + 4, `only ${routes.length} routes found`);
    // The description may name a path parameter otherwise than the route does (one name per position).
    const described = Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${unnamed(path)}`));
    const served = routes.map(({ method, url }) => `${method} ${unnamed(url)}`);
    assert.deepEqual([...new Set(described)].sort(), [...new Set(served)].sort());
    assert.ok(!Object.keys(doc.paths).some(documented), 'the description and its browser describe themselves');
  });

  it('when the paths are compared without their parameters\' names, then no two are the same (OpenAPI 3.1 holds them identical)', () => {
    const paths = Object.keys(doc.paths).map(unnamed);
    assert.deepEqual(paths.filter((path, i) => paths.indexOf(path) !== i), []);
    const takes = (path: string, method: string) => doc.paths[path]?.[method]?.parameters?.find((p) => p.in === 'path');
    for (const [path, method, name, type] of [
      ['/peliculas/{titulo_o_id}', 'get', 'titulo_o_id', 'string'],
      ['/peliculas/{titulo_o_id}', 'put', 'titulo_o_id', 'integer'],
      ['/categorias/{nombre_o_id}', 'delete', 'nombre_o_id', 'integer'],
      ['/participaciones/{tipo_evento_o_id}', 'get', 'tipo_evento_o_id', undefined],
      ['/artistas/{dni}', 'patch', 'dni', 'integer'],
    ] as const) {
      const param = takes(path, method);
      assert.equal(param?.name, name, `${method} ${path}`);
      assert.equal(param.schema.type, type, `${method} ${path}`);
    }
    assert.equal(doc.paths['/Obras/{titulo_o_id}']?.get?.description, '`titulo_o_id` is the theatrical work\'s title.');
    assert.equal(doc.paths['/Obras/{titulo_o_id}']?.delete?.description, '`titulo_o_id` is the theatrical work\'s id.');
    assert.deepEqual(takes('/participaciones/{tipo_evento_o_id}', 'get')?.schema.enum, ['pelicula', 'obra', 'eventoUrbano']);
  });

  it('when query parameters are described, then each has its type: integers, enumerations and booleans are not text', () => {
    const query = (path: string, method = 'get') =>
      Object.fromEntries((doc.paths[path]?.[method]?.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));
    const peliculas = query('/peliculas');
    const integer = { type: 'integer' };
    const integers = { anyOf: [integer, { type: 'array', items: integer }] };
    assert.deepEqual(peliculas._page, { type: 'integer', minimum: 1 });
    assert.deepEqual(peliculas._limit, { type: 'integer', minimum: 1, maximum: 1000 });
    assert.deepEqual(peliculas._start, { type: 'integer', minimum: 0 });
    assert.deepEqual(peliculas._end, { type: 'integer', minimum: 0 });
    assert.deepEqual(peliculas._order, { enum: ['asc', 'desc'] });
    assert.deepEqual(peliculas._sort?.enum, ['id', 'titulo', 'sipnosis', 'duracion', 'categoria_id', '-id', '-titulo', '-sipnosis', '-duracion', '-categoria_id']);
    assert.deepEqual(peliculas.categoria_id, integers);
    assert.deepEqual(peliculas.duracion_gte, integers);
    assert.deepEqual(peliculas.titulo_like, { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] });
    assert.equal(peliculas.duracion_like, undefined, '_like is for text');
    assert.deepEqual(peliculas._expand, { anyOf: [{ enum: ['categoria'] }, { type: 'array', items: { enum: ['categoria'] } }] });
    assert.deepEqual(query('/participaciones').tipo_evento, { anyOf: [{ enum: ['pelicula', 'obra', 'eventoUrbano'] }, { type: 'array', items: { enum: ['pelicula', 'obra', 'eventoUrbano'] } }] });
    assert.deepEqual(Object.keys(query('/peliculas/{titulo_o_id}')).sort(), ['_embed', '_expand']);
    const cambios = query('/cambios');
    assert.deepEqual(cambios.desde, { type: 'integer', minimum: 0 });
    assert.deepEqual(cambios.operacion, { anyOf: [{ enum: ['alta', 'modificacion', 'baja'] }, { type: 'array', items: { enum: ['alta', 'modificacion', 'baja'] } }] });
    assert.deepEqual(query('/importar', 'post').comprobar, { type: 'boolean' });
    assert.deepEqual(query('/exportar.csv').recurso?.enum, ['categorias', 'peliculas', 'Obras', 'eventosUrbanos', 'artistas', 'participaciones', 'lugares', 'funciones']);
    const calendar = query('/eventosUrbanos.ics');
    assert.deepEqual(calendar.categoria_id, integers);
    assert.equal(calendar._page, undefined, 'a calendar is not paged');
  });

  it('when every route answers its successes and refusals, then each status, media type and header sent is one the description declares', async () => {
    const checked = new Set<string>();
    const check = async (method: HTTPMethods, url: string, options: { payload?: unknown; headers?: Record<string, string> } = {}) => {
      const res = await app.inject({ method, url, headers: options.headers, ...(options.payload !== undefined && { payload: options.payload as string }) });
      return declares(method, url, res);
    };
    const declares = (method: string, url: string, res: Awaited<ReturnType<typeof send>>) => {
      const path = new URL(url, 'http://x').pathname;
      const template = Object.keys(doc.paths)
        .filter((t) => new RegExp(`^${t.replace(/\{\w+\}/g, '[^/]+').replace(/\./g, '\\.')}$`).test(path))
        .sort((a, b) => a.split('{').length - b.split('{').length)[0];
      const what = `${method} ${url} ${res.statusCode}`;
      const operation = template === undefined ? undefined : doc.paths[template]?.[method.toLowerCase()];
      assert.ok(operation, `${what}: no such operation`);
      const status = String(res.statusCode);
      const response = operation.responses[status] ?? operation.responses[`${status[0]}XX`];
      assert.ok(response, `${what}: status not declared`);
      checked.add(`${method.toLowerCase()} ${template} ${status}`);
      const mediaType = (type: string) => type.split(';')[0]?.trim().toLowerCase();
      if (res.rawPayload.length > 0) {
        const declared = Object.keys(response.content ?? {}).map(mediaType);
        assert.ok(declared.includes(mediaType(String(res.headers['content-type']))), `${what}: ${res.headers['content-type']} is not among ${declared.join(', ')}`);
      }
      const headers = Object.keys(response.headers ?? {}).map((h) => h.toLowerCase());
      for (const header of ['etag', 'x-total-count', 'link', 'location', 'retry-after', 'content-disposition', 'cache-control']) {
        if (res.headers[header] !== undefined) assert.ok(headers.includes(header), `${what}: ${header} is sent but not declared`);
      }
      return res;
    };

    const categoria = (await check('POST', '/categorias', { payload: { nombre: 'Documental' } })).json<{ id: number }>();
    const pelicula = (await check('POST', '/peliculas', { payload: { titulo: 'Baraka', sipnosis: 's', duracion: 96, categoria_id: categoria.id } })).json<{ id: number }>();
    await check('POST', '/eventosUrbanos', { payload: { titulo: 'Feria', descripcion: 'd', fecha: '2026-11-14', lugar: 'Plaza', categoria_id: categoria.id } });
    await check('POST', '/peliculas', { payload: 'titulo=x', headers: { 'content-type': 'text/plain' } });
    await check('GET', '/peliculas');
    await check('GET', '/peliculas?_page=1&_limit=1&categoria_id=1');
    await check('GET', '/peliculas?_order=sideways&_sort=titulo');
    const read = await check('GET', '/peliculas/Baraka?_expand=categoria');
    await check('GET', '/peliculas/Baraka?_expand=categoria', { headers: { 'if-none-match': String(read.headers.etag) } });
    await check('GET', '/peliculas/Nadie');
    await check('PATCH', `/peliculas/${pelicula.id}`, { payload: { duracion: 97 }, headers: { 'if-match': '"otra"' } });
    await check('PATCH', `/peliculas/${pelicula.id}`, { payload: '{"duracion":98}', headers: { 'content-type': 'application/merge-patch+json' } });
    await check('PUT', `/peliculas/${pelicula.id}`, { payload: { titulo: 'Baraka', sipnosis: 's', duracion: 99, categoria_id: categoria.id } });
    await check('PUT', '/peliculas/abc', { payload: {} });
    await check('DELETE', '/peliculas/999999');
    await check('DELETE', `/categorias/${categoria.id}`);
    const cambios = await check('GET', '/cambios?_limit=2');
    await check('GET', '/cambios/1');
    await check('GET', '/cambios/999999');
    await check('GET', '/cambios', { headers: { accept: 'text/event-stream' } });
    await check('POST', '/cambios/1/deshacer');
    await check('POST', `/cambios/${cambios.json<{ id: number }[]>()[1]?.id}/deshacer`);
    const calendar = await check('GET', '/eventosUrbanos.ics?categoria_id=1');
    await check('GET', '/eventosUrbanos.ics?categoria_id=1', { headers: { 'if-none-match': String(calendar.headers.etag) } });
    await check('GET', '/eventosUrbanos.ics?categoria_id=uno');
    for (const url of ['/exportar.csv?recurso=peliculas', '/exportar.xlsx', '/exportar.ods?recurso=eventosUrbanos', '/exportar.csv', '/exportar.xlsx?recurso=nada']) await check('GET', url);
    await check('POST', '/importar', { payload: {} });
    declares('POST', '/importar?comprobar=true', await importar(app, '?comprobar=true', [{ name: 'categorias.csv', bytes: 'nombre\nTeatro\n' }]));
    declares('POST', '/importar', await importar(app, '', [{ name: 'nada.csv', bytes: 'x\n1\n' }]));
    for (const url of ['/health', '/health/live', '/metrics']) await check('GET', url);
    // Every kind of answer met above: a route's answers, its refusals, and the headers of each.
    for (const answer of ['post /peliculas 201', 'get /peliculas 200', 'get /peliculas/{titulo_o_id} 304', 'patch /peliculas/{titulo_o_id} 412', 'post /cambios/{id}/deshacer 409', 'get /cambios 503', 'get /eventosUrbanos.ics 200', 'get /eventosUrbanos.ics 304', 'get /exportar.ods 200', 'post /importar 200', 'post /importar 400', 'post /importar 415', 'delete /categorias/{nombre_o_id} 400']) {
      assert.ok(checked.has(answer), `${answer} was not met: ${[...checked].join(', ')}`);
    }
  });

  it('when a resource path is described, then its 4xx answers carry the ErrorBody schema', () => {
    const errorBody = doc.components.schemas.ErrorBody;
    assert.deepEqual([...(errorBody?.required as string[])].sort(), ['code', 'details', 'location', 'moreInfo', 'timestamp', 'type']);
    const resolve = (schema: Json | undefined) =>
      schema?.$ref === undefined ? schema : doc.components.schemas[String(schema.$ref).replace('#/components/schemas/', '')];
    for (const base of RESOURCES) {
      const paths = Object.keys(doc.paths).filter((p) => p === base || p.startsWith(`${base}/`));
      assert.equal(paths.length >= 2, true, `${base} has ${paths.length} described paths`);
      for (const path of paths) {
        for (const [method, operation] of Object.entries(doc.paths[path] ?? {})) {
          const schemas = Object.entries(operation.responses)
            .filter(([status]) => status.startsWith('4'))
            .map(([, response]) => resolve(response.content?.['application/json']?.schema));
          assert.ok(schemas.includes(errorBody), `${method} ${path} has no 4xx ErrorBody`);
        }
      }
    }
  });

  it('when operations name themselves, then no two share an operationId', () => {
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).flatMap((op) => (op.operationId ? [op.operationId] : [])));
    assert.equal(new Set(ids).size, ids.length, ids.join(', '));
  });

  it('when /docs is opened, then it is HTML whose every asset is served locally under /docs/static', async () => {
    const res = await send(app, 'GET', '/docs');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.doesNotMatch(res.body, /https?:\/\//);
    const assets = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url ?? '');
    assert.ok(assets.length >= 4, `only ${assets.length} assets`);
    for (const asset of assets) {
      assert.match(asset, /^\/docs\/static\//);
      const file = await send(app, 'GET', asset);
      assert.equal(file.statusCode, 200, asset);
      assert.ok(file.rawPayload.length > 0, `${asset} is empty`);
    }
    const spec = await send(app, 'GET', '/docs/json');
    assert.equal(spec.statusCode, 200);
    assert.deepEqual(spec.json(), doc);
  });
});

describe('the description when writes need a key (API_KEYS)', () => {
  const KEY = 'una-clave-de-escritura-larga';
  const describedWith = async (env: Record<string, string>) => {
    const app = await buildTestApp(env);
    try {
      return (await send(app, 'GET', '/openapi.json')).json<Document & { components: { securitySchemes?: Json } }>();
    } finally {
      await app.close();
    }
  };

  it('when API_KEYS is set, then a bearer scheme is declared, every write requires it, and no read does', async () => {
    const doc = await describedWith({ API_KEYS: KEY });
    assert.deepEqual(await new Validator().validate(doc as unknown as Record<string, unknown>), { valid: true });
    assert.deepEqual(doc.components.securitySchemes, { writeKey: { type: 'http', scheme: 'bearer', description: 'One of the keys in API_KEYS' } });
    let writes = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const security = (operation as Operation & { security?: unknown }).security;
        if (['post', 'put', 'patch', 'delete'].includes(method)) {
          writes++;
          assert.deepEqual(security, [{ writeKey: [] }], `${method} ${path}`);
        } else assert.equal(security, undefined, `${method} ${path}`);
      }
    }
    assert.equal(writes, 9 * 4 + 3, 'POST, PUT, PATCH and DELETE of each of the eight resources and of images, POST /importar, POST /cambios/{id}/deshacer and POST /funciones/serie');
  });

  it('when API_KEYS is not set, then nothing in the description asks for a key', async () => {
    const doc = await describedWith({});
    assert.equal(doc.components.securitySchemes, undefined);
    assert.doesNotMatch(JSON.stringify(doc.paths), /"security"/);
  });
});

describe('routeDocs: what a CRUD route says about itself in the description', () => {
  const cases: [Parameters<typeof routeDocs>, ReturnType<typeof routeDocs>][] = [
    [['/peliculas', 'list', 'movie'], { tags: ['peliculas'], summary: 'List movies', operationId: 'listPeliculas' }],
    [['/peliculas/:titulo', 'read', 'movie'], { tags: ['peliculas'], summary: 'Read a movie by its title', operationId: 'readPelicula' }],
    [['/peliculas', 'create', 'movie'], { tags: ['peliculas'], summary: 'Create a movie', operationId: 'createPelicula' }],
    [['/peliculas/:id', 'update', 'movie'], { tags: ['peliculas'], summary: 'Replace a movie by its id', operationId: 'updatePelicula' }],
    [['/peliculas/:id', 'patch', 'movie'], { tags: ['peliculas'], summary: 'Update some fields of a movie by its id', operationId: 'patchPelicula' }],
    [['/peliculas/:id', 'remove', 'movie'], { tags: ['peliculas'], summary: 'Delete a movie by its id', operationId: 'removePelicula' }],
    [['/Obras/:titulo', 'read', 'theatrical work'], { tags: ['Obras'], summary: 'Read a theatrical work by its title', operationId: 'readObra' }],
    [['/eventosUrbanos', 'list', 'urban event'], { tags: ['eventosUrbanos'], summary: 'List urban events', operationId: 'listEventosUrbanos' }],
    [['/eventosUrbanos/:id', 'remove', 'urban event'], { tags: ['eventosUrbanos'], summary: 'Delete an urban event by its id', operationId: 'removeEventoUrbano' }],
    [['/artistas/:dni', 'read', 'artist'], { tags: ['artistas'], summary: 'Read an artist by its DNI', operationId: 'readArtista' }],
    [['/categorias', 'list', 'category'], { tags: ['categorias'], summary: 'List categories', operationId: 'listCategorias' }],
    [['/categorias/:nombre', 'read', 'category'], { tags: ['categorias'], summary: 'Read a category by its name', operationId: 'readCategoria' }],
    [['/participaciones/:tipo_evento', 'read', 'participation'], { tags: ['participaciones'], summary: 'Read a participation by its event kind', operationId: 'readParticipacion' }],
  ];
  for (const [args, expected] of cases) {
    it(`when ${args[1]} ${args[0]} is described, then it is "${expected.summary}" (${expected.operationId})`, () => {
      assert.deepEqual(routeDocs(...args), expected);
    });
  }
});
