import { Type, type TObject, type TSchema } from 'typebox';
import { canonicalFecha } from '../catalogue/fecha.js';
import { STORABLE_TEXT } from '../catalogue/fields.js';
import { comparable } from '../catalogue/comparable.js';
import { decimal } from '../catalogue/numbers.js';
import { messages } from '../catalogue/messages.js';
import { DISTANCE, type Condition, type FieldKind, type ListQuery, type Window } from '../db/listing.js';
import { badRequest } from './errors.js';
import { GEO_PARAMS, geoParams, parseGeo } from './nearQuery.js';

/**
 * The json-server 0.17 query dialect on lists: pages, filters, search, sort and relations.
 * Unknown parameters are ignored (cache-busters like `?_=123` keep working); a known one with a bad
 * value is a 400 naming it.
 */
export type RawQuery = Record<string, string | string[] | undefined>;

export const MAX_PAGE = 1000;
const SUFFIXES = ['_gte', '_lte', '_ne', '_like'] as const;
const WINDOW_PARAMS = ['_page', '_limit', '_start', '_end', 'limit', 'offset'];
const OTHER_PARAMS = ['_sort', '_order', 'q', '_expand', '_embed'];
// Text no field can hold cannot be compared with one either (PostgreSQL refuses U+0000 outright).
const STORABLE = new RegExp(STORABLE_TEXT, 'u');

/**
 * Whether the request uses any parameter of the dialect (so the answer carries its headers).
 * `located`: the list's records have a place, and take near and within (nearQuery.ts).
 */
export function usesListQuery(raw: RawQuery, kinds: Record<string, FieldKind>, located = false): boolean {
  return Object.keys(raw).some((param) => recognized(param, kinds, located));
}

/** The request's parameters the dialect knows: what a `Link` to another page carries, and nothing a client added beside them. */
export function listParams(raw: RawQuery, kinds: Record<string, FieldKind>, located = false): RawQuery {
  return Object.fromEntries(Object.entries(raw).filter(([param]) => recognized(param, kinds, located)));
}

/** Whether `name` is a field; `__proto__`, `constructor` and the like are not, whatever `in` says. */
const isField = (name: string, kinds: Record<string, FieldKind>) => Object.hasOwn(kinds, name);

function recognized(param: string, kinds: Record<string, FieldKind>, located: boolean): boolean {
  if (WINDOW_PARAMS.includes(param) || OTHER_PARAMS.includes(param) || isField(param, kinds)) return true;
  if (located && (GEO_PARAMS as readonly string[]).includes(param)) return true;
  const suffix = SUFFIXES.find((s) => param.endsWith(s));
  return suffix !== undefined && isField(param.slice(0, -suffix.length), kinds);
}

/** `timeZone`: the zone a date-time filter's offset is read in (catalogue/fecha.ts); `located`: as in usesListQuery. */
export function parseListQuery(
  raw: RawQuery,
  kinds: Record<string, FieldKind>,
  relations: { expand: readonly string[]; embed: readonly string[] },
  timeZone: string,
  located = false,
): ListQuery {
  const all = (param: string) => [raw[param] ?? []].flat();
  const one = (param: string) => all(param).at(-1);

  const conditions: Condition[] = [];
  for (const param of Object.keys(raw)) {
    const suffix = SUFFIXES.find((s) => param.endsWith(s) && isField(param.slice(0, -s.length), kinds));
    const field = suffix ? param.slice(0, -suffix.length) : param;
    const kind = isField(field, kinds) ? kinds[field] : undefined;
    if (!kind) continue;
    const op = suffix ? (suffix.slice(1) as Condition['op']) : 'eq';
    if (op === 'like' && kind.type !== 'text') throw badRequest(messages.query.likeOnText(param));
    const values = all(param).map((value) => filterValue(param, kind, value, timeZone));
    conditions.push({ field, kind, op, values });
  }

  const q = one('q');
  const v = messages.validation;
  if (q !== undefined && !STORABLE.test(q)) throw badRequest(v.unstorable(v.subject('querystring', 'q')));
  const sort = parseSort(one('_sort'), one('_order'), kinds, located);
  const geo = located ? parseGeo(raw, sort.some((s) => s.field === DISTANCE)) : undefined;
  return {
    conditions,
    search: q === undefined || q.trim() === '' ? undefined : comparable(q),
    sort,
    ...(geo && { geo }),
    window: parseWindow(one),
    expand: parseRelations('_expand', raw, relations.expand),
    embed: parseRelations('_embed', raw, relations.embed),
  };
}

function filterValue(param: string, kind: FieldKind, value: string, timeZone: string): string | number {
  const v = messages.validation;
  const what = v.subject('querystring', param);
  switch (kind.type) {
    case 'integer': {
      if (!/^-?\d{1,16}$/.test(value)) throw badRequest(v.integer(what));
      // Outside the field's range too: listing.ts decides what such a value matches.
      return Number(value);
    }
    case 'fecha': {
      const fecha = canonicalFecha(value.trim(), timeZone);
      if (fecha === undefined) throw badRequest(v.fecha(what));
      return fecha;
    }
    case 'enum':
      if (!kind.values.includes(value)) throw badRequest(v.oneOf(what, kind.values));
      return value;
    case 'number': {
      const number = decimal(value);
      if (number === undefined) throw badRequest(v.number(what));
      return number;
    }
    case 'boolean':
      if (value !== 'true' && value !== 'false') throw badRequest(v.boolean(what));
      return value === 'true' ? 1 : 0;
    case 'text':
      if (!STORABLE.test(value)) throw badRequest(v.unstorable(what));
      return comparable(value);
  }
}

function parseSort(sort: string | undefined, order: string | undefined, kinds: Record<string, FieldKind>, located: boolean) {
  const orders = (order ?? '').split(',').map((o) => o.trim().toLowerCase());
  // A direction is checked even with nothing to sort: a client's mistake is told, never ignored.
  for (const o of orders) {
    if (o !== '' && o !== 'asc' && o !== 'desc') throw badRequest(messages.query.order);
  }
  if (sort === undefined || sort.trim() === '') {
    if (orders.some((o) => o !== '')) throw badRequest(messages.query.orderWithoutSort);
    return [];
  }
  return sort.split(',').map((entry, i) => {
    const descending = entry.trim().startsWith('-') || orders[i] === 'desc' || (orders.length === 1 && orders[0] === 'desc');
    const field = entry.trim().replace(/^-/, '');
    const sortable = located ? [...Object.keys(kinds), DISTANCE] : Object.keys(kinds);
    if (!isField(field, kinds) && !(located && field === DISTANCE)) throw badRequest(messages.query.sortField(field, sortable));
    return { field, descending };
  });
}

function parseWindow(one: (param: string) => string | undefined): Window | undefined {
  const int = (param: string, min: number, max = Number.MAX_SAFE_INTEGER) => {
    const value = one(param);
    if (value === undefined) return undefined;
    const what = messages.validation.subject('querystring', param);
    if (!/^\d{1,16}$/.test(value)) throw badRequest(messages.validation.integer(what));
    const n = Number(value);
    if (n < min || n > max) throw badRequest(messages.validation.range(what, min, max));
    return n;
  };
  const page = int('_page', 1);
  const limitParam = int('_limit', 1, MAX_PAGE);
  if (page !== undefined) {
    const limit = limitParam ?? 10;
    return { style: 'page', offset: (page - 1) * limit, limit };
  }
  const start = int('_start', 0);
  const end = int('_end', 0);
  if (start !== undefined || end !== undefined) {
    const from = start ?? 0;
    if (end !== undefined && end <= from) throw badRequest(messages.query.endAfterStart);
    const limit = end !== undefined ? end - from : (limitParam ?? MAX_PAGE);
    if (limit > MAX_PAGE) throw badRequest(messages.query.pageTooLarge('_end', MAX_PAGE));
    return { style: 'start', offset: from, limit };
  }
  const limit = int('limit', 1, MAX_PAGE);
  const offset = int('offset', 0);
  if (limit !== undefined || offset !== undefined) return { style: 'offset', offset: offset ?? 0, limit: limit ?? MAX_PAGE };
  if (limitParam !== undefined) return { style: 'page', offset: 0, limit: limitParam };
  return undefined;
}

/** `_expand=categoria` / `_embed=participaciones`: repeated or comma-separated names. */
export function parseRelations(param: string, raw: RawQuery, allowed: readonly string[]): string[] {
  const names = [raw[param] ?? []].flat().flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  for (const name of names) {
    if (!allowed.includes(name)) throw badRequest(messages.query.relation(param, name, allowed));
  }
  return [...new Set(names)];
}

/** The relations a resource's answers may attach (`_expand`, `_embed`); none for the change log, exports and the calendar. */
export const NO_RELATIONS = { expand: [], embed: [] } as const;

/**
 * The parameters of the dialect as a typed client sends them, for the API description alone:
 * Fastify takes them as text and parseListQuery checks them, naming the parameter, so that a bad
 * value answers the same sentence whatever the description says. A filter may repeat (`T | T[]`);
 * the others count once.
 */
export function listQuerySchema(kinds: Record<string, FieldKind>, relations: { expand: readonly string[]; embed: readonly string[] }, located = false): TObject {
  const fields = Object.keys(kinds).length > 0;
  return Type.Object({
    ...(fields && { ...windowParams(), ...sortParams(kinds, located), ...filterParams(kinds) }),
    ...(located && geoParams()),
    ...relationParams(relations),
  });
}

/** Pages: `_page`/`_limit`, `_start`/`_end`, `limit`/`offset`. */
export function windowParams(): Record<string, TSchema> {
  const count = (description: string, minimum: number, maximum?: number) =>
    Type.Optional(Type.Integer({ description, minimum, ...(maximum !== undefined && { maximum }) }));
  return {
    _page: count('Page number, from 1 (with _limit, default 10).', 1),
    _limit: count(`Page size, 1 to ${MAX_PAGE}.`, 1, MAX_PAGE),
    _start: count('Index of the first record, from 0 (with _end or _limit).', 0),
    _end: count('Index after the last record.', 0),
    limit: count(`Page size, 1 to ${MAX_PAGE} (with offset).`, 1, MAX_PAGE),
    offset: count('Records to skip (with limit).', 0),
  };
}

/** `_sort` by one field (a leading `-` sorts descending) and `_order`. */
export function sortParams(kinds: Record<string, FieldKind>, located = false): Record<string, TSchema> {
  const fields = located ? [...Object.keys(kinds), DISTANCE] : Object.keys(kinds);
  return {
    _sort: Type.Optional(
      Type.Enum([...fields, ...fields.map((f) => `-${f}`)], {
        description: 'The field to sort by; a leading - sorts descending. The service also takes several, comma-separated, each with its own _order.',
      }),
    ),
    _order: Type.Optional(Type.Enum(['asc', 'desc'], { description: 'The direction of _sort; it needs _sort.' })),
  };
}

/** Each field's filters, typed by its kind, and the search `q`. */
export function filterParams(kinds: Record<string, FieldKind>): Record<string, TSchema> {
  const properties: Record<string, TSchema> = {
    q: Type.Optional(Type.String({ description: 'Text to find in any text field, ignoring case and accents.' })),
  };
  const repeatable = (value: TSchema, description: string) => Type.Optional(Type.Union([value, Type.Array(value)], { description }));
  for (const [field, kind] of Object.entries(kinds)) {
    const value = filterSchema(kind);
    const folded = kind.type === 'text' ? ', ignoring case and accents' : '';
    properties[field] = repeatable(value, `Equal to${folded}; repeated, equal to any of them.`);
    properties[`${field}_ne`] = repeatable(value, `Not equal to${folded}; repeated, to none of them.`);
    properties[`${field}_gte`] = repeatable(value, 'At least.');
    properties[`${field}_lte`] = repeatable(value, 'At most.');
    if (kind.type === 'text') properties[`${field}_like`] = repeatable(value, 'Contains, ignoring case and accents; repeated, any of them.');
  }
  return properties;
}

function filterSchema(kind: FieldKind): TSchema {
  switch (kind.type) {
    // Any integer: one outside the field's range matches what the comparison says (listing.ts).
    case 'integer':
      return Type.Integer();
    case 'fecha':
      return Type.String({ examples: ['2026-11-14', '2026-11-14T20:30:00'], description: 'A date, which is its midnight, or a date-time.' });
    case 'enum':
      return Type.Enum(kind.values);
    case 'number':
      return Type.Number();
    case 'boolean':
      return Type.Boolean();
    case 'text':
      return Type.String();
  }
}

/** `_expand` and `_embed`: repeated or comma-separated names. */
export function relationParams(relations: { expand: readonly string[]; embed: readonly string[] }): Record<string, TSchema> {
  const names = (values: readonly string[], description: string) => {
    const name = Type.Enum(values);
    return Type.Optional(Type.Union([name, Type.Array(name)], { description }));
  };
  return {
    ...(relations.expand.length > 0 && { _expand: names(relations.expand, `Attach the related record: ${relations.expand.join(', ')}.`) }),
    ...(relations.embed.length > 0 && { _embed: names(relations.embed, `Attach the related records: ${relations.embed.join(', ')}.`) }),
  };
}
