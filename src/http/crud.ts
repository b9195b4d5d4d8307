import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static, type TObject, type TProperties, type TSchema } from 'typebox';
import { lockRow } from '../db/dialect.js';
import { violationOf } from '../db/errors.js';
import { listRows } from '../db/listing.js';
import type { Database, Db } from '../db/schema.js';
import type { Versions } from '../db/versions.js';
import type { Relations } from '../resources/relations.js';
import { answerCache, type CachedAnswer } from './answerCache.js';
import { checkIfMatch } from './conditional.js';
import { fullList } from './fullList.js';
import { routeDocs, type CrudOperation } from './openapi.js';
import { badRequest, ErrorBody, notFound, requestPath } from './errors.js';
import { fieldKinds, linkHeader, listQuerySchema, parseListQuery, parseRelations, usesListQuery, type RawQuery } from './listQuery.js';
import { messages, type Nouns, type Operation } from './messages.js';
import { localDateTime } from './time.js';

/** The queries one resource needs; each resource writes its own, explicit SQL. */
export interface Store<Item, Create, Fields, Lookup> {
  list(): Promise<Item[]>;
  find(lookup: Lookup): Promise<Item | undefined>;
  /** The record with this key. */
  get(key: number): Promise<Item | undefined>;
  create(input: Create): Promise<Item>;
  update(key: number, fields: Fields): Promise<Item | undefined>;
  /** False when there was nothing to delete. */
  remove(key: number): Promise<boolean>;
  /** After the store refused a write for a foreign key: a sentence per missing reference. */
  missingReferences?(fields: Fields): Promise<string[]>;
  /** After the store refused a delete for a foreign key: why the record is still needed. */
  stillUsed?(key: number): Promise<string>;
}

export interface ResourceDefinition<
  K extends string,
  F extends TProperties,
  L extends TSchema,
  ClientKey extends boolean,
> {
  /** Base path, exactly as the interface spells it. */
  path: string;
  /** The record's English name, for the API description: "movie". */
  english: string;
  /** The table its records live in. */
  table: keyof Database;
  nouns: Nouns;
  /** The record's key: its name and type. */
  key: { name: K; schema: TSchema; chosenByClient: ClientKey };
  /** Every other field, each declared once. */
  fields: F;
  /** The path parameter of `GET {path}/{param}`. */
  lookup: { param: string; schema: L };
  /** A record as answered, for the API description. */
  example: Record<K, number> & Static<TObject<F>>;
  /** Where a created record can be read back (the 201's Location header). */
  location(item: Record<K, number> & Static<TObject<F>>): string;
  /** The value the "Ya existe…" sentence names. */
  uniqueValue(input: Static<TObject<F>> & Partial<Record<K, number>>): unknown;
  store(
    db: Db,
  ): Store<
    Record<K, number> & Static<TObject<F>>,
    ClientKey extends true ? Record<K, number> & Static<TObject<F>> : Static<TObject<F>>,
    Static<TObject<F>>,
    Static<L>
  >;
}

export const DeleteBody = Type.Object({
  type: Type.Literal('Success'),
  code: Type.Literal('200'),
  details: Type.String({ examples: ['la obra con el id: 4. fue eliminada correctamente.'] }),
  location: Type.String({ examples: ['/Obras/4'] }),
  timestamp: Type.String({ examples: ['2025-10-10T12:30:05'] }),
});

export interface CrudResource {
  path: string;
  table: keyof Database;
  nouns: Nouns;
  /** The record as answered. */
  item: TObject;
  register(app: FastifyInstance, db: Db, relations: Relations, versions: Versions): void;
}

const errors = { '4xx': ErrorBody, '5xx': ErrorBody };
/** Lookups and pages answered from memory per resource, while its table is unchanged (a lookup is about 1 kB). */
const ANSWER_CACHE_LIMITS = { entries: 10_000, bytes: 16 * 1024 * 1024 };
type Row = Record<string, unknown>;

/**
 * The routes of a resource, written once: statuses, the error body, Location, the delete body,
 * list parameters, relations, conditional writes and the mapping of integrity refusals to the
 * contract's 400s all live here.
 */
export function defineResource<
  K extends string,
  F extends TProperties,
  L extends TSchema,
  ClientKey extends boolean,
>(def: ResourceDefinition<K, F, L, ClientKey>): CrudResource {
  const { path, table, nouns, key, lookup } = def;
  const Item = Type.Object({ [key.name]: key.schema, ...def.fields }, { examples: [def.example] });
  const Fields = Type.Object(def.fields);
  const Create = key.chosenByClient ? Item : Fields;
  const Update = Type.Object({ ...def.fields, [key.name]: Type.Optional(key.schema) });
  const Patch = Type.Partial(Update);
  const KeyParams = Type.Object({ [key.name]: key.schema });
  const LookupParams = Type.Object({ [lookup.param]: lookup.schema });
  const kinds = fieldKinds(Item);
  const fieldNames = Object.keys(def.fields);
  const route = (operation: Operation) => ({ nouns, operation });
  const one = `${path}/:${key.name}`;
  const docs = (routePath: string, operation: CrudOperation) => routeDocs(routePath, operation, def.english);

  /** The record exactly as GET answers it, which is what its ETag is computed from. */
  const representation = (record: Row) => JSON.stringify(Object.fromEntries(Object.keys(Item.properties).map((k) => [k, record[k]])));

  function register(app: FastifyInstance, db: Db, relations: Relations, versions: Versions) {
    const store = def.store(db);
    const wholeTable = fullList(db, versions, table, key.name, representation);
    // Lookups and pages with no relations attached depend on this table alone.
    const answers = versions.inMemory ? answerCache(versions, table, ANSWER_CACHE_LIMITS) : undefined;
    type Item = Awaited<ReturnType<typeof store.list>>[number];
    type Fields = Parameters<typeof store.update>[1];
    type Body = Fields & Partial<Record<K, number>>;

    const names = { expand: Object.keys(relations.expand), embed: Object.keys(relations.embed) };
    // The record, plus whatever _expand/_embed may attach.
    const Answer = Type.Object({
      ...Item.properties,
      ...Object.fromEntries(
        [...Object.entries(relations.expand), ...Object.entries(relations.embed)].map(([name, r]) => [name, Type.Optional(r.schema)]),
      ),
    });
    async function attach(rows: Row[], query: { expand: string[]; embed: string[] }) {
      for (const name of query.expand) await relations.expand[name]?.attach(db, rows, name);
      for (const name of query.embed) await relations.embed[name]?.attach(db, rows, name);
    }

    /** Runs a write, turning the store's integrity refusals into the contract's 400s. */
    async function guarded<T>(body: () => Body, write: () => Promise<T>): Promise<T> {
      try {
        return await write();
      } catch (error) {
        switch (violationOf(error)) {
          case 'unique':
            throw badRequest(messages.duplicate(nouns, def.uniqueValue(body())));
          case 'foreign_key': {
            const missing = (await store.missingReferences?.(body())) ?? [];
            throw badRequest(missing.join(' ') || messages.brokenReference);
          }
          case 'check':
            throw badRequest(messages.badRequest);
          default:
            throw error;
        }
      }
    }

    /** Runs `write` on the record in a transaction, after checking the request's If-Match against it. */
    function conditionally<T>(request: FastifyRequest, id: number, write: (current: Item | undefined, s: typeof store) => Promise<T>) {
      return db.transaction().execute(async (trx) => {
        const s = def.store(trx);
        await lockRow(trx, table, key.name, id);
        const current = await s.get(id);
        checkIfMatch(request, current && representation(current));
        return write(current, s);
      });
    }

    app.get(
      path,
      {
        schema: { ...docs(path, 'list'), querystring: listQuerySchema(kinds, names), response: { 200: Type.Array(Answer), ...errors } },
        config: route('read'),
      },
      async (request, reply) => {
        const raw = request.query as RawQuery;
        // Without list parameters, the interface's own answer: the whole table.
        if (!usesListQuery(raw, kinds)) return wholeTable(reply);
        const query = parseListQuery(raw, kinds, names);
        // Keyed by the URL as sent: the Link header repeats its parameters.
        const cached = answers && query.expand.length === 0 && query.embed.length === 0
          ? await answers(request.url, async () => {
            const { rows, total } = await listRows(db, { table, key: key.name, kinds }, query);
            const headers: Record<string, string> = { 'x-total-count': String(total) };
            if (query.window) headers.link = linkHeader(path, raw, query.window, total);
            return { body: `[${rows.map((row) => representation(row as Row)).join(',')}]`, headers };
          })
          : undefined;
        if (cached) return sendCached(reply, cached);
        const { rows, total } = await listRows(db, { table, key: key.name, kinds }, query);
        await attach(rows as Row[], query);
        reply.header('x-total-count', total);
        if (query.window) reply.header('link', linkHeader(path, raw, query.window, total));
        return rows;
      },
    );

    app.get(
      `${path}/:${lookup.param}`,
      {
        schema: {
          ...docs(`${path}/:${lookup.param}`, 'read'),
          params: LookupParams,
          querystring: listQuerySchema({}, names),
          response: { 200: Answer, ...errors },
        },
        config: route('read'),
      },
      async (request, reply) => {
        const value = paramOf<Static<L>>(request, lookup.param);
        const raw = request.query as RawQuery;
        const wanted = { expand: parseRelations('_expand', raw, names.expand), embed: parseRelations('_embed', raw, names.embed) };
        if (answers && wanted.expand.length === 0 && wanted.embed.length === 0) {
          const answer = await answers(`${lookup.param}/${String(value)}`, async () => {
            const found = await store.find(value);
            return found && { body: representation(found) };
          });
          if (!answer) throw notFound(messages.notFoundByLookup(nouns, value));
          return sendCached(reply, answer);
        }
        const found = await store.find(value);
        if (!found) throw notFound(messages.notFoundByLookup(nouns, value));
        await attach([found], wanted);
        return found;
      },
    );

    app.post(
      path,
      { schema: { ...docs(path, 'create'), body: Create, response: { 201: Item, ...errors } }, config: route('create') },
      async (request, reply) => {
        // Ajv has validated the body against Create.
        const body = request.body as Parameters<typeof store.create>[0] & Body;
        const created = await guarded(() => body, () => store.create(body));
        return reply.code(201).header('location', def.location(created)).send(created);
      },
    );

    app.put(
      one,
      { schema: { ...docs(one, 'update'), params: KeyParams, body: Update, response: { 200: Item, ...errors } }, config: route('update') },
      async (request) => {
        const id = paramOf<number>(request, key.name);
        // Ajv has validated the body against Update.
        const body = request.body as Body;
        const fields = withoutKey(body, id) as Fields;
        const updated = await guarded(
          () => body,
          () => (request.headers['if-match'] === undefined ? store.update(id, fields) : conditionally(request, id, (_, s) => s.update(id, fields))),
        );
        return updated ?? notFoundThrow(messages.notFoundById(nouns, id));
      },
    );

    app.patch(
      one,
      { schema: { ...docs(one, 'patch'), params: KeyParams, body: Patch, response: { 200: Item, ...errors } }, config: route('update') },
      async (request) => {
        const id = paramOf<number>(request, key.name);
        // A JSON merge patch (RFC 7396), each field validated as in PUT; the rest is kept.
        const patch = withoutKey(request.body as Partial<Body>, id);
        let merged: Body | undefined;
        const patched = await guarded(
          () => merged ?? (patch as Body),
          () =>
            conditionally(request, id, (current, s) => {
              if (!current) return Promise.resolve(undefined);
              merged = { ...pick(current, fieldNames), ...patch } as Body;
              return s.update(id, merged as Fields);
            }),
        );
        return patched ?? notFoundThrow(messages.notFoundById(nouns, id));
      },
    );

    app.delete(
      one,
      { schema: { ...docs(one, 'remove'), params: KeyParams, response: { 200: DeleteBody, ...errors } }, config: route('remove') },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const id = paramOf<number>(request, key.name);
        let removed: boolean;
        try {
          removed = await (request.headers['if-match'] === undefined
            ? store.remove(id)
            : conditionally(request, id, (_, s) => s.remove(id)));
        } catch (error) {
          if (violationOf(error) !== 'foreign_key' || !store.stillUsed) throw error;
          throw badRequest(await store.stillUsed(id));
        }
        if (!removed) throw notFound(messages.notFoundById(nouns, id));
        return reply.send({
          type: 'Success',
          code: '200',
          details: messages.deleted(nouns, id),
          location: requestPath(request),
          timestamp: localDateTime(),
        });
      },
    );

    /** The body without its key, which must name the same record as the path (or be absent). */
    function withoutKey<B extends Partial<Body>>(body: B, id: number): Omit<B, K> {
      const { [key.name]: bodyKey, ...rest } = body;
      if (bodyKey !== undefined && bodyKey !== id) throw badRequest(messages.keyMismatch(key.name, bodyKey, id));
      return rest as Omit<B, K>;
    }
  }

  return { path, table, nouns, item: Item, register };
}

function sendCached(reply: FastifyReply, answer: CachedAnswer) {
  return reply.type('application/json; charset=utf-8').headers(answer.headers).header('etag', answer.etag).send(answer.body);
}

function pick(record: Row, names: string[]): Row {
  return Object.fromEntries(names.map((name) => [name, record[name]]));
}

function paramOf<T>(request: FastifyRequest, name: string): T {
  // Ajv has validated (and normalized) the path parameters against the route's schema.
  return (request.params as Record<string, T>)[name] as T;
}

function notFoundThrow(details: string): never {
  throw notFound(details);
}
