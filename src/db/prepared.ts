import { CompiledQuery, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { dialectOf } from './dialect.js';
import type { Database, Db } from './schema.js';

/**
 * A record's writes as one statement each (INSERT … RETURNING *, UPDATE … RETURNING *: no read
 * back), whose SQL is built once per table, dialect and set of columns, then only run with new
 * values: compiling a write with Kysely's builder each time is a measurable part of a write
 * (docs/development.md, "Measured choices"); SQLite's statements are then prepared once too
 * (see sqlite.ts).
 */
const texts = new Map<string, string>();

type Row = Record<string, unknown>;
/** Any table, any columns: the statements are built from rows the resources have typed already. */
type Loose = Kysely<Record<string, Row>>;
type Stored<T extends keyof Database> = Selectable<Database[T]>;

/** The row's fields without those left undefined, which Kysely would leave out of the statement too. */
const defined = (row: Row) => Object.entries(row).filter(([, value]) => value !== undefined);

/** The SQL Kysely compiles for this shape of write, compiled the first time only; its parameters must be `values` in order. */
function textOf(shape: string, values: unknown[], compile: () => CompiledQuery): string {
  let text = texts.get(shape);
  if (text === undefined) {
    const compiled = compile();
    // The values are sent in the order the entries list them: make sure Kysely numbered them so.
    if (compiled.parameters.length !== values.length || compiled.parameters.some((p, i) => p !== values[i])) {
      throw new Error(`the compiled statement for ${shape} does not take its values in order`);
    }
    text = compiled.sql;
    texts.set(shape, text);
  }
  return text;
}

/** Stores `row` in `table`; answers the row as stored. The row is typed, so a missing column is a compile error. */
export async function insertReturning<T extends keyof Database>(db: Db, table: T, row: Insertable<Database[T]>): Promise<Stored<T>> {
  const entries = defined(row as Row);
  const values = entries.map(([, value]) => value);
  const text = textOf(`${dialectOf(db)} insert ${table} ${entries.map(([column]) => column).join()}`, values, () =>
    (db as unknown as Loose).insertInto(table as string).values(Object.fromEntries(entries)).returningAll().compile(),
  );
  const [stored] = (await db.executeQuery<Stored<T>>(CompiledQuery.raw(text, values))).rows;
  if (stored === undefined) throw new Error(`insert into ${table} answered no row`);
  return stored;
}

/**
 * Stores `rows` in `table`, many a statement (runs of rows with the same columns, up to MANY_ROWS
 * each); answers the rows as stored, in no particular order: match them by a unique value.
 */
export async function insertManyReturning<T extends keyof Database>(db: Db, table: T, rows: Insertable<Database[T]>[]): Promise<Stored<T>[]> {
  const stored: Stored<T>[] = [];
  let run: [string, unknown][][] = [];
  let columns = '';
  const store = async () => {
    if (run.length === 0) return;
    const values = run.flatMap((entries) => entries.map(([, value]) => value));
    const text = textOf(`${dialectOf(db)} insert-many ${table} ${columns} ${run.length}`, values, () =>
      (db as unknown as Loose).insertInto(table as string).values(run.map((entries) => Object.fromEntries(entries))).returningAll().compile(),
    );
    stored.push(...(await db.executeQuery<Stored<T>>(CompiledQuery.raw(text, values))).rows);
    run = [];
  };
  for (const row of rows) {
    const entries = defined(row as Row);
    const shape = entries.map(([column]) => column).join();
    if (shape !== columns || run.length >= MANY_ROWS) {
      await store();
      columns = shape;
    }
    run.push(entries);
  }
  await store();
  return stored;
}

/** Rows a multi-row insert takes at most: well within either store's limit on a statement's parameters. */
const MANY_ROWS = 500;

/** Stores `row` in `table`, answering its key alone (no read back of the rest: a change's snapshots are long). */
export async function insertReturningKey<T extends keyof Database>(db: Db, table: T, row: Insertable<Database[T]>, key: string): Promise<unknown> {
  const entries = defined(row as Row);
  const values = entries.map(([, value]) => value);
  const text = textOf(`${dialectOf(db)} insert-key ${table} ${key} ${entries.map(([column]) => column).join()}`, values, () =>
    (db as unknown as Loose).insertInto(table as string).values(Object.fromEntries(entries)).returning(key).compile(),
  );
  const [stored] = (await db.executeQuery<Row>(CompiledQuery.raw(text, values))).rows;
  if (stored === undefined) throw new Error(`insert into ${table} answered no row`);
  return stored[key];
}

/** Changes the fields of `row` in the row of `table` whose `keyColumn` is `key`; undefined when there is none. */
export async function updateReturning<T extends keyof Database>(
  db: Db, table: T, keyColumn: string & keyof Database[T], key: number, row: Updateable<Database[T]>,
): Promise<Stored<T> | undefined> {
  const entries = defined(row as Row);
  const values = [...entries.map(([, value]) => value), key];
  const text = textOf(`${dialectOf(db)} update ${table} ${keyColumn} ${entries.map(([column]) => column).join()}`, values, () =>
    (db as unknown as Loose).updateTable(table as string).set(Object.fromEntries(entries)).where(keyColumn as string, '=', key).returningAll().compile(),
  );
  return (await db.executeQuery<Stored<T>>(CompiledQuery.raw(text, values))).rows[0];
}
