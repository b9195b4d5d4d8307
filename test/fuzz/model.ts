import { canonicalFecha, canonicalInicio } from '../../src/catalogue/fecha.js';
import { decimal6 } from '../../src/catalogue/numbers.js';
import { comparable } from '../../src/catalogue/comparable.js';
import type { Field, ResourceSpec } from './api.js';

/**
 * The fuzz test's model: the contract's field and integrity rules, and the records the store must
 * hold, learnt only from the service's successful answers.
 */

export type Json = Record<string, unknown>;

/** Text the contract stores exactly as sent: PostgreSQL cannot hold U+0000, and a lone surrogate is not text. */
const storable = (text: string) => !text.includes('\u0000') && !/\p{Cs}/u.test(text);

/** What a field stores when sent `value`, by the contract's field rules; undefined when it is refused. */
export function accepted(field: Field, value: unknown): string | number | boolean | null | undefined {
  // Null is the default where a field has one (absent or null `accesible` is false), else null where it may be.
  if (value === null) return field.fallback !== null ? (field.fallback as string | boolean) : field.nullable ? null : undefined;
  switch (field.kind) {
    case 'integer': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : undefined;
      return n !== undefined && Number.isInteger(n) && n >= field.minimum && n <= field.maximum ? n : undefined;
    }
    case 'text': {
      if (typeof value !== 'string') return undefined;
      const text = value.trim();
      // Text that may be null: empty means null.
      if (text === '' && field.nullable) return null;
      const length = [...text].length;
      if (field.pattern !== undefined && !new RegExp(field.pattern, 'u').test(text)) return undefined;
      return length >= 1 && length <= field.maxLength && storable(text) && !field.forbidden.includes(text) ? text : undefined;
    }
    case 'fecha':
      return typeof value === 'string' ? canonicalFecha(value.trim(), 'UTC') : undefined;
    case 'inicio':
      return typeof value === 'string' ? canonicalInicio(value.trim(), 'UTC') : undefined;
    case 'number': {
      // JSON numbers or decimal strings, kept to 6 decimals, then judged by the range.
      const n = typeof value === 'number' || typeof value === 'string' ? decimal6(value) : undefined;
      return n !== undefined && n >= field.minimum && n <= field.maximum ? n : undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'enum':
      return typeof value === 'string' && field.values.includes(value) ? value : undefined;
  }
}

const NUMBER_OR_STRING = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** Whether a JSON number literal denotes exactly the double it parses to, when that double is an integer. */
function exactLiteral(literal: string): boolean {
  const value = Number(literal);
  if (!Number.isFinite(value)) return false;
  if (!/[.eE]/.test(literal) || !Number.isInteger(value)) return true;
  const [, whole = '', fraction = '', exponent = '0'] = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal) ?? [];
  const digits = BigInt(whole + fraction);
  if (digits === 0n) return true;
  const power = Number(exponent) - fraction.length;
  if (Math.abs(power) > 400) return false;
  const scale = 10n ** BigInt(Math.abs(power));
  const target = BigInt(Math.abs(value));
  return power >= 0 ? digits * scale === target : digits % scale === 0n && digits / scale === target;
}

/**
 * The value a JSON body stands for, or undefined when the contract refuses it as a whole: not
 * JSON, a `__proto__` key or a `constructor.prototype` anywhere, or a number that parsing would
 * round (2^53+1, 1e400).
 */
export function parseBody(text: string, decimalFields: ReadonlySet<string> = new Set()): { value: unknown } | undefined {
  let poisoned = false;
  let value: unknown;
  try {
    // A leading byte order mark may be ignored (RFC 8259 §8.1), and is.
    value = JSON.parse(text.replace(/^\ufeff/, ''), (key, v: unknown) => {
      if (key === '__proto__') poisoned = true;
      if (key === 'constructor' && typeof v === 'object' && v !== null && Object.hasOwn(v, 'prototype')) poisoned = true;
      return v;
    });
  } catch {
    return undefined;
  }
  // A decimal field's value (a venue's coordinates) is rounded to 6 decimals by its own rule: any literal does.
  const tokens = [...text.matchAll(NUMBER_OR_STRING)];
  const inexact = tokens.some((match, i) => {
    const [token] = match;
    if (token.startsWith('"') || exactLiteral(token)) return false;
    const before = tokens[i - 1];
    const isValueOf = before !== undefined && before[0].startsWith('"') && text.slice((before.index ?? 0) + before[0].length, match.index).trim() === ':';
    return !(isValueOf && decimalFields.has(JSON.parse(before[0]) as string));
  });
  return poisoned || inexact ? undefined : { value };
}

// The integrity rules of the contract ("Keys, lookups and uniqueness", "Deletes").
interface Reference {
  field: string;
  /** Every resource the field may name. */
  targets: string[];
  /** The one it names in this record (a participation's item depends on its kind). */
  target(record: Json): string | undefined;
  onDelete: 'restrict' | 'cascade';
}
const ITEMS = new Map([['pelicula', '/peliculas'], ['obra', '/Obras'], ['eventoUrbano', '/eventosUrbanos']]);
const categoria: Reference = { field: 'categoria_id', targets: ['/categorias'], target: () => '/categorias', onDelete: 'restrict' };
const item: Reference = { field: 'evento_id', targets: [...ITEMS.values()], target: (r) => ITEMS.get(String(r.tipo_evento)), onDelete: 'cascade' };
export const REFERENCES: Record<string, Reference[]> = {
  '/peliculas': [categoria],
  '/Obras': [categoria],
  '/eventosUrbanos': [categoria],
  '/participaciones': [{ field: 'artistas_dni', targets: ['/artistas'], target: () => '/artistas', onDelete: 'cascade' }, item],
  '/funciones': [item, { field: 'lugar_id', targets: ['/lugares'], target: () => '/lugares', onDelete: 'restrict' }],
};
/** Rules that tie a record's fields together ("Venues, showtimes and what's on"): whether a whole record breaks one. */
const RULES: Record<string, (record: Json) => boolean> = {
  '/lugares': (r) => (r.latitud === null) !== (r.longitud === null),
  '/funciones': (r) => r.fin !== null && String(r.fin) <= String(r.inicio),
};
/** Fields whose values, together, no two records share; text compares normalized. */
const UNIQUE: Record<string, string[]> = {
  '/categorias': ['nombre'],
  '/peliculas': ['titulo'],
  '/Obras': ['titulo'],
  '/eventosUrbanos': ['titulo'],
  '/participaciones': ['artistas_dni', 'tipo_evento', 'evento_id'],
  '/lugares': ['nombre'],
  '/funciones': ['tipo_evento', 'evento_id', 'lugar_id', 'inicio'],
};

export class Catalogue {
  private readonly tables = new Map<string, Map<number, Json>>();

  constructor(readonly specs: ResourceSpec[]) {
    for (const spec of specs) this.tables.set(spec.path, new Map());
  }

  private table(path: string): Map<number, Json> {
    const table = this.tables.get(path);
    if (!table) throw new Error(`no resource at ${path}`);
    return table;
  }

  private spec(path: string): ResourceSpec {
    const spec = this.specs.find((s) => s.path === path);
    if (!spec) throw new Error(`no resource at ${path}`);
    return spec;
  }

  /** Every record of a resource, by key ascending: what its list must answer. */
  records(path: string): Json[] {
    return [...this.table(path).entries()].sort(([a], [b]) => a - b).map(([, record]) => record);
  }

  get(path: string, key: number): Json | undefined {
    return this.table(path).get(key);
  }

  /** The `n`th record (wrapping around), for requests that aim at something stored. */
  pick(path: string, n: number): Json | undefined {
    const all = this.records(path);
    return all.length === 0 ? undefined : all[n % all.length];
  }

  /** The record a lookup value finds: by comparable text, by key, or the lowest key of a kind. */
  find(spec: ResourceSpec, value: string | number): Json | undefined {
    const all = this.records(spec.path);
    if (spec.lookup.kind === 'text') return all.find((r) => comparable(String(r[spec.lookup.name])) === comparable(String(value)));
    return all.find((r) => r[spec.lookup.name] === value);
  }

  /** Whether a record with these fields (and key, when replacing) would be refused with a 400. */
  refuses(spec: ResourceSpec, record: Json, key?: number): boolean {
    if (RULES[spec.path]?.(record)) return true;
    for (const ref of REFERENCES[spec.path] ?? []) {
      const target = ref.target(record);
      if (target === undefined || !this.get(target, Number(record[ref.field]))) return true;
    }
    const unique = UNIQUE[spec.path];
    if (unique) {
      const same = (a: Json, b: Json) => unique.every((f) => comparableValue(a[f]) === comparableValue(b[f]));
      if ([...this.table(spec.path).entries()].some(([k, other]) => k !== key && same(other, record))) return true;
    }
    return spec.clientKey && key === undefined && this.get(spec.path, Number(record[spec.key.name])) !== undefined;
  }

  /** How many records restrict the delete of this one. */
  usesOf(path: string, key: number): number {
    let uses = 0;
    for (const [from, refs] of Object.entries(REFERENCES)) {
      for (const ref of refs) {
        if (ref.onDelete !== 'restrict') continue;
        uses += this.records(from).filter((r) => ref.target(r) === path && r[ref.field] === key).length;
      }
    }
    return uses;
  }

  put(path: string, record: Json): void {
    const spec = this.spec(path);
    this.table(path).set(Number(record[spec.key.name]), record);
  }

  /** Deletes a record and, as the store cascades, whatever points at it. */
  remove(path: string, key: number): void {
    this.table(path).delete(key);
    for (const [from, refs] of Object.entries(REFERENCES)) {
      for (const ref of refs) {
        if (ref.onDelete !== 'cascade') continue;
        const spec = this.spec(from);
        for (const r of this.records(from)) {
          if (ref.target(r) === path && r[ref.field] === key) this.remove(from, Number(r[spec.key.name]));
        }
      }
    }
  }
}

/** Resources in an order their records can be deleted in: any that refers to another comes before it. */
export function deletionOrder(paths: string[]): string[] {
  const order: string[] = [];
  const visit = (path: string) => {
    if (order.includes(path)) return;
    for (const [from, refs] of Object.entries(REFERENCES)) {
      if (from !== path && refs.some((r) => r.targets.includes(path))) visit(from);
    }
    order.push(path);
  };
  paths.forEach(visit);
  return order;
}

const comparableValue = (value: unknown) => (typeof value === 'string' ? comparable(value) : value);
