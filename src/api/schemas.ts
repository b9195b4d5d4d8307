import { Type, type TSchema } from 'typebox';
import type { AnyResource } from '../resources/define.js';
import type { Relations } from '../resources/relations.js';
import { ErrorBody } from './errors.js';
import { listQuerySchema } from './listQuery.js';
import { routeDocs } from './openapi.js';

/** The spec's delete body. */
export const DeleteBody = Type.Object({
  type: Type.Literal('Success'),
  code: Type.Literal('200'),
  details: Type.String({ examples: ['la obra con el id: 4. fue eliminada correctamente.'] }),
  location: Type.String({ examples: ['/Obras/4'] }),
  timestamp: Type.String({ examples: ['2025-10-10T12:30:05'] }),
});

const errors = { '4xx': ErrorBody, '5xx': ErrorBody };

/**
 * The Fastify schemas of a resource's routes, all derived from its definition: Ajv validates
 * requests by them, fast-json-stringify writes answers by them, and the API description shows them.
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
  return {
    paths: { list: path, one, byLookup },
    list: { ...routeDocs(path, 'list', english), querystring: listQuerySchema(resource.kinds, names), response: { 200: Type.Array(answer), ...errors } },
    lookup: {
      ...routeDocs(byLookup, 'read', english),
      params: Type.Object({ [lookup.param]: lookup.schema }),
      querystring: listQuerySchema({}, names),
      response: { 200: answer, ...errors },
    },
    create: { ...routeDocs(path, 'create', english), body: schemas.create, response: { 201: schemas.item, ...errors } },
    update: { ...routeDocs(one, 'update', english), params: keyParams, body: schemas.update, response: { 200: schemas.item, ...errors } },
    patch: { ...routeDocs(one, 'patch', english), params: keyParams, body: schemas.patch, response: { 200: schemas.item, ...errors } },
    remove: { ...routeDocs(one, 'remove', english), params: keyParams, response: { 200: DeleteBody, ...errors } },
  };
}

export function relationNames(relations: Relations) {
  return { expand: Object.keys(relations.expand), embed: Object.keys(relations.embed) };
}
