import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { answerCache, type CachedAnswer } from '../cache/answers.js';
import { fullList } from '../cache/fullList.js';
import type { TableState, Versions } from '../cache/versions.js';
import { messages } from '../catalogue/messages.js';
import { notFound } from '../catalogue/refusal.js';
import { listRows, type ListQuery } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import { sqliteDurable } from '../db/sqlite.js';
import type { AnyResource } from '../resources/define.js';
import type { Relations } from '../resources/relations.js';
import { createRecord, found, patchRecord, removeRecord, replaceRecord } from '../resources/writes.js';
import { ifMatch } from './conditional.js';
import { sendingKept } from './durable.js';
import { requestPath } from './errors.js';
import { linkHeader } from './link.js';
import { listParams, parseListQuery, parseRelations, usesListQuery, type RawQuery } from './listQuery.js';
import { relationNames, routeSchemas } from './schemas.js';
import { localDateTime } from './time.js';

/** Lookups and pages answered from memory per resource, while its table is unchanged (a lookup is about 1 kB). */
export const ANSWER_CACHE_LIMITS = { entries: 10_000, bytes: 16 * 1024 * 1024 };
type Row = Record<string, unknown>;

/**
 * The interface's five routes of one resource, written once for all of them: statuses, headers and
 * bodies. What a record may be and how it is stored are the catalogue's (resources/writes.ts);
 * answers that depend on one table are served from the caches while it is unchanged.
 */
export function crudRoutes(app: FastifyInstance, resource: AnyResource, db: Db, relations: Relations, versions: Versions, timeZone: string, options = { writes: true }): void {
  const { nouns, table, key, lookup } = resource;
  const schema = routeSchemas(resource, relations);
  const names = relationNames(relations);
  const route = (operation: 'read' | 'create' | 'update' | 'remove') => ({ nouns, operation });
  const wholeTable = fullList(db, versions, table, key.name, resource.representation);
  // Lookups and pages with no relations attached depend on this table alone.
  const answers = answerCache(versions, table, ANSWER_CACHE_LIMITS, () => sqliteDurable(db));
  // A lookup by the key or by the one unique field depends on the record's own row; the
  // participations' (the lowest id of a kind) on every row of the table.
  const lookupNamesOne = lookup.param === key.name || (resource.unique.length === 1 && resource.unique[0] === lookup.param);

  async function attach(rows: Row[], query: Pick<ListQuery, 'expand' | 'embed'>) {
    for (const name of query.expand) await relations.expand[name]?.attach(db, rows, name);
    for (const name of query.embed) await relations.embed[name]?.attach(db, rows, name);
  }
  const located = resource.coordinates !== undefined;
  // A page found by its venue's place depends on the venues too: not kept.
  const cacheFor = (query: Pick<ListQuery, 'expand' | 'embed' | 'geo'>) =>
    query.expand.length === 0 && query.embed.length === 0 && !(query.geo && resource.coordinates === 'venue') ? answers : undefined;

  async function page(raw: RawQuery, query: ListQuery, state: TableState) {
    const { rows, total } = await listRows(db, { table, key: key.name, kinds: resource.kinds, coordinates: resource.coordinates }, query, state.rows);
    const headers: Record<string, string> = { 'x-total-count': String(total) };
    if (query.window) headers.link = linkHeader(resource.path, listParams(raw, resource.kinds, located), query.window, total);
    return { rows: rows as Row[], headers };
  }

  app.get(schema.paths.list, { schema: schema.list, config: route('read') }, async (request, reply) => {
    const raw = request.query as RawQuery;
    // Without list parameters, the interface's own answer: the whole table.
    if (!usesListQuery(raw, resource.kinds, located)) {
      const list = await wholeTable();
      reply.type('application/json; charset=utf-8');
      return 'stream' in list ? reply.send(list.stream) : reply.header('etag', list.etag).send(list.body);
    }
    const query = parseListQuery(raw, resource.kinds, names, timeZone, located);
    // Keyed by the URL as sent: the Link header repeats its parameters.
    const cached = await cacheFor(query)?.(request.url, async (state) => {
      const { rows, headers } = await page(raw, query, state);
      return { body: `[${rows.map(resource.representation).join(',')}]`, headers };
    });
    if (cached) return sendCached(reply, cached);
    const { rows, headers } = await page(raw, query, await versions.of(table));
    await attach(rows, query);
    return reply.headers(headers).send(rows);
  });

  app.get(schema.paths.byLookup, { schema: schema.lookup, config: route('read') }, async (request, reply) => {
    const value = paramOf<string | number>(request, lookup.param);
    const raw = request.query as RawQuery;
    const wanted = { expand: parseRelations('_expand', raw, names.expand), embed: parseRelations('_embed', raw, names.embed) };
    const missing = () => notFound(messages.notFoundByLookup(nouns, value));
    const cache = cacheFor(wanted);
    if (cache) {
      const answer = await cache(`${lookup.param}/${String(value)}`, async () => {
        const record = await resource.queries(db).find(value);
        // Kept while what it was read from is unchanged: its record's row, or the whole table.
        return record && { body: resource.representation(record), record: lookupNamesOne ? (record[key.name] as number) : undefined };
      });
      if (!answer) throw missing();
      return sendCached(reply, answer);
    }
    const record = await resource.queries(db).find(value);
    if (!record) throw missing();
    await attach([record], wanted);
    return record;
  });

  // A resource whose writes carry more than JSON (an image's file) has routes of its own for them.
  if (!options.writes) return;

  app.post(schema.paths.list, { schema: schema.create, config: route('create') }, async (request, reply) => {
    // Ajv has validated the body against schemas.create.
    const created = await createRecord(db, resource, request.body as Row, { quien: request.quien });
    return reply.code(201).header('location', resource.location(created)).send(created);
  });

  app.put(schema.paths.one, { schema: schema.update, config: route('update') }, async (request) => {
    const id = paramOf<number>(request, key.name);
    // Ajv has validated the body against schemas.update.
    return found(resource, id, await replaceRecord(db, resource, id, request.body as Row, { quien: request.quien }, ifMatch(request)));
  });

  app.patch(schema.paths.one, { schema: schema.patch, config: route('update') }, async (request) => {
    const id = paramOf<number>(request, key.name);
    // Ajv has validated the body against schemas.patch.
    return found(resource, id, await patchRecord(db, resource, id, request.body as Row, { quien: request.quien }, ifMatch(request)));
  });

  app.delete(schema.paths.one, { schema: schema.remove, config: route('remove') }, async (request, reply) => {
    const id = paramOf<number>(request, key.name);
    if (!(await removeRecord(db, resource, id, { quien: request.quien }, ifMatch(request)))) throw notFound(messages.notFoundById(nouns, id));
    return reply.send({
      type: 'Success',
      code: '200',
      details: messages.deleted(nouns, id),
      location: requestPath(request),
      timestamp: localDateTime(),
    });
  });
}

function sendCached(reply: FastifyReply, answer: CachedAnswer) {
  sendingKept(reply.request, answer);
  return reply.headers(answer.headers).send(answer.body);
}

function paramOf<T>(request: FastifyRequest, name: string): T {
  // Ajv has validated (and normalized) the path parameters against the route's schema.
  return (request.params as Record<string, T>)[name] as T;
}
