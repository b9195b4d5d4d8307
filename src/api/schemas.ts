import { Type, type TSchema } from 'typebox';
import type { AnyResource } from '../resources/define.js';
import type { Relations } from '../resources/relations.js';
import { ErrorBody } from './errors.js';
import { listQuerySchema } from './listQuery.js';
import { englishParam, HEADERS, recordParam, routeDocs } from './openapi.js';

/** The spec's delete body. */
export const DeleteBody = Type.Object({
  type: Type.Literal('Success'),
  code: Type.Literal('200'),
  details: Type.String({ examples: ['la obra con el id: 4. fue eliminada correctamente.'] }),
  location: Type.String({ examples: ['/Obras/4'] }),
  timestamp: Type.String({ examples: ['2025-10-10T12:30:05'] }),
});

const errors = { '4xx': ErrorBody, '5xx': ErrorBody };
const REFUSED = 'A field, parameter or header is not as the rules say: the sentences name each.';
/** What any route that takes a JSON body may answer besides. */
const JSON_BODY = { 413: 'The body is over 1 MiB.', 415: 'The body is not JSON.' };
const IF_MATCH = Type.Object({
  'If-Match': Type.Optional(Type.String({ description: "The record's ETag as read: the write happens only while the record is still that one (* : while it exists)." })),
});
const CHANGED = 'If-Match names a version the record no longer has: nothing changed.';

/**
 * The Fastify schemas of a resource's routes, all derived from its definition: Ajv validates
 * requests by them, fast-json-stringify writes answers by them, and the API description shows them
 * (with its own part, `described`: the typed list parameters, headers and every answer).
 */
export function routeSchemas(resource: AnyResource, relations: Relations) {
  const { path, key, lookup, english, schemas } = resource;
  const one = `${path}/:${key.name}`;
  const byLookup = `${path}/:${lookup.param}`;
  const names = relationNames(relations);
  // The record, plus whatever _expand/_embed may attach.
  const attached = [...Object.entries(relations.expand), ...Object.entries(relations.embed)];
  const answer = Type.Object({
    ...schemas.item.properties,
    ...Object.fromEntries(attached.map(([name, r]): [string, TSchema] => [name, Type.Optional(r.schema)])),
  });
  const keyParams = Type.Object({ [key.name]: key.schema });
  const param = recordParam(lookup.param, key.name, english);
  const missing = { 404: `No ${english} has that ${englishParam(key.name)}.` };
  const byKey = (answers: Record<number, string>) => ({ pathParam: param.byKey.pathParam, headers: IF_MATCH, answers: { 400: REFUSED, ...missing, 412: CHANGED, ...answers } });
  return {
    paths: { list: path, one, byLookup },
    list: {
      ...routeDocs(path, 'list', english),
      response: { 200: Type.Array(answer), ...errors },
      described: {
        query: listQuerySchema(resource.kinds, names, resource.coordinates !== undefined),
        answers: {
          200: { description: `The ${english} records that match, by ${key.name}; without list parameters, all of them.`, headers: { ...HEADERS.totalCount, ...HEADERS.link } },
          400: 'A list parameter has a value it does not take: the sentence names it.',
        },
      },
    },
    lookup: {
      ...routeDocs(byLookup, 'read', english),
      description: param.byLookup.description,
      params: Type.Object({ [lookup.param]: lookup.schema }),
      response: { 200: answer, ...errors },
      described: {
        query: listQuerySchema({}, names),
        pathParam: param.byLookup.pathParam,
        answers: { 200: `The ${english}.`, 400: REFUSED, 404: `No ${english} has that ${englishParam(lookup.param)}.` },
      },
    },
    create: {
      ...routeDocs(path, 'create', english),
      body: schemas.create,
      response: { 201: schemas.item, ...errors },
      described: { answers: { 201: { description: `The ${english} as stored.`, headers: HEADERS.location }, 400: REFUSED, ...JSON_BODY } },
    },
    update: {
      ...routeDocs(one, 'update', english),
      description: param.byKey.description,
      params: keyParams,
      body: schemas.update,
      response: { 200: schemas.item, ...errors },
      described: byKey({ 200: `The ${english} as stored.`, ...JSON_BODY }),
    },
    patch: {
      ...routeDocs(one, 'patch', english),
      description: param.byKey.description,
      params: keyParams,
      body: schemas.patch,
      // A JSON merge patch (RFC 7396); plain JSON is taken too (json.ts).
      consumes: ['application/merge-patch+json', 'application/json'],
      response: { 200: schemas.item, ...errors },
      described: byKey({ 200: `The ${english} as stored.`, ...JSON_BODY }),
    },
    remove: {
      ...routeDocs(one, 'remove', english),
      description: param.byKey.description,
      params: keyParams,
      response: { 200: DeleteBody, ...errors },
      described: byKey({ 200: 'Deleted.', 400: `The id is not as the rules say, or other records still use the ${english}: the sentence says how many.` }),
    },
  };
}

export function relationNames(relations: Relations) {
  return { expand: Object.keys(relations.expand), embed: Object.keys(relations.embed) };
}
