import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { canonicalFecha, canonicalInicio, isCanonicalFecha, isCanonicalInicio } from './fecha.js';
import { decimal6 } from './numbers.js';
import { STORABLE_TEXT } from './fields.js';
import { messages } from './messages.js';
import { Refusal, type Problem } from './refusal.js';

/**
 * Validation by the contract's rules, derived from a TypeBox schema: the HTTP routes' bodies,
 * paths and queries, and every record the command line imports, alike.
 *
 * Fastify's default Ajv coerces `true` and `null` into numbers and stops at the first error.
 * Here nothing is coerced by Ajv; before it runs, each declared property is normalized by its
 * own schema: strings are trimmed, strings of decimal digits become integers where an integer is
 * declared, and event dates take their canonical form. Ajv then reports every problem at once.
 */
// Union types are `[T, 'null']` alone: a field that may be null (fields.ts, orNull).
const options = { allErrors: true, coerceTypes: false, verbose: true, strict: true, allowUnionTypes: true } as const;
// Bodies: unknown fields are dropped here, so they can never reach the store.
const bodies = new Ajv({ ...options, removeAdditional: 'all' });
// Query strings and paths keep what they have: the list parser must see a parameter to refuse it.
const others = new Ajv(options);
// After normalization a real date is in canonical form; anything else was not a real date.
for (const ajv of [bodies, others]) {
  ajv.addFormat('fecha', isCanonicalFecha);
  ajv.addFormat('inicio', isCanonicalInicio);
}

export type JsonSchema = { type?: string | string[]; format?: string; default?: unknown; properties?: Record<string, JsonSchema> };
type Normalize = (value: unknown) => unknown;

const DIGITS = /^[0-9]+$/;
/** The normalizers by format or type; an event date's offset turns into the wall clock of `zone` (catalogue/fecha.ts). */
const normalizers = (zone: string): Record<string, Normalize> => ({
  fecha: (v) => (typeof v === 'string' ? (canonicalFecha(v.trim(), zone) ?? v) : v),
  string: (v) => (typeof v === 'string' ? v.trim() : v),
  inicio: (v) => (typeof v === 'string' ? (canonicalInicio(v.trim(), zone) ?? v) : v),
  integer: (v) => (typeof v === 'string' && DIGITS.test(v) ? Number(v) : v),
  // Text that may be null: empty means null.
  'string,null': (v) => (typeof v === 'string' ? v.trim() || null : v),
  // Coordinates: JSON numbers or decimal strings, kept to 6 decimals.
  'number,null': (v) => decimal6(v) ?? v,
});

function normalizerFor(schema: JsonSchema, zone: string): (data: unknown) => void {
  const byKind = normalizers(zone);
  const steps = Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const kind = byKind[property.format ?? ''] ?? byKind[String(property.type ?? '')];
    // A field with a default takes it for null (absent, it is filled where the record is stored: resources/define.ts).
    const fallback = property.default;
    const step: Normalize | undefined =
      fallback === undefined ? kind : (v) => (v === null ? fallback : kind ? kind(v) : v);
    return step ? [[name, step] as const] : [];
  });
  return (data) => {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return;
    const record = data as Record<string, unknown>;
    for (const [name, step] of steps) {
      if (Object.hasOwn(record, name)) record[name] = step(record[name]);
    }
  };
}

/** Where a value came from: a body (or an imported record) drops unknown fields; the others keep them. */
export type Part = 'body' | 'params' | 'querystring' | 'headers' | string;

const compiledByContent = new Map<string, ReturnType<typeof newValidator>>();

/**
 * A validator that normalizes `data` in place, then checks it, keeping Ajv's errors on `.errors`
 * (the shape Fastify's validator compiler returns). `zone` is the city's (`TIMEZONE`). Compiled
 * once per process for a schema's content, part and zone: Fastify hands each app its own copy of
 * a route's schemas, and the tests build hundreds of apps in a process.
 */
export function compileValidator(schema: JsonSchema, part: Part, zone: string) {
  const key = `${part}\u0000${zone}\u0000${JSON.stringify(schema)}`;
  let check = compiledByContent.get(key);
  if (!check) compiledByContent.set(key, (check = newValidator(schema, part, zone)));
  return check;
}

function newValidator(schema: JsonSchema, part: Part, zone: string) {
  const validate: ValidateFunction = (part === 'body' ? bodies : others).compile(schema);
  const normalize = normalizerFor(schema, zone);
  const check = (data: unknown) => {
    normalize(data);
    const valid = validate(data);
    check.errors = validate.errors;
    return valid;
  };
  check.errors = null as ValidateFunction['errors'];
  return check;
}

const validators = new WeakMap<object, Map<string, ReturnType<typeof compileValidator>>>();

/**
 * `data` normalized and checked against `schema` as a body is, with the city's `zone`: the value
 * to store, or a Refusal listing every problem. Compiled once per schema and zone.
 */
export function validated<T>(schema: object, data: unknown, zone: string): T {
  let byZone = validators.get(schema);
  if (!byZone) validators.set(schema, (byZone = new Map()));
  let check = byZone.get(zone);
  if (!check) byZone.set(zone, (check = compileValidator(schema as JsonSchema, 'body', zone)));
  if (check(data)) return data as T;
  const problems = validationProblems(check.errors ?? [], 'body');
  throw new Refusal('invalid', problems.map((p) => p.sentence).join(' ') || messages.badRequest, problems);
}

/** One Spanish sentence per problem, naming the field (or path parameter). */
export function validationProblems(errors: ErrorObject[], part: Part): Problem[] {
  const seen = new Set<string>();
  return errors.flatMap((error) => {
    const problem = problemOf(error, part);
    if (!problem || seen.has(problem.sentence)) return [];
    seen.add(problem.sentence);
    return [problem];
  });
}

function problemOf(error: ErrorObject, part: Part): Problem | undefined {
  const field = fieldOf(error);
  const sentence = sentenceFor(error, part, field);
  return sentence === undefined ? undefined : { field, sentence };
}

function fieldOf(error: ErrorObject): string | undefined {
  return error.keyword === 'required'
    ? (error.params as { missingProperty: string }).missingProperty
    : error.instancePath.split('/')[1];
}

function sentenceFor(error: ErrorObject, part: Part, field: string | undefined): string | undefined {
  const v = messages.validation;
  if (field === undefined) return part === 'body' ? v.bodyNotObject : v.invalid(part);
  const what = v.subject(part, field);
  const schema = (error.parentSchema ?? {}) as { minimum?: number; maximum?: number; maxLength?: number; enum?: unknown[]; type?: string | string[]; pattern?: string; format?: string };
  const type = [schema.type ?? ''].flat()[0];
  if (error.keyword === 'required' || error.data === null) return v.required(what);
  switch (error.keyword) {
    case 'type':
      return type === 'integer' ? v.integer(what) : type === 'number' ? v.number(what) : type === 'boolean' ? v.boolean(what) : v.text(what);
    case 'minLength':
      return v.empty(what);
    case 'maxLength':
      return v.tooLong(what, schema.maxLength ?? 0);
    case 'minimum':
    case 'maximum':
      return v.range(what, schema.minimum ?? 0, schema.maximum ?? 0);
    case 'enum':
      return v.oneOf(what, schema.enum ?? []);
    case 'format':
      return schema.format === 'inicio' ? v.inicio(what) : v.fecha(what);
    case 'pattern':
      return schema.pattern === STORABLE_TEXT ? v.unstorable(what) : v.url(what);
    case 'not':
      return v.dotSegment(what);
    default:
      return v.invalid(what);
  }
}
