import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { comparable } from '../../src/catalogue/comparable.js';
import type { Db } from '../../src/db/schema.js';
import { etagOf } from '../../src/cache/etag.js';
import { buildTestApp, DELETE_TIMESTAMP, ERROR_TIMESTAMP } from '../helpers.js';
import { seedFor } from '../random.js';
import { backend, migratedStore, type MigratedStore } from '../stores.js';
import { describeApi, type Api, type ResourceSpec } from './api.js';
import { JSON_TYPES, NON_JSON_TYPES, recipe, render, validCreates, type Sent } from './generators.js';
import { accepted, Catalogue, deletionOrder, parseBody, REFERENCES, type Json } from './model.js';

/** How the contract words a delete's success, per resource (the spec's "la pelicula", unaccented). */
const DELETED: Record<string, (key: number) => string> = {
  peliculas: (key) => `la pelicula con el id: ${key}. fue eliminada correctamente.`,
  Obras: (key) => `la obra con el id: ${key}. fue eliminada correctamente.`,
  eventosUrbanos: (key) => `el evento con el id: ${key}. fue eliminado correctamente.`,
  artistas: (key) => `el artista con el id: ${key}. fue eliminado correctamente.`,
  categorias: (key) => `la categoría con el id: ${key}. fue eliminada correctamente.`,
  participaciones: (key) => `la participación con el id: ${key}. fue eliminada correctamente.`,
  lugares: (key) => `el lugar con el id: ${key}. fue eliminado correctamente.`,
  funciones: (key) => `la función con el id: ${key}. fue eliminada correctamente.`,
};

// Generated requests on every route, hostile and valid alike. Every answer must keep the contract
// (never a 5xx; every refusal in the error body; the exact status whenever the model can tell it),
// and after each run the store must hold exactly what the successful answers said it holds.
// FUZZ_RUNS sets how many runs (sequences of requests on an emptied store); TEST_SEED and
// FUZZ_PATH replay a failure that fast-check reported.

const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
const PATH = process.env.FUZZ_PATH;
/** Each run: some valid creates to start from, then anything. */
const CREATES_PER_RUN = { maxLength: 24, size: 'max' } as const;
const REQUESTS_PER_RUN = { minLength: 5, maxLength: 80 };

// 414: a path parameter longer than the router takes.
const ALLOWED = new Set([200, 201, 204, 302, 304, 400, 404, 405, 412, 413, 414, 415]);
const LEAK = /SQLITE_|sqlite3|syntax error|violates|duplicate key|node_modules|\bat .+:\d+:\d+/i;
/** Relation name → the field whose reference `_expand` follows. */
const EXPANDS: Record<string, string> = { categoria: 'categoria_id', artista: 'artistas_dni', evento: 'evento_id', lugar: 'lugar_id' };

/** What the contract says the answer must be, when the model can tell. */
interface Expected {
  /** The status, or the statuses when several refusals apply and the contract does not rank them. */
  status: number | number[];
  /** The single record a 200/201 answers (without relations). */
  record?: Json;
  /** The whole list a plain list answers. */
  list?: Json[];
}

const pick = (record: Json, names: string[]): Json => Object.fromEntries(names.map((n) => [n, record[n]]));
const hasSurrogate = (text: string) => /\p{Cs}/u.test(text);

/** The body as the service parses it, or the status it refuses it with; undefined when the content type is not one the model knows. */
function bodyOutcome(request: Sent['request'], decimalFields: ReadonlySet<string>): { status: number } | { body: unknown } | undefined {
  const { payload } = request;
  const type = request.headers['content-type'];
  if (payload === undefined || (payload === '' && type === undefined)) return { body: undefined };
  if (type === undefined || NON_JSON_TYPES.includes(type)) return { status: 415 };
  if (!JSON_TYPES.includes(type)) return undefined;
  if (Buffer.byteLength(payload) > 1024 * 1024) return { status: 413 };
  const parsed = parseBody(payload, decimalFields);
  return parsed ? { body: parsed.value } : { status: 400 };
}

/** Whether If-Match lets a write of `record` through (RFC 9110: strong comparison, or `*`). */
function ifMatchHolds(header: string, record: Json, spec: ResourceSpec): boolean {
  if (header.trim() === '*') return true;
  const etag = etagOf(JSON.stringify(pick(record, spec.answered)));
  return [...header.matchAll(/(W\/)?("[^"]*")/g)].some(([, weak, opaque]) => weak === undefined && opaque === etag);
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The status (and record) the contract requires of a write, given what is stored. */
function expectWrite(sent: Sent, spec: ResourceSpec, model: Catalogue, key: number | undefined): Expected | undefined {
  const { recipe: r, request } = sent;
  // The fields any resource keeps to 6 decimals (a venue's coordinates): their literals are rounded, never refused.
  const decimalFields = new Set(model.specs.flatMap((s) => s.fields.filter((f) => f.kind === 'number').map((f) => f.name)));
  const outcome = bodyOutcome(request, decimalFields);
  if (outcome === undefined) return undefined;
  if ('status' in outcome) return { status: outcome.status };
  if (r.op !== 'create' && key === undefined) return { status: 400 };
  if (r.op === 'remove') {
    const current = model.get(spec.path, key as number);
    const ifMatch = request.headers['if-match'];
    if (ifMatch !== undefined && (!current || !ifMatchHolds(ifMatch, current, spec))) return { status: 412 };
    if (!current) return { status: 404 };
    return { status: model.usesOf(spec.path, key as number) > 0 ? 400 : 200 };
  }
  const body = outcome.body;
  if (!isObject(body)) return { status: 400 };
  const fields: Json = {};
  const required = r.op === 'create' && spec.clientKey ? [spec.key, ...spec.fields] : spec.fields;
  for (const field of required) {
    if (!Object.hasOwn(body, field.name)) {
      if (r.op === 'patch') continue;
      // A create or PUT that leaves out an optional field gives it its default (or null).
      if (!field.optional) return { status: 400 };
      fields[field.name] = field.fallback;
      continue;
    }
    const value = accepted(field, body[field.name]);
    if (value === undefined) return { status: 400 };
    fields[field.name] = value;
  }
  if (r.op === 'create') {
    if (model.refuses(spec, fields)) return { status: 400 };
    return { status: 201, record: fields };
  }
  // The key in a PUT or PATCH body must be valid and name the path's record, or be absent.
  if (Object.hasOwn(body, spec.key.name) && accepted(spec.key, body[spec.key.name]) !== key) return { status: 400 };
  const current = model.get(spec.path, key as number);
  const ifMatch = request.headers['if-match'];
  if (ifMatch !== undefined && (!current || !ifMatchHolds(ifMatch, current, spec))) return { status: 412 };
  if (!current) return { status: 404 };
  const record = pick({ ...current, ...fields, [spec.key.name]: key }, spec.answered);
  return model.refuses(spec, record, key) ? { status: 400 } : { status: 200, record };
}

function expectRead(sent: Sent, spec: ResourceSpec, model: Catalogue): Expected | undefined {
  const { recipe: r, request } = sent;
  const notModified = request.headers['if-none-match']?.trim() === '*';
  if (r.op === 'list') {
    if (r.query.length > 0) return undefined;
    return notModified ? { status: 304 } : { status: 200, list: model.records(spec.path) };
  }
  if (r.op !== 'lookup' || typeof sent.param !== 'object') return undefined;
  const value = accepted(spec.lookup, sent.param.value);
  // A lookup is by text or by integer: a path segment is never null nor a boolean.
  if (value === undefined || value === null || typeof value === 'boolean') return { status: 400 };
  const found = model.find(spec, value);
  if (r.query.some(([k, v]) => hasSurrogate(k) || hasSurrogate(v))) return found ? undefined : { status: [400, 404] };
  const badRelation = (['_expand', '_embed'] as const).some((param) => {
    const allowed: string[] = param === '_expand' ? spec.expand : spec.embed;
    const names = r.query.filter(([k]) => k === param).flatMap(([, v]) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
    return names.some((n) => !allowed.includes(n));
  });
  if (!found) return { status: badRelation ? [400, 404] : 404 };
  if (badRelation) return { status: 400 };
  return notModified ? { status: 304 } : { status: 200, record: found };
}

function expectOther(sent: Sent, api: Api): Expected | undefined {
  const { method, url, headers, payload } = sent.request;
  if (payload !== undefined || url.includes('%')) return undefined;
  if (method === 'OPTIONS' && headers.origin !== undefined) return { status: 204 };
  const methods = url === '/openapi.json' ? ['GET', 'HEAD'] : api.otherMethods[url];
  if (!methods) return undefined;
  if (!methods.includes(method)) return { status: 405 };
  // Reads answer; a write there (an upload to /importar) is judged by its own tests.
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  return { status: api.otherNeedsQuery.has(url) ? 400 : 200 };
}

function expectation(sent: Sent, api: Api, model: Catalogue): Expected | undefined {
  const { recipe: r, spec } = sent;
  if (r.op === 'other') return expectOther(sent, api);
  if (!spec) return undefined;
  if (sent.param === 'bad-url') return { status: 400 };
  if (sent.param === 'unpredictable') return undefined;
  switch (r.op) {
    case 'list':
    case 'lookup':
      return expectRead(sent, spec, model);
    case 'method':
      return { status: 405 };
    case 'create':
      return expectWrite(sent, spec, model, undefined);
    default: {
      const key = typeof sent.param === 'object' ? accepted(spec.key, sent.param.value) : undefined;
      return expectWrite(sent, spec, model, typeof key === 'number' ? key : undefined);
    }
  }
}

/** A record as a list or lookup answers it, with the relation `name` attached as the model says. */
function attachment(api: Api, model: Catalogue, spec: ResourceSpec, record: Json, name: string): unknown {
  const referenceOf = (from: string, field: string) => REFERENCES[from]?.find((r) => r.field === field);
  const follow = (from: string, row: Json, field: string) => {
    const target = referenceOf(from, field)?.target(row);
    return target === undefined ? undefined : model.get(target, Number(row[field]));
  };
  const expandField = EXPANDS[name];
  if (spec.expand.includes(name) && expandField) return follow(spec.path, record, expandField);
  // The generated requests upload no images (a multipart route of its own, tested in images.test.ts): a record's images are none.
  if (name === 'imagenes' && spec.embed.includes(name)) return [];
  const embedded = api.resources.find((s) => s.path === `/${name}`);
  if (!spec.embed.includes(name) || !embedded) throw new Error(`${spec.path}: unknown relation ${name}`);
  const back = (REFERENCES[embedded.path] ?? []).filter((r) => r.targets.includes(spec.path));
  return model
    .records(embedded.path)
    .filter((row) => back.some((r) => r.target(row) === spec.path && row[r.field] === record[spec.key.name]))
    .map((row) => {
      // Each embedded record carries the other side of the relation: an artist's items, an item's artists.
      const other = embedded.expand.filter((n) => !back.some((r) => r.field === EXPANDS[n]));
      return { ...row, ...Object.fromEntries(other.map((n) => [n, follow(embedded.path, row, EXPANDS[n] ?? '')])) };
    });
}

describe(`hostile input on every route (${backend})`, () => {
  let store: MigratedStore;
  let app: FastifyInstance;
  let db: Db;
  let api: Api;
  before(async () => {
    // The same store through the service and directly, to check what it really holds.
    store = await migratedStore();
    db = store.db;
    app = await buildTestApp({ DATABASE_URL: store.url });
    api = await describeApi(app);
  });
  after(async () => {
    await app?.close();
    await store?.drop();
  });

  it('when thousands of generated requests hit every route, then each answer keeps the contract and the store holds exactly what the successes said', async (t) => {
    const statuses = new Map<number, number>();
    const sentByRoute = new Map<string, number>();
    const succeededByRoute = new Map<string, number>();
    let predicted = 0;

    const describeExchange = (sent: Sent, res: LightMyRequestResponse) => {
      const { method, url, headers, payload } = sent.request;
      const shown = payload === undefined ? '' : ` ${payload.length > 300 ? `${payload.slice(0, 300)}… (${payload.length} chars)` : payload}`;
      return `${method} ${url.slice(0, 300)} ${JSON.stringify(headers)}${shown}\n  → ${res.statusCode} ${res.body.slice(0, 500)}`;
    };

    function assertErrorBody(res: LightMyRequestResponse, where: string) {
      assert.match(String(res.headers['content-type']), /^application\/json/, where);
      const body = res.json<Json>();
      assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'location', 'moreInfo', 'timestamp', 'type'], where);
      assert.equal(body.type, 'error', where);
      assert.equal(body.code, String(res.statusCode), where);
      assert.equal(body.location, `uri=${(res.raw.req.url ?? '').split('?')[0]}`, where);
      assert.match(String(body.timestamp), ERROR_TIMESTAMP, where);
      for (const text of [body.details, body.moreInfo]) {
        assert.ok(typeof text === 'string' && text.length > 0, where);
        assert.doesNotMatch(text, LEAK, where);
      }
    }

    /** What holds of every answer, whatever the request. */
    function assertContract(sent: Sent, res: LightMyRequestResponse, where: string) {
      const { method, url, headers } = sent.request;
      const status = res.statusCode;
      // A workbook cannot hold a control character other than tab and line breaks: the .xlsx and
      // .ods exports refuse a store that holds one with 422, naming the record and field.
      const workbookRefused = status === 422 && method === 'GET' && /^\/exportar\.(xlsx|ods)(\?|$)/.test(url) && /carácter de control/.test(res.body);
      assert.ok(ALLOWED.has(status) || workbookRefused, `status ${status} is not one the contract answers: ${where}`);
      if (status === 201) assert.ok(method === 'POST' && res.headers.location, where);
      if (status === 204) assert.ok(method === 'OPTIONS' && headers.origin !== undefined, where);
      // /docs/ redirects inside itself; / and /admin lead to the browser admin at /admin/.
      // '/..' and the like resolve to '/' before they are routed.
      if (status === 302) assert.ok(url.startsWith('/docs/') || ['/', '/admin'].includes(new URL(url, 'http://x').pathname), where);
      if (status === 304) assert.ok(headers['if-none-match'] !== undefined, where);
      if (status === 405) {
        const allow = String(res.headers.allow ?? '');
        assert.ok(allow !== '' && !allow.split(', ').includes(method), `405 must list other methods in Allow: ${where}`);
      }
      if (method === 'HEAD') assert.equal(res.body, '', where);
      else if (status >= 400) assertErrorBody(res, where);
    }

    async function assertCreated(res: LightMyRequestResponse, record: Json, where: string) {
      const location = String(res.headers.location);
      const back = await app.inject({ method: 'GET', url: location });
      assert.equal(back.statusCode, 200, `Location ${location} reads back: ${where}`);
      const read = back.json<unknown>();
      assert.deepEqual(Array.isArray(read) ? read : [read], [record], `Location ${location} reads back the record: ${where}`);
    }

    /** Checks an answer against the model, and teaches the model what a successful write did. */
    async function step(sent: Sent, model: Catalogue) {
      const expected = expectation(sent, api, model);
      const res = await app.inject(sent.request as InjectOptions);
      const where = describeExchange(sent, res);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      sentByRoute.set(sent.label, (sentByRoute.get(sent.label) ?? 0) + 1);
      if (res.statusCode < 300 && sent.spec) succeededByRoute.set(sent.label, (succeededByRoute.get(sent.label) ?? 0) + 1);
      assert.ok(res.statusCode < 500, `a ${res.statusCode}: ${where}`);
      assertContract(sent, res, where);
      if (expected) {
        predicted++;
        const allowed = [expected.status].flat();
        assert.ok(allowed.includes(res.statusCode), `expected ${allowed.join(' or ')}: ${where}`);
      }
      const { recipe: r, spec } = sent;
      if (!spec || res.statusCode >= 300 || sent.request.method === 'HEAD') return;
      const isWrite = r.op === 'create' || r.op === 'replace' || r.op === 'patch' || r.op === 'remove';
      // A write the model cannot follow must not succeed: the store would then hold something unaccounted for.
      if (isWrite) assert.ok(expected, `unpredicted success: ${where}`);
      const body = res.json<unknown>();
      switch (r.op) {
        case 'create': {
          assert.ok(isObject(body), where);
          const key = body[spec.key.name];
          assert.ok(typeof key === 'number' && Number.isSafeInteger(key), where);
          assert.equal(model.get(spec.path, key), undefined, `a new key: ${where}`);
          const record = pick({ ...expected?.record, [spec.key.name]: key }, spec.answered);
          assert.deepEqual(Object.keys(body), spec.answered, `fields in order: ${where}`);
          assert.deepEqual(body, record, `the record as sent: ${where}`);
          model.put(spec.path, record);
          await assertCreated(res, record, where);
          break;
        }
        case 'replace':
        case 'patch':
          assert.deepEqual(body, expected?.record, `the record as changed: ${where}`);
          assert.deepEqual(Object.keys(body as Json), spec.answered, where);
          model.put(spec.path, body as Json);
          break;
        case 'remove': {
          const key = accepted(spec.key, (sent.param as { value: string }).value) as number;
          assert.deepEqual(Object.keys(body as Json).sort(), ['code', 'details', 'location', 'timestamp', 'type'], where);
          const { timestamp, ...rest } = body as Json;
          assert.match(String(timestamp), DELETE_TIMESTAMP, where);
          assert.deepEqual(rest, { type: 'Success', code: '200', details: DELETED[spec.resource.name]?.(key), location: sent.request.url }, where);
          model.remove(spec.path, key);
          break;
        }
        case 'lookup':
        case 'list': {
          const rows = r.op === 'list' ? body : [body];
          assert.ok(Array.isArray(rows), where);
          if (expected?.list) assert.deepEqual(rows, expected.list, `the whole list: ${where}`);
          if (expected?.record) assert.deepEqual(pick(rows[0] as Json, spec.answered), expected.record, where);
          // Whatever the filters, every record answered is one stored, exactly, with its relations.
          for (const row of rows as Json[]) {
            const stored = model.get(spec.path, Number(row[spec.key.name]));
            assert.deepEqual(pick(row, spec.answered), stored, `a stored record: ${where}`);
            for (const name of Object.keys(row).filter((k) => !spec.answered.includes(k))) {
              assert.deepEqual(row[name], attachment(api, model, spec, stored as Json, name), `relation ${name}: ${where}`);
            }
          }
          break;
        }
      }
    }

    /** The store holds exactly the model: through the service's lists, and read directly. */
    async function assertStoreHolds(model: Catalogue) {
      for (const spec of api.resources) {
        const res = await app.inject({ method: 'GET', url: spec.path });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), model.records(spec.path), `GET ${spec.path} answers what the successes said`);
        const { rows } = await sql<Json>`select * from ${sql.table(spec.resource.table)}`.execute(db);
        rows.sort((a, b) => Number(a[spec.key.name]) - Number(b[spec.key.name]));
        // As the API has a row (a boolean the store keeps as 0 or 1 is true or false): the resource's representation.
        assert.deepEqual(rows.map((row) => JSON.parse(spec.resource.representation(row)) as Json), model.records(spec.path), `${spec.resource.table} holds what the successes said`);
        for (const row of rows) {
          for (const field of spec.fields.filter((f) => `${f.name}_clave` in row)) {
            const value = row[field.name];
            assert.equal(row[`${field.name}_clave`], value === null ? null : comparable(String(value)), `${spec.resource.table}.${field.name}_clave`);
          }
        }
      }
    }

    async function emptyStore() {
      for (const path of deletionOrder(api.resources.map((s) => s.path))) {
        const spec = api.resources.find((s) => s.path === path);
        if (spec) await sql`delete from ${sql.table(spec.resource.table)}`.execute(db);
      }
    }

    const runs = fc.tuple(validCreates(api, CREATES_PER_RUN), fc.array(recipe(api), { ...REQUESTS_PER_RUN, size: 'max' }));
    const property = fc.asyncProperty(runs, async ([creates, recipes]) => {
      await emptyStore();
      const model = new Catalogue(api.resources);
      for (const r of [...creates, ...recipes]) await step(render(r, api, model), model);
      await assertStoreHolds(model);
    });

    // Every route of every resource, as the recipes label them.
    const routes = api.resources.flatMap((s) => [
      `GET ${s.path}`, `POST ${s.path}`, `GET ${s.path}/{${s.lookup.name}}`,
      ...['PUT', 'PATCH', 'DELETE'].map((m) => `${m} ${s.path}/{${s.key.name}}`),
    ]);
    const started = performance.now();
    try {
      await fc.assert(property, { numRuns: RUNS, includeErrorInReport: true, seed: seedFor(t), ...(PATH === undefined ? {} : { path: PATH }) });
    } finally {
      const count = (entries: Iterable<[unknown, number]>) => [...entries].reduce((sum, [, n]) => sum + n, 0);
      const inClass = (c: number) => count([...statuses].filter(([s]) => Math.floor(s / 100) === c));
      const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
      const writes = ['POST', 'PUT', 'PATCH', 'DELETE'].map((m) => `${m} ${count([...succeededByRoute].filter(([r]) => r.startsWith(`${m} `)))}`);
      const [fewest = '', least = 0] = routes.map((r) => [r, succeededByRoute.get(r) ?? 0] as const).sort(([, a], [, b]) => a - b)[0] ?? [];
      t.diagnostic(
        `fuzz on ${backend}: ${count(statuses)} requests in ${RUNS} runs, ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
          `2xx ${inClass(2)}, 3xx ${inClass(3)}, 4xx ${inClass(4)}, 5xx ${inClass(5)} (${byStatus}); ` +
          `${predicted} answered with the exact status the model predicted; successful writes: ${writes.join(', ')}; ` +
          `fewest successes on one route: ${least} (${fewest})`,
      );
    }

    // A replay of one failing case sends a few requests only; a full run must have reached every route.
    if (PATH === undefined) assert.deepEqual(routes.filter((route) => !sentByRoute.has(route)), [], 'routes never fuzzed');
  });
});
