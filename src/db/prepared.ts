import { CompiledQuery, sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { dialectOf } from './dialect.js';
import type { CambiosTable, Database, Db } from './schema.js';

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

/**
 * PostgreSQL: a write and its change in the change log as one statement, `with w as (<write>
 * returning *), c as (insert into cambios … select … from w returning id) select …`: outside a
 * transaction it commits alone (autocommit), one round trip where `begin`, the write, the change and
 * `commit` took four. The change's row follows the write's, as every write stores its record before
 * its change (the live feed's horizon relies on it: changes/feed.ts). Its `clave` is the written
 * row's key; a new record's `despues` is `around[0]`, its key, `around[1]` (the key is the first
 * field of a record as answered), an update's is given whole.
 */
export type LoggedChange = Omit<CambiosTable, 'id' | 'clave' | 'despues'>;

/** The change log's columns, and how each takes its value in a logged write (`$` a parameter). */
const CHANGE_COLUMNS = [
  ['recurso', '$::text'], ['clave', 'w.key'], ['operacion', '$::text'], ['antes', '$::text'], ['despues', 'despues'],
  ['campos', '$::text'], ['quien', '$::text'], ['quien_clave', '$::text'], ['cuando', '$::text'], ['causa', '$::integer'], ['deshace', '$::integer'],
] as const;

/** The name the change's id is answered under beside the row's columns, which no table has. */
const CHANGE_ID = 'cartelera cambio';

/**
 * The logged form of `write` (its text, parameters $1…$n, and shape), built once per shape: its
 * text, and its parameters followed by the change's.
 */
function logged(shape: string, write: CompiledQuery, key: string, change: LoggedChange, despues: string | readonly [string, string]): CompiledQuery {
  const values: unknown[] = [...write.parameters];
  for (const [column, form] of CHANGE_COLUMNS) {
    if (form === 'despues') values.push(...(typeof despues === 'string' ? [despues] : despues));
    else if (form !== 'w.key') values.push(change[column as keyof LoggedChange]);
  }
  const around = typeof despues !== 'string';
  let text = texts.get(`logged ${around} ${shape}`);
  if (text === undefined) {
    let n = write.parameters.length;
    // The key's name is the resource's declaration (`id`, `dni`), never a client's.
    const keyColumn = `w."${key}"`;
    const columns = CHANGE_COLUMNS.map(([, form]) => {
      if (form === 'w.key') return keyColumn;
      if (form === 'despues') return around ? `$${++n}::text || ${keyColumn} || $${++n}::text` : `$${++n}::text`;
      return form.replace('$', `$${++n}`);
    });
    text = `with w as (${write.sql}), c as (insert into cambios (${CHANGE_COLUMNS.map(([column]) => column).join(', ')}) select ${columns.join(', ')} from w returning id) select c.id as "${CHANGE_ID}", w.* from w, c`;
    texts.set(`logged ${around} ${shape}`, text);
  }
  return CompiledQuery.raw(text, values);
}

/** What a logged write answers: the row as stored, and its change's id. */
export interface Logged<T extends keyof Database> {
  stored: Stored<T>;
  change: number;
}

function loggedRow<T extends keyof Database>(rows: Row[]): Logged<T> | undefined {
  const [row] = rows;
  if (row === undefined) return undefined;
  const { [CHANGE_ID]: change, ...stored } = row;
  return { stored: stored as Stored<T>, change: Number(change) };
}

/** PostgreSQL: stores `row` in `table` and its change (see `logged`) in one statement. */
export async function insertLogged<T extends keyof Database>(
  db: Db, table: T, row: Insertable<Database[T]>, key: string, change: LoggedChange, despues: readonly [string, string],
): Promise<Logged<T>> {
  const entries = defined(row as Row);
  const values = entries.map(([, value]) => value);
  const write = () => (db as unknown as Loose).insertInto(table as string).values(Object.fromEntries(entries)).returningAll().compile();
  const shape = `postgres insert ${table} ${entries.map(([column]) => column).join()}`;
  const query = logged(shape, CompiledQuery.raw(textOf(shape, values, write), values), key, change, despues);
  const stored = loggedRow<T>((await db.executeQuery<Row>(query)).rows);
  if (stored === undefined) throw new Error(`insert into ${table} answered no row`);
  return stored;
}

/**
 * PostgreSQL: the row of `table` whose `keyColumn` is `key`, with its version: the transaction
 * that wrote it (`xmin`), which any later update of the row changes. Undefined when there is none.
 */
export async function versionedRow<T extends keyof Database>(
  db: Db, table: T, keyColumn: string, key: number,
): Promise<{ row: Stored<T>; version: string } | undefined> {
  const text = textOf(`postgres versioned ${table} ${keyColumn}`, [key], () =>
    sql`select xmin::text as ${sql.id(VERSION)}, * from ${sql.table(table)} where ${sql.ref(keyColumn)} = ${key}`.compile(db));
  const [found] = (await db.executeQuery<Row>(CompiledQuery.raw(text, [key]))).rows;
  if (found === undefined) return undefined;
  const { [VERSION]: version, ...row } = found;
  return { row: row as Stored<T>, version: String(version) };
}

const VERSION = 'cartelera version';

/**
 * PostgreSQL: changes the fields of `row` in the row of `table` whose `keyColumn` is `key` and
 * stores its change (see `logged`), in one statement, only while the row is still at `version`
 * (versionedRow): undefined when it is not (changed or deleted since), and then nothing is stored.
 */
export async function updateLogged<T extends keyof Database>(
  db: Db, table: T, keyColumn: string & keyof Database[T], key: number, version: string, row: Updateable<Database[T]>, change: LoggedChange, despues: string,
): Promise<Logged<T> | undefined> {
  const entries = defined(row as Row);
  const values = [...entries.map(([, value]) => value), key, version];
  const write = () => (db as unknown as Loose).updateTable(table as string).set(Object.fromEntries(entries))
    .where(keyColumn as string, '=', key).where(sql<boolean>`xmin = ${version}::xid`).returningAll().compile();
  const shape = `postgres update-versioned ${table} ${keyColumn} ${entries.map(([column]) => column).join()}`;
  const query = logged(shape, CompiledQuery.raw(textOf(shape, values, write), values), keyColumn, change, despues);
  return loggedRow<T>((await db.executeQuery<Row>(query)).rows);
}
