import { readFileSync } from 'node:fs';
import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from './errors.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

// $id names the error body for Fastify; in the document, its key under components names it.
const { $id: errorBodyId, ...errorBodySchema } = ErrorBody as typeof ErrorBody & { $id: string };
const errorBodyRef = { $ref: '#/components/schemas/ErrorBody', description: 'The error body' };

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
        schemas: { ErrorBody: errorBodySchema },
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

/**
 * Each route's schema as the document shows it: the inline error body becomes a reference to the
 * shared component, a route that names no tags is grouped under its first path segment, and, when
 * writes need a key, every write says so.
 */
const describeRoute = (writeKeys: boolean): SwaggerTransform => ({ schema, url, route }) => {
  // Routes declared without any schema (none of ours) are described as they are.
  if (!schema) return { schema, url };
  const response = schema.response as Record<string, { $id?: string }> | undefined;
  const [firstSegment = ''] = url.split('/').filter(Boolean);
  const isWrite = [route.method].flat().some((method) => WRITES.includes(method));
  return {
    url,
    schema: {
      ...schema,
      ...(writeKeys && isWrite && { security: [{ [WRITE_KEY]: [] }] }),
      tags: schema.tags ?? [firstSegment],
      ...(response && {
        response: Object.fromEntries(
          Object.entries(response).map(([status, body]) => [status, body.$id === errorBodyId ? errorBodyRef : body]),
        ),
      }),
    },
  };
};

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

const PARAMS: Record<string, string> = { titulo: 'title', nombre: 'name', tipo_evento: 'event kind', dni: 'DNI' };
const englishParam = (param: string) => PARAMS[param] ?? param;

const englishPlural = (noun: string) => (/[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`);

const upperFirst = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Peliculas → Pelicula, EventosUrbanos → EventoUrbano, Participaciones → Participacion. */
function spanishSingular(camelCase: string): string {
  return camelCase
    .split(/(?=[A-Z])/)
    .map((word) => (/[^aeiou]es$/.test(word) ? word.slice(0, -2) : word.replace(/s$/, '')))
    .join('');
}
