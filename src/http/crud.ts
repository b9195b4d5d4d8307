import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static, type TObject, type TProperties, type TSchema } from 'typebox';
import { violationOf } from '../db/errors.js';
import type { Db } from '../db/schema.js';
import { badRequest, ErrorBody, notFound, requestPath, type RouteMeta } from './errors.js';
import { messages, type Nouns, type Operation } from './messages.js';
import { localDateTime } from './time.js';

/** The queries one resource needs; each resource writes its own, explicit SQL. */
export interface Store<Item, Create, Fields, Lookup> {
  list(): Promise<Item[]>;
  find(lookup: Lookup): Promise<Item | undefined>;
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
  nouns: Nouns;
  /** The record's key: its name and type. */
  key: { name: K; schema: TSchema; chosenByClient: ClientKey };
  /** Every other field, each declared once. */
  fields: F;
  /** The path parameter of `GET {path}/{param}`. */
  lookup: { param: string; schema: L };
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
  nouns: Nouns;
  register(app: FastifyInstance, db: Db): void;
}

const errors = { '4xx': ErrorBody, '5xx': ErrorBody };

/**
 * The five routes of a resource, written once: statuses, the error body, Location, the delete
 * body and the mapping of integrity refusals to the contract's 400s all live here.
 */
export function defineResource<
  K extends string,
  F extends TProperties,
  L extends TSchema,
  ClientKey extends boolean,
>(def: ResourceDefinition<K, F, L, ClientKey>): CrudResource {
  const { path, nouns, key, lookup } = def;
  const Item = Type.Object({ [key.name]: key.schema, ...def.fields });
  const Fields = Type.Object(def.fields);
  const Create = key.chosenByClient ? Item : Fields;
  const Update = Type.Object({ ...def.fields, [key.name]: Type.Optional(key.schema) });
  const KeyParams = Type.Object({ [key.name]: key.schema });
  const LookupParams = Type.Object({ [lookup.param]: lookup.schema });
  const route = (operation: Operation) => ({ nouns, operation }) satisfies RouteMeta;

  function register(app: FastifyInstance, db: Db) {
    const store = def.store(db);
    type Item = Awaited<ReturnType<typeof store.list>>[number];
    type Fields = Parameters<typeof store.update>[1];
    type Body = Fields & Partial<Record<K, number>>;

    /** Runs a write, turning the store's integrity refusals into the contract's 400s. */
    async function guarded<T>(body: Body, write: () => Promise<T>): Promise<T> {
      try {
        return await write();
      } catch (error) {
        switch (violationOf(error)) {
          case 'unique':
            throw badRequest(messages.duplicate(nouns, def.uniqueValue(body)));
          case 'foreign_key': {
            const missing = (await store.missingReferences?.(body)) ?? [];
            throw badRequest(missing.join(' ') || messages.brokenReference);
          }
          case 'check':
            throw badRequest(messages.badRequest);
          default:
            throw error;
        }
      }
    }

    app.get(path, { schema: { response: { 200: Type.Array(Item), ...errors } }, config: route('read') }, () =>
      store.list(),
    );

    app.get(
      `${path}/:${lookup.param}`,
      { schema: { params: LookupParams, response: { 200: Item, ...errors } }, config: route('read') },
      async (request) => {
        const value = paramOf<Static<L>>(request, lookup.param);
        return (await store.find(value)) ?? notFoundThrow(messages.notFoundByLookup(nouns, value));
      },
    );

    app.post(
      path,
      { schema: { body: Create, response: { 201: Item, ...errors } }, config: route('create') },
      async (request, reply) => {
        // Ajv has validated the body against Create.
        const body = request.body as Parameters<typeof store.create>[0] & Body;
        const created = await guarded(body, () => store.create(body));
        return reply.code(201).header('location', def.location(created)).send(created);
      },
    );

    app.put(
      `${path}/:${key.name}`,
      { schema: { params: KeyParams, body: Update, response: { 200: Item, ...errors } }, config: route('update') },
      async (request) => {
        const id = paramOf<number>(request, key.name);
        // Ajv has validated the body against Update.
        const { [key.name]: bodyKey, ...fields } = request.body as Body;
        if (bodyKey !== undefined && bodyKey !== id) {
          throw badRequest(messages.keyMismatch(key.name, bodyKey, id));
        }
        const updated: Item | undefined = await guarded(request.body as Body, () =>
          store.update(id, fields as Fields),
        );
        return updated ?? notFoundThrow(messages.notFoundById(nouns, id));
      },
    );

    app.delete(
      `${path}/:${key.name}`,
      { schema: { params: KeyParams, response: { 200: DeleteBody, ...errors } }, config: route('remove') },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const id = paramOf<number>(request, key.name);
        let removed: boolean;
        try {
          removed = await store.remove(id);
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
  }

  return { path, nouns, register };
}

function paramOf<T>(request: FastifyRequest, name: string): T {
  // Ajv has validated (and normalized) the path parameters against the route's schema.
  return (request.params as Record<string, T>)[name] as T;
}

function notFoundThrow(details: string): never {
  throw notFound(details);
}
