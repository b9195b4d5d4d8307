import fc from 'fast-check';
import { etagOf } from '../../src/cache/etag.js';
import type { Api, Field, ResourceSpec } from './api.js';
import { deletionOrder, REFERENCES, type Catalogue, type Json } from './model.js';

/**
 * Recipes of requests, as fast-check generates (and shrinks) them. A recipe names stored records
 * by position (`{ stored: 3 }`), not by key, and is rendered into an HTTP request only when it is
 * sent, against the records stored at that moment, so that shrinking keeps it meaningful.
 */

/** The text of one JSON value; `repeat` stands for a long string without printing it whole. */
export type Literal = string | { repeat: string; times: number };
/** A body field: a literal, the key of a stored record of the resource the field refers to, or the path's key. */
export type Value = { json: Literal } | { ref: number } | { pathKey: true };
export type Body = { object: [string, Value][] } | { text: string } | { megabytes: number } | 'none';
/** A path parameter: a stored record's (slightly altered), one unlikely to be stored, any text, or raw URL text. */
export type Segment = { stored: number; variant: number } | { absent: number } | { text: string } | { raw: string; times: number };
export type IfMatch = 'none' | 'current' | 'star' | 'stale' | 'weak' | 'list' | { garbage: string };
type Pairs = [string, string][];

export type Recipe =
  | { op: 'list'; res: number; head: boolean; query: Pairs; ifNoneMatch: string | null }
  | { op: 'lookup'; res: number; head: boolean; segment: Segment; query: Pairs; ifNoneMatch: string | null }
  | { op: 'create'; res: number; body: Body; contentType: string | null }
  | { op: 'replace' | 'patch'; res: number; segment: Segment; body: Body; contentType: string | null; ifMatch: IfMatch }
  | { op: 'remove'; res: number; segment: Segment; ifMatch: IfMatch }
  | { op: 'method'; res: number; method: string; segment: Segment | null }
  | { op: 'other'; method: string; path: string; preflight: boolean; body: Body; contentType: string | null };

// ---------------------------------------------------------------- values

const SQL = ["' OR '1'='1", "'; DROP TABLE peliculas; --", '1; DELETE FROM categorias', '" OR ""="', "%' --", '1 UNION SELECT * FROM artistas', "Robert'); DROP TABLE artistas;--"];
const TRAVERSAL = ['../../../etc/passwd', '..\\..\\windows\\win.ini', '%2e%2e%2f', '/peliculas/1', '..', '.', '....//', '/', 'C:\\boot.ini', 'file:///etc/passwd'];
const ODD_TEXT = [
  '', ' ', '\t\n ', 'null', 'true', 'undefined', 'NaN', 'Infinity', '0', '-1', '1.5', '1e3', '0x1F', ' 12 ', '+12', '１２', '١٢', '007',
  '%', '_', '\\', '\u0000', 'a\u0000b', '\u0001\u001f\u007f', '\u202e', '\ufeff', '\u00a0', '\u2028', '\ud800', 'a\udfffb', '\udc00\ud800',
  '👩‍👩‍👧', 'e\u0301', '\u0301', 'ß', 'İ', 'ﬃ', 'ǅ', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
  '2025-02-30', '0000-01-01', '0001-01-01T00:00:00+05:00', '9999-12-31T23:59:59-05:00', '2025-10-10T25:00', '+002025-10-10', '2025-10-10T10:00:00.123456789Z',
  '<script>alert(1)</script>', '${7*7}', '{{7*7}}', '$where', 'pelicula', 'obra', 'eventoUrbano', ' obra ', 'PELICULA',
];
const HOSTILE_TEXT = [...SQL, ...TRAVERSAL, ...ODD_TEXT];
const HOSTILE_NUMBERS = [
  '0', '-0', '-1', '1.5', '0.1', '1e308', '-1e308', '5e-324', '1e400', '-1e400', '2147483647', '2147483648', '-2147483649',
  '9007199254740991', '9007199254740992', '9007199254740993', '9007199254740992.5', '1.0', '1.0000000000000001', '100000', '100001',
  '1e2', '1E5', '123456789012345678901234567890', '0.5e1', '12e-1', '1e-7', '-0.0', '1e-400',
];
const HOSTILE_JSON = ['null', 'true', 'false', '[]', '{}', '[1]', '{"a":1}', '[null]', '{"$gt":""}', '{"$ne":null}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '{"constructor":{}}'];

/** `arbitrary` once in `n` times, null otherwise. */
const onceIn = <T>(n: number, arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

/** Any UTF-16 code unit: control characters and lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const anyText = fc.oneof(fc.string({ unit: codeUnit, maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 30 }));
/** Characters that break naive SQL, LIKE patterns, paths, JSON, UTF-8 or PostgreSQL text. */
const SHARP = ['\u0000', '\ud800', '\udfff', "'", '"', '\\', '%', '_', '/', '\n', '\u202e', ';', '--'];
/** Ordinary text with one such character somewhere in it. */
const spiked = fc
  .tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), fc.constantFrom(...SHARP), fc.nat())
  .map(([text, sharp, at]) => text.slice(0, at % (text.length + 1)) + sharp + text.slice(at % (text.length + 1)));
const hostileText = fc.oneof(fc.constantFrom(...HOSTILE_TEXT), anyText, spiked);

/** A JSON value of the wrong type, range or shape for whatever field it lands in. */
const hostileLiteral: fc.Arbitrary<Literal> = fc.oneof(
  hostileText.map((s) => JSON.stringify(s)),
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.constantFrom(...HOSTILE_JSON),
  fc.double().map((d) => JSON.stringify(d)),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.record({ repeat: fc.constantFrom('x', 'é', '😀', ' '), times: fc.constantFrom(256, 5001, 100_000) }),
  fc.json({ maxDepth: 2 }),
);

// Titles that collide once normalized ("Roma" = " roma" = "RÓMA"), so that uniqueness is exercised.
// ".." and "." cannot be path segments, and are refused.
const TITLES = ['Roma', ' roma', 'RÓMA', 'La Canción', 'la cancion ', 'Ñandú', 'nandu', 'Straße', 'STRASSE', 'Ábaco', 'İstanbul', 'Drama', '..', '.', '...'];

/** Null once in a while, for a field that may be null (or has a default that null stands for). */
const orNull = (field: Field, literal: fc.Arbitrary<Literal>): fc.Arbitrary<Literal> =>
  field.nullable || field.fallback !== null ? fc.oneof({ weight: 6, arbitrary: literal }, { weight: 1, arbitrary: fc.constant<Literal>('null') }) : literal;

function validLiteral(field: Field): fc.Arbitrary<Literal> {
  return orNull(field, notNullLiteral(field));
}

function notNullLiteral(field: Field): fc.Arbitrary<Literal> {
  switch (field.kind) {
    case 'integer':
      return fc.oneof(
        fc.integer({ min: field.minimum, max: Math.min(field.maximum, 2 ** 31 - 1) }).map(String),
        fc.integer({ min: field.minimum, max: Math.min(field.maximum, 10 ** 6) }).map((n) => JSON.stringify(String(n))),
        fc.constantFrom(field.minimum, field.maximum).map(String),
      );
    case 'number':
      return fc.oneof(
        fc.double({ min: field.minimum, max: field.maximum, noNaN: true }).map((d) => JSON.stringify(d)),
        fc.integer({ min: Math.ceil(field.minimum), max: Math.floor(field.maximum) }).map((n) => JSON.stringify(`${n}.${String(n * 7919 % 10_000_000).padStart(7, '0')}`)),
        fc.constantFrom(field.minimum, field.maximum, 0).map(String),
      );
    case 'boolean':
      return fc.boolean().map(String);
    case 'inicio': {
      const timed = fc
        .tuple(
          fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-30T00:00:00Z'), noInvalidDate: true }),
          fc.constantFrom('minute', 'seconds', 'answered', 'Z', '+05:30', '-0300'),
        )
        .map(([d, form]) => {
          const minute = d.toISOString().slice(0, 16);
          return { minute, seconds: `${minute}:00`, answered: `${minute}:00.000+00:00`, Z: `${minute}Z`, '+05:30': `${minute}:00+05:30`, '-0300': `${minute}-0300` }[form];
        });
      return fc.oneof({ weight: 6, arbitrary: timed }, { weight: 1, arbitrary: fc.constantFrom('2026-03-29T02:30', '2026-12-25T00:00', '9999-12-31T23:59') }).map((d): Literal => JSON.stringify(d));
    }
    case 'text': {
      if (field.pattern !== undefined) {
        // A web address: its own shapes, empty (null) among them.
        return fc.oneof(
          fc.webUrl({ validSchemes: ['http', 'https'] }).map((url) => JSON.stringify(url)),
          fc.constantFrom('', ' https://example.org/a b', 'ftp://example.org', 'https://').map((url) => JSON.stringify(url)),
        );
      }
      const longest = Math.min(field.maxLength, 5000);
      return fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...TITLES).map((s): Literal => JSON.stringify(s)) },
        {
          weight: 3,
          arbitrary: fc
            .tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }), fc.constantFrom('', ' ', '\t'))
            .map(([s, pad]): Literal => JSON.stringify(pad + s + pad)),
        },
        // As long as allowed, in characters that take two UTF-16 units or several bytes.
        { weight: 1, arbitrary: fc.constantFrom<Literal>({ repeat: 'é', times: longest }, { repeat: '😀', times: longest }) },
      );
    }
    case 'fecha': {
      const dated = fc
        .tuple(
          fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-30T00:00:00Z'), noInvalidDate: true }),
          fc.constantFrom('date', 'Z', '+05:30', '-0300', 'none'),
        )
        .map(([d, form]) => {
          const iso = d.toISOString();
          return form === 'date' ? iso.slice(0, 10) : form === 'Z' ? iso : iso.slice(0, 19) + (form === 'none' ? '' : form);
        });
      // The edges of what can be stored: year 1 is, year 0 (even reached through an offset) is not.
      const edges = fc.constantFrom('0000-01-01', '0001-01-01', '0001-01-01T00:00:00+05:00', '9999-12-31T23:59:59.999Z', '2024-02-29');
      return fc.oneof({ weight: 6, arbitrary: dated }, { weight: 1, arbitrary: edges }).map((d): Literal => JSON.stringify(d));
    }
    case 'enum':
      return fc.constantFrom(...field.values).map((v) => JSON.stringify(v));
  }
}

function validValue(spec: ResourceSpec, field: Field): fc.Arbitrary<Value> {
  const literal = validLiteral(field).map((json): Value => ({ json }));
  const isReference = (REFERENCES[spec.path] ?? []).some((r) => r.field === field.name);
  return isReference ? fc.oneof({ weight: 6, arbitrary: fc.nat().map((ref): Value => ({ ref })) }, { weight: 1, arbitrary: literal }) : literal;
}

const hostileValue = hostileLiteral.map((json): Value => ({ json }));

// Fields the contract does not know: ignored, unless they hold something no JSON body may (a
// `__proto__` key, a number that would be rounded), which refuses the whole body.
const EXTRA_KEYS = ['__proto__', 'constructor', 'prototype', 'id', 'dni', 'titulo_clave', 'nombre_clave', 'pelicula_id', 'toString', 'valueOf', '', ' titulo', 'TITULO', '$where'];
const extra = fc.tuple(fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 8 })), fc.oneof(hostileValue, fc.json({ maxDepth: 1 }).map((json): Value => ({ json }))));
const harmlessExtra = fc.tuple(
  fc.constantFrom('id', 'dni', 'titulo_clave', 'pelicula_id', 'toString', 'valueOf', '', 'TITULO', 'comentario'),
  fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null)).map((v): Value => ({ json: JSON.stringify(v) })),
);

/**
 * A body of a resource's fields. Most are valid, so that writes succeed and the store fills up;
 * the rest carry wrong values, miss fields, or add fields the contract does not know.
 */
function objectBody(spec: ResourceSpec, op: 'create' | 'replace' | 'patch', valid = false): fc.Arbitrary<Body> {
  const fields = op === 'create' && spec.clientKey ? [spec.key, ...spec.fields] : spec.fields;
  const perField = fields.map((field) =>
    fc.record({ valid: validValue(spec, field), hostile: hostileValue, roll: fc.nat(99) }).map((v) => ({ field: field.name, ...v })),
  );
  const keyInBody =
    op === 'create'
      ? fc.constant(null)
      : fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: fc.constant<Value>({ pathKey: true }) }, { weight: 1, arbitrary: validValue(spec, spec.key) }, { weight: 1, arbitrary: hostileValue });
  return fc
    .record({
      mode: valid ? fc.constant('valid') : fc.constantFrom('valid', 'valid', 'valid', 'valid', 'mixed', 'hostile'),
      values: fc.tuple(...perField),
      key: keyInBody,
      extras: fc.array(extra, { maxLength: 3 }),
      harmless: fc.array(harmlessExtra, { maxLength: 2 }),
      duplicate: onceIn(10, fc.tuple(fc.nat(), hostileValue)),
    })
    .map(({ mode, values, key, extras, harmless, duplicate }): Body => {
      const entries: [string, Value][] = [];
      for (const { field, valid, hostile, roll } of values) {
        const [omit, bad] = mode === 'valid' ? [op === 'patch' ? 50 : 0, 0] : mode === 'mixed' ? [op === 'patch' ? 50 : 8, 25] : [20, 70];
        if (roll < omit) continue;
        entries.push([field, roll < omit + bad ? hostile : valid]);
      }
      if (key) entries.push([spec.key.name, key]);
      entries.push(...(mode === 'valid' ? harmless : extras));
      const twice = duplicate && fields[duplicate[0] % fields.length];
      // A repeated key: JSON.parse keeps the last one, and so must the service.
      if (twice) entries.splice(duplicate[0] % (entries.length + 1), 0, [twice.name, duplicate[1]]);
      return { object: entries };
    });
}

const BROKEN_JSON = [
  '', ' ', '{', '}', '{"titulo":', '{"titulo" "x"}', "{'titulo':'x'}", '{"titulo":"x",}', '{titulo:"x"}', '[', 'nul', 'NaN', '{"a":NaN}',
  '{"a":Infinity}', '{"a":1}{"b":2}', '{"a":"\\x41"}', '{"a":"\u0001"}', '{"a":01}', '{"a":.5}', '{"a":+1}', '{"a":0x10}', '/* */{}', '\ufeff{}',
  '{"a":"\\ud800"}', 'null', 'true', '42', '"texto"', '[]', '[{}]', '{"__proto__":{}}', '{"a":{"__proto__":[]}}', '{"\\u005f_proto__":1}',
];
export const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/merge-patch+json', 'APPLICATION/JSON'];
export const NON_JSON_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/jsonx', 'text/json'];

const contentType = fc.oneof({ weight: 30, arbitrary: fc.constantFrom(...JSON_TYPES) }, { weight: 1, arbitrary: fc.constantFrom(...NON_JSON_TYPES) }, { weight: 1, arbitrary: fc.constant(null) });

function bodyOf(spec: ResourceSpec, op: 'create' | 'replace' | 'patch'): fc.Arbitrary<{ body: Body; contentType: string | null }> {
  return fc.oneof(
    { weight: 30, arbitrary: fc.record({ body: objectBody(spec, op), contentType }) },
    { weight: 2, arbitrary: fc.record({ body: fc.constantFrom(...BROKEN_JSON).map((text): Body => ({ text })), contentType }) },
    { weight: 1, arbitrary: fc.record({ body: fc.constant<Body>('none'), contentType: fc.constant(null) }) },
    { weight: 1, arbitrary: fc.record({ body: fc.constant<Body>({ megabytes: 1.01 }), contentType: fc.constantFrom(...JSON_TYPES) }) },
  );
}

const RAW_SEGMENTS = ['%ZZ', '%', '%E0%A4%A', '%00', '..%2F..%2Fetc%2Fpasswd', '%2e%2e%2f%2e%2e%2f', '%252e%252e%252f', '%C0%AE%C0%AE%2F', '%FF', '%ED%A0%80', '*', '~', "!$&'()*+,;=:@", '%u0041'];
const segment: fc.Arbitrary<Segment> = fc.oneof(
  { weight: 14, arbitrary: fc.record({ stored: fc.nat(), variant: fc.nat(5) }) },
  { weight: 2, arbitrary: fc.record({ absent: fc.integer({ min: 1, max: 2147483647 }) }) },
  { weight: 3, arbitrary: fc.record({ text: fc.oneof(hostileText, fc.constantFrom('x'.repeat(256), 'é'.repeat(255), '9'.repeat(30))) }) },
  { weight: 1, arbitrary: fc.oneof(fc.record({ raw: fc.constantFrom(...RAW_SEGMENTS), times: fc.constant(1) }), fc.record({ raw: fc.constant('a'), times: fc.constant(5000) })) },
);

const ifMatch: fc.Arbitrary<IfMatch> = fc.oneof(
  { weight: 8, arbitrary: fc.constant<IfMatch>('none') },
  { weight: 4, arbitrary: fc.constantFrom<IfMatch>('current', 'star', 'stale', 'weak', 'list') },
  { weight: 1, arbitrary: fc.record({ garbage: fc.stringMatching(/^[\x20-\x7e]{0,24}$/) }) },
);

const ifNoneMatch = onceIn(5, fc.oneof(fc.constant('*'), fc.stringMatching(/^[\x20-\x7e]{1,24}$/)));

const numberText = fc.oneof(
  fc.integer({ min: -2, max: 1200 }).map(String),
  fc.constantFrom('', '1.5', '1e3', '9'.repeat(17), '-0', ' 3', 'abc', '0x10', '2147483648', '-2147483649', '9999999999999999', '-9999999999999999', '9007199254740993'),
);

/** A value for a text query parameter, from a valid literal of a field. */
const plainValue = (field: Field) => validLiteral(field).map((l) => (typeof l === 'string' ? String(JSON.parse(l)) : l.repeat.repeat(Math.min(l.times, 300))));

/** The list query dialect: each known parameter with values meant for it, and anything else. */
function queryPairs(spec: ResourceSpec): fc.Arbitrary<Pairs> {
  const names = spec.answered;
  const any = fc.oneof(numberText, hostileText);
  const filter = fc.constantFrom(spec.key, ...spec.fields).chain((field) =>
    fc.tuple(
      fc.constantFrom('', '', '_gte', '_lte', '_ne', '_like').map((suffix) => field.name + suffix),
      fc.oneof(field.kind === 'integer' ? numberText : plainValue(field), any),
    ),
  );
  const pair = fc.oneof(
    fc.tuple(fc.constantFrom('_page', '_limit', '_start', '_end', 'limit', 'offset'), fc.oneof({ weight: 3, arbitrary: numberText }, { weight: 1, arbitrary: any })),
    fc.tuple(fc.constant('_sort'), fc.oneof(fc.constantFrom(...names, ...names.map((n) => `-${n}`), `${names[1]},-${names[0]}`, '__proto__', 'constructor', 'titulo_clave'), any)),
    fc.tuple(fc.constant('_order'), fc.oneof(fc.constantFrom('asc', 'desc', 'DESC', 'asc,desc'), any)),
    fc.tuple(fc.constant('q'), fc.oneof(plainValue(spec.fields[0] ?? spec.key), any)),
    fc.tuple(fc.constantFrom('_expand', '_embed'), fc.oneof(fc.constantFrom(...spec.expand, ...spec.embed, 'categoria,artista', '__proto__', 'nada'), any)),
    { weight: 3, arbitrary: filter },
    fc.tuple(fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty_like', '__proto___gte', 'constructor_ne', 'valueOf_like', '_', 'nada', 'titulo_clave', 'pelicula_id'), any),
  );
  return fc.array(pair, { minLength: 1, maxLength: 3 });
}

function relationPairs(spec: ResourceSpec): fc.Arbitrary<Pairs> {
  const names = [...spec.expand, ...spec.embed, 'categoria', 'artista', 'evento', 'participaciones', '__proto__', 'constructor', 'nada', ''];
  return fc.array(fc.tuple(fc.constantFrom('_expand', '_embed', 'x'), fc.oneof(fc.constantFrom(...names), hostileText)), { maxLength: 2 });
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'SEARCH', 'MKCOL', 'LOCK', 'COPY'];

function otherRequest(api: Api): fc.Arbitrary<Recipe> {
  const paths = [
    ...api.others, '/openapi.json', '/docs', '/docs/', '/docs/json', '/docs/static/index.html', '/docs/static/nada.js', '/docs/static/..%2f..%2fpackage.json',
    '/docs/static/%2e%2e/%2e%2e/package.json', '/', '/nada', '//peliculas', '/PELICULAS', '/obras', '/health/', '/health/nada', '/openapi.json/x',
    '/%2e%2e/etc/passwd', '/peliculas/1/participaciones', '/peliculas//1', '/categorias/%ZZ', '/metrics', '/.env', '/etc/passwd', '/package.json',
    ...api.resources.flatMap((r) => [`${r.path}/1/x`, `${r.path}/`]),
  ];
  return fc.record({
    op: fc.constant('other' as const),
    method: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('GET', 'HEAD') }, { weight: 4, arbitrary: fc.constantFrom(...METHODS) }),
    path: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...paths) }, { weight: 1, arbitrary: hostileText.map((s) => `/${encodeSegment(s)}`) }),
    preflight: fc.boolean(),
    body: fc.oneof({ weight: 4, arbitrary: fc.constant<Body>('none') }, { weight: 1, arbitrary: fc.constantFrom(...BROKEN_JSON).map((text): Body => ({ text })) }),
    contentType,
  });
}

/**
 * Creates of valid records (which may still collide with stored ones), records that others refer
 * to first: what each run starts from, so that every resource has something to read and change.
 */
export function validCreates(api: Api, constraints: fc.ArrayConstraints): fc.Arbitrary<Recipe[]> {
  const creates = api.resources.map((spec, res) =>
    objectBody(spec, 'create', true).map((body) => ({ op: 'create' as const, res, body, contentType: 'application/json' })),
  );
  const order = deletionOrder(api.resources.map((s) => s.path)).reverse();
  const rank = (r: { res: number }) => order.indexOf(api.resources[r.res]?.path ?? '');
  return fc.array(fc.oneof(...creates), constraints).map((all) => [...all].sort((a, b) => rank(a) - rank(b)));
}

/** Every kind of request on every route of the API; writes of valid records weigh most. */
export function recipe(api: Api): fc.Arbitrary<Recipe> {
  const perResource = api.resources.map((spec, res) => {
    const writes = (op: 'replace' | 'patch') =>
      fc.record({ op: fc.constant(op), res: fc.constant(res), segment, ifMatch }).chain((r) => bodyOf(spec, op).map((b) => ({ ...r, ...b })));
    const read = fc.record({ res: fc.constant(res), head: fc.constantFrom(false, false, false, false, false, true), ifNoneMatch });
    const wrongMethod = fc.oneof(
      fc.record({ op: fc.constant('method' as const), res: fc.constant(res), method: fc.constantFrom(...METHODS.filter((m) => !spec.methods.collection.includes(m))), segment: fc.constant(null) }),
      fc.record({ op: fc.constant('method' as const), res: fc.constant(res), method: fc.constantFrom(...METHODS.filter((m) => !spec.methods.item.includes(m))), segment: segment as fc.Arbitrary<Segment | null> }),
    );
    return fc.oneof(
      { weight: 12, arbitrary: bodyOf(spec, 'create').map((b): Recipe => ({ op: 'create', res, ...b })) },
      { weight: 6, arbitrary: writes('replace') },
      { weight: 5, arbitrary: writes('patch') },
      { weight: 4, arbitrary: fc.record({ op: fc.constant('remove' as const), res: fc.constant(res), segment, ifMatch }) },
      { weight: 3, arbitrary: fc.record({ op: fc.constant('lookup' as const), segment, query: relationPairs(spec) }).chain((r) => read.map((x) => ({ ...r, ...x }))) },
      { weight: 3, arbitrary: fc.record({ op: fc.constant('list' as const), query: fc.oneof(fc.constant<Pairs>([]), queryPairs(spec)) }).chain((r) => read.map((x) => ({ ...r, ...x }))) },
      { weight: 1, arbitrary: wrongMethod },
    );
  });
  return fc.oneof({ weight: 12, arbitrary: fc.oneof(...perResource) }, { weight: 1, arbitrary: otherRequest(api) });
}

// ---------------------------------------------------------------- rendering

/** A path segment for any text; a lone surrogate, which has no UTF-8 form, becomes the bytes of its code unit. */
export function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text].map((c) => {
      const code = c.charCodeAt(0);
      if (c.length > 1 || code < 0xd800 || code > 0xdfff) return encodeURIComponent(c);
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }).join('');
  }
}

const literalText = (l: Literal) => (typeof l === 'string' ? l : JSON.stringify(l.repeat.repeat(l.times)));

/** The path parameter as the service will see it once decoded, or why it cannot be told. */
export type Param = { value: string } | 'bad-url' | 'unpredictable';

export interface Sent {
  recipe: Recipe;
  /** The route, for coverage counts: `PUT /peliculas/{id}`. */
  label: string;
  spec?: ResourceSpec;
  request: { method: string; url: string; headers: Record<string, string>; payload?: string };
  param?: Param;
  /** The stored record the path named, if any (If-Match `current` is its ETag). */
  target?: Json;
}

function lookupVariant(value: string, variant: number): string {
  switch (variant) {
    case 1: return value.toUpperCase();
    case 2: return value.toLowerCase();
    case 3: return ` ${value}\t`;
    case 4: return value.normalize('NFD');
    case 5: return value.normalize('NFD').replace(/\p{M}/gu, '');
    default: return value;
  }
}

function renderSegment(segment: Segment, spec: ResourceSpec, field: Field, model: Catalogue): { text: string; param: Param; target?: Json } {
  if ('raw' in segment) return { text: segment.raw.repeat(segment.times), param: 'unpredictable' };
  const target = 'stored' in segment ? model.pick(spec.path, segment.stored) : undefined;
  let value: string;
  if (target && 'variant' in segment) {
    const stored = String(target[field.name]);
    value = field.kind === 'text' ? lookupVariant(stored, segment.variant) : segment.variant === 1 && field.kind === 'integer' ? `00${stored}` : stored;
  } else if ('text' in segment) {
    value = segment.text;
  } else {
    const n = 'absent' in segment ? segment.absent : 2147483000 + (segment.stored % 600);
    value = field.kind === 'enum' ? (field.values[n % field.values.length] ?? '') : field.kind === 'text' ? `Sin título ${n}` : String(n);
  }
  // "." and ".." are resolved away by URL parsing before the request reaches the router.
  if (value === '.' || value === '..') return { text: value, param: 'unpredictable', target };
  // A lone surrogate goes out as bytes that are not UTF-8, which the router refuses.
  return { text: encodeSegment(value), param: /\p{Cs}/u.test(value) ? 'bad-url' : { value }, target };
}

function renderBody(body: Body, spec: ResourceSpec | undefined, model: Catalogue, pathKey: string | undefined): string | undefined {
  if (body === 'none') return undefined;
  if ('text' in body) return body.text;
  if ('megabytes' in body) return JSON.stringify({ descripcion: 'x'.repeat(Math.ceil(body.megabytes * 1024 * 1024)) });
  const plain: Json = {};
  const literals = body.object.map(([name, value]): [string, string] => {
    let text: string;
    if ('json' in value) text = literalText(value.json);
    else if ('pathKey' in value) text = pathKey !== undefined && /^\d+$/.test(pathKey) ? pathKey : JSON.stringify(pathKey ?? null);
    else {
      // A reference to a stored record, of the kind the body itself names (a participation's tipo_evento).
      const ref = (spec && REFERENCES[spec.path]?.find((r) => r.field === name)) ?? undefined;
      const target = ref?.target(plain);
      const record = target === undefined ? undefined : model.pick(target, value.ref);
      const targetSpec = model.specs.find((s) => s.path === target);
      text = String(record && targetSpec ? record[targetSpec.key.name] : 2147483000 + (value.ref % 600));
    }
    try {
      plain[name] = JSON.parse(text);
    } catch {
      // Only well-formed literals are generated; a reference resolves later fields by earlier ones.
    }
    return [name, text];
  });
  return `{${literals.map(([name, text]) => `${JSON.stringify(name)}:${text}`).join(',')}}`;
}

function etagHeader(kind: IfMatch, target: Json | undefined): string | undefined {
  const current = etagOf(JSON.stringify(target ?? { nada: true }));
  if (kind === 'none') return undefined;
  if (typeof kind === 'object') return kind.garbage;
  return { current, star: '*', stale: etagOf(JSON.stringify({ ...target, cambiado: true })), weak: `W/${current}`, list: `"otro", ${current}` }[kind];
}

const query = (pairs: Pairs) =>
  pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&')}`;

/** The HTTP request a recipe stands for, given what is stored now. */
export function render(recipe: Recipe, api: Api, model: Catalogue): Sent {
  const headers: Record<string, string> = {};
  const withBody = (body: Body, type: string | null, pathKey?: string, spec?: ResourceSpec) => {
    const payload = renderBody(body, spec, model, pathKey);
    if (type !== null) headers['content-type'] = type;
    return payload === undefined ? {} : { payload };
  };
  if (recipe.op === 'other') {
    if (recipe.method === 'OPTIONS' && recipe.preflight) {
      headers.origin = 'https://cartelera.example.org';
      headers['access-control-request-method'] = 'POST';
    }
    return { recipe, label: 'other', request: { method: recipe.method, url: recipe.path, headers, ...withBody(recipe.body, recipe.contentType) } };
  }
  const spec = api.resources[recipe.res];
  if (!spec) throw new Error(`no resource ${recipe.res}`);
  const one = (param: Field) => `${spec.path}/{${param.name}}`;
  switch (recipe.op) {
    case 'list':
      if (recipe.ifNoneMatch !== null) headers['if-none-match'] = recipe.ifNoneMatch;
      return { recipe, spec, label: `GET ${spec.path}`, request: { method: recipe.head ? 'HEAD' : 'GET', url: spec.path + query(recipe.query), headers } };
    case 'lookup': {
      const s = renderSegment(recipe.segment, spec, spec.lookup, model);
      if (recipe.ifNoneMatch !== null) headers['if-none-match'] = recipe.ifNoneMatch;
      return { recipe, spec, label: `GET ${one(spec.lookup)}`, param: s.param, request: { method: recipe.head ? 'HEAD' : 'GET', url: `${spec.path}/${s.text}${query(recipe.query)}`, headers } };
    }
    case 'create':
      return { recipe, spec, label: `POST ${spec.path}`, request: { method: 'POST', url: spec.path, headers, ...withBody(recipe.body, recipe.contentType, undefined, spec) } };
    case 'replace':
    case 'patch':
    case 'remove': {
      const s = renderSegment(recipe.segment, spec, spec.key, model);
      const method = { replace: 'PUT', patch: 'PATCH', remove: 'DELETE' }[recipe.op];
      const tag = etagHeader(recipe.ifMatch, s.target);
      if (tag !== undefined) headers['if-match'] = tag;
      const pathKey = typeof s.param === 'object' ? s.param.value : undefined;
      const body = recipe.op === 'remove' ? {} : withBody(recipe.body, recipe.contentType, pathKey, spec);
      return { recipe, spec, label: `${method} ${one(spec.key)}`, param: s.param, target: s.target, request: { method, url: `${spec.path}/${s.text}`, headers, ...body } };
    }
    case 'method': {
      const s = recipe.segment && renderSegment(recipe.segment, spec, spec.key, model);
      const url = s ? `${spec.path}/${s.text}` : spec.path;
      return { recipe, spec, label: `${recipe.method} ${s ? `${spec.path}/{…}` : spec.path}`, param: s?.param, request: { method: recipe.method, url, headers } };
    }
  }
}
