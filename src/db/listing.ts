import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { comparable } from '../catalogue/comparable.js';
import { dialectOf } from './dialect.js';
import { distanceKm, placeConditions, venueConditions, venueDistanceKm, type Geo } from './near.js';
import type { Database, Db } from './schema.js';

export type FieldKind =
  | { type: 'integer'; minimum: number; maximum: number }
  | { type: 'text' }
  /** `timed`: always a date and time, never a whole day (a showtime's `inicio`, `fin`). */
  | { type: 'fecha'; timed?: boolean }
  | { type: 'enum'; values: readonly string[] }
  | { type: 'number' }
  /** Kept as 0 and 1 on both stores (resources/define.ts); a filter's value is 0 or 1 too. */
  | { type: 'boolean' };

export interface Condition {
  field: string;
  kind: FieldKind;
  op: 'eq' | 'ne' | 'gte' | 'lte' | 'like';
  /** Already checked and converted: integers, canonical dates, comparable text. */
  values: (string | number)[];
}

export interface Window {
  /** Which parameters asked for it, so links answer in the same terms. */
  style: 'page' | 'start' | 'offset';
  offset: number;
  limit: number;
}

export interface ListQuery {
  conditions: Condition[];
  /** Comparable text to find in any text field. */
  search?: string;
  sort: { field: string; descending: boolean }[];
  window?: Window;
  expand: string[];
  embed: string[];
  /** Near and within (`cerca`, `radio_km`, `bbox`); a sort by `distancia` needs `near`. */
  geo?: Geo;
}

/** The sort field that orders by the distance from `cerca`. */
export const DISTANCE = 'distancia';

export interface ListTable {
  table: keyof Database;
  key: string;
  kinds: Record<string, FieldKind>;
  /** Where its records are, for near and within: their own `latitud`/`longitud`, or their venue's (`lugar_id`). */
  coordinates?: 'own' | 'venue';
}

/**
 * A filtered, sorted, windowed list and its total, for any resource (`rowsInTable`: the table's
 * row count as `versiones` keeps it, the total when nothing is filtered). Column names come from the
 * resource's own schema (ListTable.kinds), never from the request. Text compares the comparable
 * `<field>_clave` columns, in code-point order on both backends, so answers are identical.
 */
export async function listRows(db: Db, spec: ListTable, query: ListQuery, rowsInTable: number): Promise<{ rows: unknown[]; total: number }> {
  const where = whereOf(db, spec, query);
  const filtered = where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``;
  const order = orderOf(db, spec, query.sort, query.geo);
  const window = query.window ? sql`limit ${query.window.limit} offset ${query.window.offset}` : sql``;
  const table = sql.table(spec.table);
  const [rows, total] = await Promise.all([
    sql`select * from ${table} ${filtered} order by ${order} ${window}`.execute(db),
    // Unfiltered, the total is the table's row count, which the store keeps (migration 0004).
    where.length === 0
      ? rowsInTable
      : sql<{ n: number | string }>`select count(*) as n from ${table} ${filtered}`.execute(db).then(({ rows: [count] }) => Number(count?.n ?? 0)),
  ]);
  return { rows: rows.rows, total };
}

/** A list's order: its sort, then its key. */
function orderOf(db: Db, spec: ListTable, sort: ListQuery['sort'], geo?: Geo) {
  const { ordered } = columnsOf(db, spec);
  const near = geo?.near;
  const by = (field: string) => (field === DISTANCE && near ? distanceOf(spec, near) : ordered(field));
  return sql.join([...sort.map((s) => sql`${by(s.field)} ${sql.raw(s.descending ? 'desc' : 'asc')}`), sql`${sql.ref(spec.key)} asc`]);
}

/** The distance of a record from `near`: of its own point, or its venue's. */
function distanceOf(spec: ListTable, near: NonNullable<Geo['near']>): RawBuilder<number> {
  return spec.coordinates === 'venue'
    ? venueDistanceKm(near, sql.ref(`${spec.table}.lugar_id`))
    : distanceKm(near, sql.ref(`${spec.table}.latitud`), sql.ref(`${spec.table}.longitud`));
}

/** What a list's filters and search (`q`) select, as SQL conditions. */
function whereOf(db: Db, spec: ListTable, query: Pick<ListQuery, 'conditions' | 'search' | 'geo'>): Expression<SqlBool>[] {
  const { column } = columnsOf(db, spec);
  const where = filtersOf(db, spec, query.conditions);
  if (query.geo && spec.coordinates === 'venue') where.push(...venueConditions(query.geo, sql.ref(`${spec.table}.lugar_id`)));
  if (query.geo && spec.coordinates === 'own') where.push(...placeConditions(query.geo, sql.ref(`${spec.table}.latitud`), sql.ref(`${spec.table}.longitud`)));
  if (query.search !== undefined) {
    const pattern = `%${escapeLike(query.search)}%`;
    // Text fields by their comparable column; enum values are ASCII, so lower() folds them alike everywhere.
    const searched = Object.entries(spec.kinds).flatMap(([f, kind]) =>
      kind.type === 'text' ? [column(f)] : kind.type === 'enum' ? [sql`lower(${sql.ref(f)})`] : [],
    );
    where.push(searched.length > 0 ? sql<SqlBool>`(${sql.join(searched.map((c) => sql`${c} like ${pattern} escape '\\'`), sql` or `)})` : sql<SqlBool>`1 = 0`);
  }
  return where;
}

/** A field's column (text: its comparable `<field>_clave`), and the same as it sorts and compares. */
function columnsOf(db: Db, spec: ListTable) {
  const dialect = dialectOf(db);
  const column = (field: string) => sql.ref(spec.kinds[field]?.type === 'text' ? `${field}_clave` : field);
  const ordered = (field: string): RawBuilder<unknown> =>
    spec.kinds[field]?.type === 'text' && dialect === 'postgres' ? sql`${column(field)} collate "C"` : sql`${column(field)}`;
  return { column, ordered };
}

/** The list filters as SQL conditions: what listRows applies, for others that read the same table (the change feed). */
export function filtersOf(db: Db, spec: ListTable, conditions: Condition[]): Expression<SqlBool>[] {
  const { column, ordered } = columnsOf(db, spec);
  return conditions.map((c) => condition(c, column(c.field), ordered(c.field)));
}

/** The same filters in memory, on a record as the API answers it: for the changes the live feed polls, or a deleted event's last values. */
export function matcher(conditions: Condition[]): (row: object) => boolean {
  return (row) =>
    conditions.every((c) => {
      const raw = (row as Record<string, unknown>)[c.field];
      const value =
        c.kind.type === 'text' ? (typeof raw === 'string' ? comparable(raw) : raw) :
        c.kind.type === 'boolean' ? (raw === true || raw === 1 ? 1 : 0) :
        raw;
      if (value === null || value === undefined) return c.op === 'ne';
      switch (c.op) {
        case 'eq':
          return c.values.some((v) => v === value);
        case 'ne':
          return c.values.every((v) => v !== value);
        case 'gte':
          return c.values.every((v) => (value as string | number) >= v);
        case 'lte':
          return c.values.every((v) => (value as string | number) <= v);
        case 'like':
          return c.values.some((v) => String(value).includes(String(v)));
      }
    });
}

const ALL = sql<SqlBool>`1 = 1`;
const NONE = sql<SqlBool>`1 = 0`;

function condition(c: Condition, column: RawBuilder<unknown>, ordered: RawBuilder<unknown>): Expression<SqlBool> {
  if (c.kind.type === 'integer') return integerCondition(c, c.kind, column);
  switch (c.op) {
    case 'eq':
      return sql<SqlBool>`${column} in (${sql.join(c.values)})`;
    case 'ne':
      return sql<SqlBool>`${column} not in (${sql.join(c.values)})`;
    case 'gte':
      return sql<SqlBool>`${sql.join(c.values.map((v) => sql`${ordered} >= ${v}`), sql` and `)}`;
    case 'lte':
      return sql<SqlBool>`${sql.join(c.values.map((v) => sql`${ordered} <= ${v}`), sql` and `)}`;
    case 'like':
      return sql<SqlBool>`(${sql.join(c.values.map((v) => sql`${column} like ${`%${escapeLike(String(v))}%`} escape '\\'`), sql` or `)})`;
  }
}

/**
 * An integer filter. A value the field cannot hold is decided here, not sent: it matches no row
 * (or, for `ne`, excludes none, and a bound beyond the range keeps every row), and PostgreSQL
 * would refuse to compare a 32-bit column with it anyway.
 */
function integerCondition(c: Condition, range: { minimum: number; maximum: number }, column: RawBuilder<unknown>): Expression<SqlBool> {
  const values = c.values.map(Number);
  const holdable = values.filter((v) => v >= range.minimum && v <= range.maximum);
  switch (c.op) {
    case 'eq':
      return holdable.length > 0 ? sql<SqlBool>`${column} in (${sql.join(holdable)})` : NONE;
    case 'ne':
      return holdable.length > 0 ? sql<SqlBool>`${column} not in (${sql.join(holdable)})` : ALL;
    case 'gte': {
      const bound = Math.max(...values);
      return bound > range.maximum ? NONE : bound <= range.minimum ? ALL : sql<SqlBool>`${column} >= ${bound}`;
    }
    case 'lte': {
      const bound = Math.min(...values);
      return bound < range.minimum ? NONE : bound >= range.maximum ? ALL : sql<SqlBool>`${column} <= ${bound}`;
    }
    case 'like':
      // Refused before a query is built: `_like` is for text.
      return NONE;
  }
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Every row of a table by key, read in pages of `size` (each one short query, so a slow reader
 * never holds the store), the event loop free between two pages. Rows written meanwhile may or
 * may not be seen, as in any page-by-page read.
 */
export function allRows(db: Db, table: keyof Database, key: string, size = 1000): AsyncGenerator<Record<string, unknown>[]> {
  return matchingRows(db, { table, key, kinds: {} }, { conditions: [] }, size);
}

/** The rows a list's filters and search select, by key, in pages as allRows reads them. */
export async function* matchingRows(db: Db, spec: ListTable, query: Pick<ListQuery, 'conditions' | 'search'>, size = 1000): AsyncGenerator<Record<string, unknown>[]> {
  let after: unknown;
  for (;;) {
    const where = whereOf(db, spec, query);
    if (after !== undefined) where.push(sql<SqlBool>`${sql.ref(spec.key)} > ${after}`);
    const filtered = where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``;
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(spec.table)} ${filtered} order by ${sql.ref(spec.key)} limit ${size}`.execute(db);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1]?.[spec.key];
    await nextTurn();
  }
}

/** A whole list (its filters, search and sort, no window) in pages as allRows reads them; read in one snapshot, its pages neither skip nor repeat a row. */
export async function* listPages(db: Db, spec: ListTable, query: Pick<ListQuery, 'conditions' | 'search' | 'sort'>, size = 1000): AsyncGenerator<Record<string, unknown>[]> {
  if (query.sort.length === 0) return yield* matchingRows(db, spec, query, size);
  const where = whereOf(db, spec, query);
  const filtered = where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``;
  for (let offset = 0; ; offset += size) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(spec.table)} ${filtered} order by ${orderOf(db, spec, query.sort)} limit ${size} offset ${offset}`.execute(db);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    await nextTurn();
  }
}

/**
 * Lets the event loop answer others before going on: between two pages of a long read or write.
 * On SQLite every query runs on the event loop itself, and awaiting one does not yield to it.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * For a long task of many small steps: call it between two steps, and it lets the event loop
 * answer others (nextTurn) once `ms` have passed since it last did.
 */
export function turnTaker(ms = 10): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < ms) return;
    await nextTurn();
    since = performance.now();
  };
}
