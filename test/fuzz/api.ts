import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { STORABLE_TEXT } from '../../src/catalogue/fields.js';
import type { AnyResource } from '../../src/resources/define.js';
import { resources } from '../../src/resources/index.js';
import { relationsOf } from '../../src/resources/relations.js';

/**
 * What the fuzz test knows of the service's routes, read off the resource definitions and the
 * routes the app registered (its OpenAPI description), so that a new resource is fuzzed as soon
 * as it is listed in src/resources.
 */

/** One field (or path parameter) and its contract rule, from its TypeBox schema. */
export interface Field {
  name: string;
  kind: 'integer' | 'text' | 'fecha' | 'enum' | 'number' | 'boolean' | 'inicio';
  minimum: number;
  maximum: number;
  maxLength: number;
  values: readonly string[];
  /** Values a text field refuses (`not: { enum }`). */
  forbidden: readonly string[];
  /** A pattern other than storable text's (a venue's `url`). */
  pattern?: string;
  /** Whether it may be null (`type: [T, 'null']`). */
  nullable: boolean;
  /** Whether a create or a PUT may leave it out, and what it then is (its default, else null). */
  optional: boolean;
  fallback: unknown;
}

export interface ResourceSpec {
  resource: AnyResource;
  path: string;
  /** The path parameter of PUT, PATCH and DELETE `{path}/{key}`. */
  key: Field;
  /** Whether POST takes the key from the client (artists' dni) or the store assigns it. */
  clientKey: boolean;
  /** The path parameter of `GET {path}/{lookup}`. */
  lookup: Field;
  /** Every field but the key. */
  fields: Field[];
  /** The fields of a record as answered, in order. */
  answered: string[];
  expand: string[];
  embed: string[];
  /** The methods `{path}` and `{path}/{…}` take (what a 405's Allow lists). */
  methods: { collection: string[]; item: string[] };
}

export interface Api {
  resources: ResourceSpec[];
  /** Documented paths without parameters that belong to no resource (the health probes, the change log, import and export). */
  others: string[];
  /** The methods each of them takes, upper case; HEAD wherever GET. */
  otherMethods: Record<string, string[]>;
  /** Those whose GET needs a query parameter (a CSV export's `recurso`): asked without one, a 400. */
  otherNeedsQuery: Set<string>;
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content?: Record<string, { schema?: { required?: string[] } }> };
}
type OpenApiPaths = Record<string, Record<string, OpenApiOperation>>;

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** HEAD is answered wherever GET is, without being described. */
function methodsOf(operations: string[]): string[] {
  const methods = new Set(operations.filter((o) => HTTP_METHODS.includes(o)).map((o) => o.toUpperCase()));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

export function fieldOf(name: string, schema: TSchema, optional = false): Field {
  const s = schema as {
    type?: string | string[]; format?: string; enum?: string[]; minimum?: number; maximum?: number; maxLength?: number; not?: { enum?: string[] }; pattern?: string; default?: unknown;
  };
  const type = [s.type].flat()[0];
  const kind =
    s.enum ? 'enum' : type === 'integer' ? 'integer' : type === 'number' ? 'number' : type === 'boolean' ? 'boolean' :
    s.format === 'fecha' ? 'fecha' : s.format === 'inicio' ? 'inicio' : 'text';
  return {
    ...(s.pattern !== undefined && s.pattern !== STORABLE_TEXT && { pattern: s.pattern }),
    nullable: [s.type].flat().includes('null'),
    optional,
    fallback: s.default ?? null,
    name,
    kind,
    minimum: s.minimum ?? Number.MIN_SAFE_INTEGER,
    maximum: s.maximum ?? Number.MAX_SAFE_INTEGER,
    maxLength: s.maxLength ?? Infinity,
    values: s.enum ?? [],
    forbidden: s.not?.enum ?? [],
  };
}

export async function describeApi(app: FastifyInstance): Promise<Api> {
  await app.ready();
  const paths = (app.swagger() as { paths: OpenApiPaths }).paths;
  const specs = resources.map((resource): ResourceSpec => {
    const { path, schemas: { item } } = resource;
    const createRequired = (resource.schemas.create.required ?? []) as string[];
    const property = (name: string) => {
      const schema = item.properties[name];
      if (!schema) throw new Error(`${path}: ${name} is not a field`);
      return fieldOf(name, schema, name !== resource.key.name && !createRequired.includes(name));
    };
    // The description names the record paths' parameter once for lookup and key (titulo_o_id): each is the resource's own.
    const key = property(resource.key.name);
    const required = paths[path]?.post?.requestBody?.content?.['application/json']?.schema?.required ?? [];
    const relations = relationsOf(resource);
    return {
      resource,
      path,
      key,
      clientKey: required.includes(key.name),
      lookup: property(resource.lookup.param),
      fields: Object.keys(item.properties).filter((name) => name !== key.name).map(property),
      answered: Object.keys(item.properties),
      expand: Object.keys(relations.expand),
      embed: Object.keys(relations.embed),
      methods: {
        collection: methodsOf(Object.keys(paths[path] ?? {})),
        item: methodsOf(Object.entries(paths).flatMap(([p, ops]) => (p.startsWith(`${path}/{`) ? Object.keys(ops) : []))),
      },
    };
  });
  // Paths with a parameter (/cambios/{id}) are for their own tests: the model knows no value for it.
  const others = Object.keys(paths).filter((p) => !p.includes('{') && !specs.some((s) => p === s.path || p.startsWith(`${s.path}/`)));
  const otherMethods = Object.fromEntries(others.map((p) => [p, methodsOf(Object.keys(paths[p] ?? {}))]));
  const otherNeedsQuery = new Set(others.filter((p) => paths[p]?.get?.parameters?.some((param) => param.in === 'query' && param.required === true)));
  return { resources: specs, others, otherMethods, otherNeedsQuery };
}
