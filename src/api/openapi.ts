import { readFileSync } from 'node:fs';
import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { Type, type TObject, type TSchema } from 'typebox';
import { Change } from './changeSchemas.js';
import { ErrorBody } from './errors.js';
import { ImportReport } from './transferSchemas.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** What the document says of a route beyond the schemas Fastify validates requests and writes answers by. */
export interface Description {
  /**
   * The query parameters, typed as a client sends them, in place of the route's `querystring`:
   * Fastify takes a query as text, and the route's own parser checks it, naming the parameter.
   */
  query?: TObject;
  /** Request headers the route reads (If-Match, Last-Event-ID), besides If-None-Match, which every GET reads. */
  headers?: TObject;
  /** A request body that is not JSON (an upload): media type → schema. */
  body?: Record<string, TSchema>;
  /**
   * The document's name of the path parameter, where routes at the same position name it
   * differently (`GET /peliculas/:titulo`, `PUT /peliculas/:id`): OpenAPI 3.1 holds such paths identical.
   */
  pathParam?: { name: string; description: string };
  /**
   * The answers by status, besides those every route has (below, `describeRoute`): a description,
   * or one with the headers it carries and, for a body that is not the route's JSON response
   * schema, its media types. A refusal's body is the error body.
   */
  answers?: Record<number, string | Answer>;
}

export interface Answer {
  description: string;
  headers?: Record<string, TSchema>;
  content?: Record<string, TSchema>;
}

declare module 'fastify' {
  interface FastifySchema {
    /** The API description's own part of a route's schema (see Description); Fastify ignores it. */
    described?: Description;
  }
}

/** The headers answers carry, each described once. */
export const HEADERS = {
  etag: { ETag: Type.String({ description: 'The strong entity-tag of this answer: If-None-Match with it gets 304; If-Match with a record\'s makes a write conditional.' }) },
  totalCount: { 'X-Total-Count': Type.Integer({ description: 'How many records match, over all pages. Sent when the request uses a list parameter.' }) },
  link: { Link: Type.String({ description: 'RFC 8288 links to the first, previous, next and last pages. Sent when a page is asked for.' }) },
  location: { Location: Type.String({ description: 'The path that reads the new record back.' }) },
  retryAfter: { 'Retry-After': Type.Integer({ description: 'Seconds to wait before trying again.' }) },
  noStore: { 'Cache-Control': Type.Literal('no-store') },
  attachment: { 'Content-Disposition': Type.String({ description: 'attachment, with the file\'s name: cartelera-<recurso>-<date>.<ext>' }) },
} satisfies Record<string, Record<string, TSchema>>;

/** The schemas the document names under components, each by its `$id`. */
const COMPONENTS = Object.fromEntries(
  [ErrorBody, Change, ImportReport].map((schema: object) => {
    const { $id, ...rest } = schema as { $id: string };
    return [$id, rest];
  }),
);

/**
 * The OpenAPI 3.1 description at `GET /openapi.json` and its browser at `/docs`, both generated
 * from the routes' own schemas. Registered before the routes, so that it sees every one of them.
 */
export async function openApi(app: FastifyInstance, options: { writeKeys: boolean }): Promise<void> {
  await app.register(swagger, {
    mode: 'dynamic',
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'cartelera',
        version,
        description:
          "A city culture office's catalogue of movies, theatrical works, urban events, artists, " +
          'categories and participations, as JSON over HTTP. Every answer that is not a success carries the ErrorBody.',
      },
      components: {
        schemas: COMPONENTS,
        ...(options.writeKeys && { securitySchemes: { [WRITE_KEY]: { type: 'http', scheme: 'bearer', description: 'One of the keys in API_KEYS' } } }),
      },
    },
    transform: describeRoute(options.writeKeys),
  });
  // Swagger UI's own files, from the npm package, are served under /docs/static.
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
}

const WRITE_KEY = 'writeKey';
const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];

const IF_NONE_MATCH = { 'If-None-Match': Type.Optional(Type.String({ description: 'An ETag this route answered: 304 while it is still current.' })) };

const reference = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** A body by media type, as @fastify/swagger reads a response's `content`. */
const media = (types: Record<string, TSchema>) => Object.fromEntries(Object.entries(types).map(([type, schema]) => [type, { schema: withReferences(schema) }]));
const ERROR_BODY = media({ 'application/json': ErrorBody });

/** `schema` with every schema the document names under components replaced by a reference to it. */
function withReferences(schema: unknown): TSchema {
  if (Array.isArray(schema)) return schema.map(withReferences) as unknown as TSchema;
  if (typeof schema !== 'object' || schema === null) return schema as TSchema;
  const { $id } = schema as { $id?: string };
  if ($id !== undefined && Object.hasOwn(COMPONENTS, $id)) return reference($id) as unknown as TSchema;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withReferences(value)])) as TSchema;
}

/**
 * Each route's schema as the document shows it: the query typed (Description.query), the path
 * parameter under its one name, every answer with its headers and media types, the schemas that
 * components name by reference, a route that names no tags grouped under its first path segment,
 * and, when writes need a key, every write saying so. Every route answers 503 with Retry-After
 * (an outage, or load shed) and its other refusals in the error body; every GET answers 304 to an
 * If-None-Match that names its ETag (conditional.ts).
 */
const describeRoute = (writeKeys: boolean): SwaggerTransform => ({ schema, url, route }) => {
  // Routes declared without any schema (none of ours) are described as they are.
  if (!schema) return { schema, url };
  const { described = {}, querystring, params, response, ...rest } = schema;
  const methods = [route.method].flat();
  const isGet = methods.includes('GET');
  const isWrite = methods.some((method) => WRITES.includes(method));
  const [firstSegment = ''] = url.split('/').filter(Boolean);
  const headers = { ...(isGet && IF_NONE_MATCH), ...described.headers?.properties };
  const renamed = described.pathParam && renameParam(params as TObject, described.pathParam);
  const documented: FastifySchema = {
    ...rest,
    tags: schema.tags ?? [firstSegment],
    ...(writeKeys && isWrite && { security: [{ [WRITE_KEY]: [] }] }),
    ...((described.query ?? querystring) !== undefined && { querystring: withReferences(described.query ?? booleans(querystring as TObject)) }),
    ...((renamed ?? params) !== undefined && { params: renamed ?? params }),
    ...(Object.keys(headers).length > 0 && { headers: Type.Object(headers) }),
    ...(described.body && { body: { content: media(described.body) } }),
    response: answers(response as Record<string, TSchema> | undefined, described.answers ?? {}, isGet),
  };
  return { url: renamed ? url.replace(/:\w+/, `:${described.pathParam?.name}`) : url, schema: documented };
};

function renameParam(params: TObject, { name, description }: { name: string; description: string }): TObject {
  const [schema] = Object.values(params.properties);
  return Type.Object({ [name]: { ...schema, description } as TSchema });
}

/** A query parameter Fastify checks as the text `true` or `false` is, to a typed client, a boolean. */
function booleans(query: TObject): TObject {
  const isBoolean = (schema: { enum?: unknown[] }) => schema.enum?.length === 2 && schema.enum.includes('true') && schema.enum.includes('false');
  return {
    ...query,
    properties: Object.fromEntries(
      Object.entries(query.properties).map(([name, schema]) => {
        if (!isBoolean(schema as { enum?: unknown[] })) return [name, schema];
        const annotations = Object.entries(schema).filter(([keyword]) => keyword !== 'enum');
        return [name, { ...Object.fromEntries(annotations), type: 'boolean' }];
      }),
    ),
  } as TObject;
}

/** Every answer of a route, as @fastify/swagger reads a response map: description, headers, and content by media type. */
function answers(response: Record<string, TSchema> | undefined, declared: Record<number, string | Answer>, isGet: boolean) {
  const statuses = new Set([...Object.keys(response ?? {}), ...Object.keys(declared)].filter((status) => /^\d+$/.test(status)));
  const described: Record<string, unknown> = {};
  for (const status of [...statuses].sort()) {
    const given = declared[Number(status)];
    const answer: Answer = typeof given === 'string' ? { description: given } : (given ?? { description: 'OK' });
    // The route's response schema is its JSON body, unless it names its media types itself (/metrics).
    const body = response?.[status] as (TSchema & { content?: Record<string, unknown> }) | undefined;
    const content = {
      ...(Number(status) >= 400 ? ERROR_BODY : (body?.content ?? (body && media({ 'application/json': body })))),
      ...(answer.content && media(answer.content)),
    };
    const headers = { ...(isGet && status === '200' && HEADERS.etag), ...answer.headers };
    described[status] = {
      description: answer.description,
      ...(Object.keys(headers).length > 0 && { headers }),
      ...(Object.keys(content).length > 0 ? { content } : { type: 'null' }),
    };
  }
  if (isGet) described[304] = { description: 'Not modified: If-None-Match names the current ETag. No body.', type: 'null', headers: HEADERS.etag };
  described[503] = {
    description: 'The store cannot take the request now (an outage, a full disk), or the service sheds load: try again after Retry-After.',
    headers: HEADERS.retryAfter,
    content: ERROR_BODY,
  };
  const error = { description: 'The error body', content: ERROR_BODY };
  return { ...described, '4xx': error, '5xx': error };
}

export type CrudOperation = 'list' | 'read' | 'create' | 'update' | 'patch' | 'remove';

/**
 * Tags, summary and a stable operationId for one CRUD route. `path` is the route's path as
 * registered (`/peliculas` or `/peliculas/:titulo`), `resourceName` the record's English noun in
 * the singular (`movie`, `theatrical work`, `urban event`, `artist`, `category`, `participation`).
 * The operationId spells the path's Spanish name: listPeliculas, readPelicula, updateEventoUrbano.
 */
export function routeDocs(
  path: string,
  operation: CrudOperation,
  resourceName: string,
): { tags: string[]; summary: string; operationId: string } {
  const [base = '', param] = path.split('/').filter(Boolean);
  const by = param?.startsWith(':') ? ` by its ${englishParam(param.slice(1))}` : '';
  const one = `${/^[aeiou]/i.test(resourceName) ? 'an' : 'a'} ${resourceName}`;
  const summaries: Record<CrudOperation, string> = {
    list: `List ${englishPlural(resourceName)}`,
    read: `Read ${one}${by}`,
    create: `Create ${one}`,
    update: `Replace ${one}${by}`,
    patch: `Update some fields of ${one}${by}`,
    remove: `Delete ${one}${by}`,
  };
  const name = upperFirst(base);
  const operationId = operation + (operation === 'list' ? name : spanishSingular(name));
  return { tags: [base], summary: summaries[operation], operationId };
}

/**
 * The one name the document gives the path parameter of a resource's record paths, where Fastify
 * names it by what each method takes (`GET /peliculas/:titulo`, `PUT /peliculas/:id`): for each,
 * the parameter's description and the operation's, saying what it takes.
 */
export function recordParam(lookupParam: string, keyName: string, resourceName: string) {
  const name = lookupParam === keyName ? keyName : `${lookupParam}_o_${keyName}`;
  const takes = (param: string) => ({
    pathParam: { name, description: `The ${resourceName}'s ${englishParam(param)}.` },
    description: `\`${name}\` is the ${resourceName}'s ${englishParam(param)}.`,
  });
  return { byLookup: takes(lookupParam), byKey: takes(keyName) };
}

const PARAMS: Record<string, string> = { titulo: 'title', nombre: 'name', tipo_evento: 'event kind', dni: 'DNI' };
export const englishParam = (param: string) => PARAMS[param] ?? param;

const englishPlural = (noun: string) => (/[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`);

const upperFirst = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Peliculas → Pelicula, EventosUrbanos → EventoUrbano, Participaciones → Participacion. */
function spanishSingular(camelCase: string): string {
  return camelCase
    .split(/(?=[A-Z])/)
    .map((word) => (/[^aeiou]es$/.test(word) ? word.slice(0, -2) : word.replace(/s$/, '')))
    .join('');
}
