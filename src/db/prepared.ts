import { createHash } from 'node:crypto';
import { CompiledQuery, sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { dialectOf } from './dialect.js';
import { storeFaultOf } from './errors.js';
import { forget, forgetAll, remember } from './knownRows.js';
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
 * each); answers the rows as stored, in no particular order: match them by a unique value. With
 * `answered`, only those columns of each (a caller that knows what it stored spares the store
 * sending it back).
 */
export async function insertManyReturning<T extends keyof Database>(db: Db, table: T, rows: Insertable<Database[T]>[], answered?: readonly string[]): Promise<Stored<T>[]> {
  const stored: Stored<T>[] = [];
  let run: [string, unknown][][] = [];
  let columns = '';
  const store = async () => {
    if (run.length === 0) return;
    const values = run.flatMap((entries) => entries.map(([, value]) => value));
    const text = textOf(`${dialectOf(db)} insert-many ${table} ${columns} ${run.length} ${answered?.join() ?? '*'}`, values, () => {
      const insert = (db as unknown as Loose).insertInto(table as string).values(run.map((entries) => Object.fromEntries(entries)));
      return (answered ? insert.returning(answered as string[]) : insert.returningAll()).compile();
    });
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

/** The change log's columns, and how each takes its value in a logged write (`$` a parameter of that type). */
const CHANGE_COLUMNS = [
  ['recurso', '$::text'], ['clave', 'w.key'], ['operacion', '$::text'], ['antes', '$::text'], ['despues', 'despues'],
  ['campos', '$::text'], ['quien', '$::text'], ['quien_clave', '$::text'], ['cuando', '$::text'], ['causa', '$::integer'], ['deshace', '$::integer'],
] as const;

/** The name the change's id is answered under beside the row's columns, which no table has. */
const CHANGE_ID = 'cartelera cambio';

/** A value of a kept statement: one of a column (of its table, unless another is named), or of a type its text names. */
type Typed = { column: string; of?: string } | { type: string };

/**
 * A statement run through its function (see `run`): its text and values; its parameters' types;
 * the table whose row it answers (`select … * from <table>`, `returning *`), after the columns
 * `leads` names.
 */
interface KeptStatement {
  table: string;
  text: string;
  values: unknown[];
  parameters: Typed[];
  leads: { name: string; value: Typed }[];
}

/**
 * The logged form of `write` (its text, parameters $1…$n, and shape), built once per shape: its
 * text, and its parameters followed by the change's.
 */
function logged(shape: string, table: string, write: CompiledQuery, parameters: Typed[], key: string, change: LoggedChange, despues: string | readonly [string, string]): KeptStatement {
  const values: unknown[] = [...write.parameters];
  const all = [...parameters];
  for (const [column, form] of CHANGE_COLUMNS) {
    if (form === 'despues') {
      values.push(...(typeof despues === 'string' ? [despues] : despues));
      all.push(...(typeof despues === 'string' ? [TEXT] : [TEXT, TEXT]));
    } else if (form !== 'w.key') {
      values.push(change[column as keyof LoggedChange]);
      all.push({ type: form.slice('$::'.length) });
    }
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
  return { table, text, values, parameters: all, leads: [{ name: CHANGE_ID, value: { column: 'id', of: 'cambios' } }, VERSION_LEAD] };
}

const TEXT = { type: 'text' } as const;

/**
 * Runs a write's statement. PostgreSQL plans an unnamed statement each time it is sent, and keeps
 * no plan between them: for a logged create that was about a third of the server's work (driven by
 * pgbench, 3,211/s planned each time against 4,354/s through a function: bench/analysis.md). So
 * each statement runs through a PL/pgSQL function that holds it as it is, whose plans PostgreSQL
 * keeps per connection by itself; unlike a named prepared statement, a function is the database's,
 * not the session's, so PgBouncer's transaction pooling stays safe. The function is made the first
 * time this process runs the statement on this database (`functionOf`); where it cannot be made,
 * the statement is sent as it is.
 */
async function run(db: Db, statement: KeptStatement): Promise<Row[]> {
  try {
    return await runKept(db, statement);
  } catch (error) {
    // The store may come back as another (restored from a backup): the versions known are no proof.
    if (storeFaultOf(error)) forgetAll(db);
    throw error;
  }
}

async function runKept(db: Db, statement: KeptStatement): Promise<Row[]> {
  const name = await functionOf(db, statement);
  const asItIs = async () => (await db.executeQuery<Row>(CompiledQuery.raw(statement.text, statement.values))).rows;
  if (name === undefined) return asItIs();
  let call = texts.get(name);
  if (call === undefined) texts.set(name, (call = `select * from ${name}(${statement.values.map((_, i) => `$${i + 1}`).join(', ')})`));
  try {
    return (await db.executeQuery<Row>(CompiledQuery.raw(call, statement.values))).rows;
  } catch (error) {
    // The table changed since the function was made (a newer process's migration), or the
    // function was dropped: the call stored nothing; the statement runs as it is, and its function
    // is made again next time.
    const code = (error as { code?: unknown }).code;
    if (code !== '42804' && code !== '42883') throw error;
    functions.get(db)?.delete(statement.text);
    return asItIs();
  }
}

/** Each database's functions, by the statement each holds: its name, or undefined where the statement runs as it is. */
const functions = new WeakMap<Db, Map<string, Promise<string | undefined>>>();

/**
 * The function that runs `statement` on `db`: `cartelera_<md5 of its definition>`, whose
 * definition is the statement's text, its parameters' types and the written table's columns as
 * the database has them now. A statement or table that changes (a declaration, a migration) so
 * makes a function of another name, and a process of another version sharing the database keeps
 * its own. Made once per database: another process finds it made (`duplicate_function`).
 */
function functionOf(db: Db, statement: KeptStatement): Promise<string | undefined> {
  let made = functions.get(db);
  if (made === undefined) functions.set(db, (made = new Map()));
  let name = made.get(statement.text);
  if (name === undefined) {
    name = makeFunction(db, statement).catch((error: unknown) => {
      // A store that fails now is asked again next time; one that refuses functions, never.
      if (storeFaultOf(error)) made.delete(statement.text);
      return undefined;
    });
    made.set(statement.text, name);
  }
  return name;
}

async function makeFunction(db: Db, { table, text, parameters, leads }: KeptStatement): Promise<string> {
  const { rows } = await db.executeQuery<{ tabla: string; columna: string; tipo: string }>(CompiledQuery.raw(
    `select c.relname as tabla, a.attname as columna, format_type(a.atttypid, null) as tipo from pg_attribute a join pg_class c on c.oid = a.attrelid
     where a.attrelid in ($1::regclass, 'cambios'::regclass) and a.attnum > 0 and not a.attisdropped order by a.attnum`, [table]));
  const types = new Map(rows.filter((row) => row.tabla === table).map((row) => [row.columna, row.tipo]));
  const typeOf = (value: Typed) => ('type' in value ? value.type : rows.find((row) => row.tabla === (value.of ?? table) && row.columna === value.column)?.tipo);
  const columns = [...leads.map((lead) => `"${lead.name}" ${typeOf(lead.value)}`), ...[...types].map(([column, type]) => `"${column.replaceAll('"', '""')}" ${type}`)];
  // The returned columns are also the function's variables: in the statement, a name is the table's column.
  const definition = `(${parameters.map(typeOf).join(', ')}) returns table (${columns.join(', ')}) language plpgsql as $cartelera$
#variable_conflict use_column
begin
  return query ${text};
end $cartelera$`;
  const name = `cartelera_${createHash('md5').update(definition).digest('hex')}`;
  try {
    await db.executeQuery(CompiledQuery.raw(`create function ${name}${definition}`));
  } catch (error) {
    // Made meanwhile by another process (or connection): it holds the same definition.
    const code = (error as { code?: unknown }).code;
    if (code !== '42723' && code !== '23505') throw error;
  }
  return name;
}

/** What a logged write answers: the row as stored, and its change's id. */
export interface Logged<T extends keyof Database> {
  stored: Stored<T>;
  change: number;
}

/** The row a kept statement answered, without the columns it leads with: its change's id (if any) and its version. */
function versioned(rows: Row[]): { row: Row; version: string; change: number } | undefined {
  const [found] = rows;
  if (found === undefined) return undefined;
  const { [CHANGE_ID]: change, [VERSION]: version, ...row } = found;
  return { row, version: String(version), change: Number(change) };
}

/**
 * PostgreSQL: stores `row` in `table` and its change (see `logged`) in one statement, and keeps
 * the stored row and its version as known (knownRows.ts): the statement committed by itself.
 */
export async function insertLogged<T extends keyof Database>(
  db: Db, table: T, row: Insertable<Database[T]>, key: string, change: LoggedChange, despues: readonly [string, string],
): Promise<Logged<T>> {
  const entries = defined(row as Row);
  const values = entries.map(([, value]) => value);
  const write = () => (db as unknown as Loose).insertInto(table as string).values(Object.fromEntries(entries)).returning(WITH_VERSION).returningAll().compile();
  const shape = `postgres insert-versioned ${table} ${entries.map(([column]) => column).join()}`;
  const parameters = entries.map(([column]) => ({ column }));
  const statement = logged(shape, table, CompiledQuery.raw(textOf(shape, values, write), values), parameters, key, change, despues);
  const stored = versioned(await run(db, statement));
  if (stored === undefined) throw new Error(`insert into ${table} answered no row`);
  remember(db, table, stored.row[key] as number, stored.row, stored.version);
  return { stored: stored.row as Stored<T>, change: stored.change };
}

/**
 * The row of `table` whose `keyColumn` is `key` (undefined when there is none), held until the
 * transaction ends as lockRow (dialect.ts) holds it: on PostgreSQL the read and the lock are one
 * statement, one round trip.
 */
export async function lockedRow(db: Db, table: string, keyColumn: string, key: number): Promise<Row | undefined> {
  const dialect = dialectOf(db);
  const text = textOf(`${dialect} locked ${table} ${keyColumn}`, [key], () =>
    sql`select * from ${sql.table(table)} where ${sql.ref(keyColumn)} = ${key}${dialect === 'postgres' ? sql` for update` : sql``}`.compile(db));
  return (await db.executeQuery<Row>(CompiledQuery.raw(text, [key]))).rows[0];
}

/**
 * PostgreSQL: the row of `table` whose `keyColumn` is `key`, with its version: the transaction
 * that wrote it (`xmin`), which any later update of the row changes. Undefined when there is none.
 * What it finds is kept as known (knownRows.ts).
 */
export async function versionedRow<T extends keyof Database>(
  db: Db, table: T, keyColumn: string, key: number,
): Promise<{ row: Stored<T>; version: string } | undefined> {
  const text = textOf(`postgres versioned ${table} ${keyColumn}`, [key], () =>
    sql`select ${WITH_VERSION}, * from ${sql.table(table)} where ${sql.ref(keyColumn)} = ${key}`.compile(db));
  const found = versioned(await run(db, { table, text, values: [key], parameters: [{ column: keyColumn }], leads: [VERSION_LEAD] }));
  if (found === undefined) {
    forget(db, table, key);
    return undefined;
  }
  remember(db, table, key, found.row, found.version);
  return { row: found.row as Stored<T>, version: found.version };
}

const VERSION = 'cartelera version';
const WITH_VERSION = sql<string>`xmin::text`.as(VERSION);
const VERSION_LEAD = { name: VERSION, value: TEXT };

/**
 * PostgreSQL: changes the fields of `row` in the row of `table` whose `keyColumn` is `key` and
 * stores its change (see `logged`), in one statement, only while the row is still at `version`
 * (versionedRow): undefined when it is not (changed or deleted since), and then nothing is stored.
 * The row as stored, and its new version, are kept as known (knownRows.ts); a row found no longer
 * at `version` is forgotten.
 */
export async function updateLogged<T extends keyof Database>(
  db: Db, table: T, keyColumn: string & keyof Database[T], key: number, version: string, row: Updateable<Database[T]>, change: LoggedChange, despues: string,
): Promise<Logged<T> | undefined> {
  const entries = defined(row as Row);
  const values = [...entries.map(([, value]) => value), key, version];
  const write = () => (db as unknown as Loose).updateTable(table as string).set(Object.fromEntries(entries))
    .where(keyColumn as string, '=', key).where(sql<boolean>`xmin = ${version}::xid`).returning(WITH_VERSION).returningAll().compile();
  const shape = `postgres update-versioned ${table} ${keyColumn} ${entries.map(([column]) => column).join()}`;
  const parameters: Typed[] = [...entries.map(([column]) => ({ column })), { column: keyColumn }, { type: 'xid' }];
  const statement = logged(shape, table, CompiledQuery.raw(textOf(shape, values, write), values), parameters, keyColumn, change, despues);
  const updated = versioned(await run(db, statement));
  if (updated === undefined) {
    forget(db, table, key);
    return undefined;
  }
  remember(db, table, key, updated.row, updated.version);
  return { stored: updated.row as Stored<T>, change: updated.change };
}

/**
 * A field of a record as the API answers it, for SQL that writes the record's JSON itself: an
 * integer as its digits, text as a JSON string (PostgreSQL's `to_json` escapes text as
 * `JSON.stringify` does). Records with fields of other kinds (decimals, booleans, instants) are
 * answered in forms SQL does not reproduce exactly, and are not written this way.
 */
export interface AnsweredColumn {
  name: string;
  json: 'number' | 'string';
}

/** The SQL that writes `column` of `from` as JSON, `null` included. */
function jsonOf(from: string, { name, json }: AnsweredColumn): string {
  const ref = `${from}."${name}"`;
  return json === 'number' ? `coalesce(${ref}::text, 'null')` : `coalesce(to_json(${ref})::text, 'null')`;
}

/** A SQL literal of `text`, which comes from a declaration, never from a client. */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The SQL that writes the record in `from` as answered: `{"id":1,"titulo":"Roma",…}`, in `answered`'s order. */
function recordJson(from: string, answered: readonly AnsweredColumn[]): string {
  return answered.map((column, i) => `${literal(`${i === 0 ? '{' : ','}${JSON.stringify(column.name)}:`)} || ${jsonOf(from, column)}`).join(' || ') + ` || '}'`;
}

/** What replaceLogged did. */
export type Replaced<T extends keyof Database> =
  /** Stored, with its change; `antes` and `despues` as the statement logged them, `before` the record as it was. */
  | { outcome: 'stored'; stored: Stored<T>; before: Row; change: number; antes: string; despues: string }
  /** The record already held these values: nothing stored, nothing logged. */
  | { outcome: 'unchanged'; current: Row }
  /** Another write changed the record between this statement's read and its write: nothing stored. */
  | { outcome: 'raced' }
  /** There is no such record. */
  | { outcome: 'absent' };

/** Names the statement answers beside the row's columns, which no table has: the row before, as `BEFORE<column>`; what was logged, as `LOGGED<column>`. */
const BEFORE = 'cartelera antes ';
const LOGGED = 'cartelera registro ';
const CHANGES = 'cartelera cambia';

/**
 * PostgreSQL: sets the fields of `row` in the row of `table` whose `keyColumn` is `key`, and logs
 * the change, in one statement that commits by itself (a record's read and its write, one round
 * trip): it reads the row, writes it only while it is still the version read (its `xmin`) and when
 * one of the `answered` columns (the key first, then the record's fields, in the API's order)
 * takes another value, and logs the change with `antes`, `despues` and `campos` written by SQL from
 * the row before and after (recordJson). Run through its function (`run`), whose plan PostgreSQL
 * keeps: sent as it is, the statement was planned each time, which cost more than the read it
 * saves (bench/analysis.md). The row as stored, and its new version, are kept as known
 * (knownRows.ts).
 */
export async function replaceLogged<T extends keyof Database>(
  db: Db, table: T, keyColumn: string, key: number, row: Updateable<Database[T]>, answered: readonly AnsweredColumn[],
  change: Omit<LoggedChange, 'antes' | 'campos'>,
): Promise<Replaced<T>> {
  const entries = defined(row as Row);
  const changeColumns = CHANGE_COLUMNS.filter(([column, form]) => form.startsWith('$') && column !== 'antes' && column !== 'campos');
  const values = [...entries.map(([, value]) => value), key, ...changeColumns.map(([column]) => change[column as keyof typeof change])];
  const shape = `postgres replace-logged ${table} ${keyColumn} ${entries.map(([column]) => column).join()} ${answered.map(({ name, json }) => `${name}:${json}`).join()}`;
  let text = texts.get(shape);
  if (text === undefined) {
    const parameter = new Map(entries.map(([column], i) => [column, `$${i + 1}`]));
    let n = entries.length + 1;
    const keyParameter = `$${n}`;
    // Whether a column the API answers takes another value; the comparable columns follow their text.
    const differs = answered.filter(({ name }) => parameter.has(name)).map(({ name }) => `o."${name}" is distinct from ${parameter.get(name)}`);
    const campos = answered.map(({ name }) => `case when o."${name}" is distinct from w."${name}" then ${literal(JSON.stringify(name))} end`);
    const loggedColumns = CHANGE_COLUMNS.map(([column, form]) => {
      if (column === 'antes') return recordJson('o', answered);
      if (column === 'despues') return recordJson('w', answered);
      if (column === 'campos') return `'[' || concat_ws(',', ${campos.join(', ')}) || ']'`;
      if (form === 'w.key') return `w."${keyColumn}"`;
      return form.replace('$', `$${++n}`);
    });
    text = `with o as (select xmin as "${VERSION}", (${differs.join(' or ') || 'false'}) as "${CHANGES}", * from "${table}" as o where "${keyColumn}" = ${keyParameter}), `
      // A column whose value does not change keeps the stored one, as it was (a long text's out-of-line copy too).
      + `w as (update "${table}" as t set ${entries.map(([column]) => `"${column}" = case when t."${column}" is distinct from ${parameter.get(column)} then ${parameter.get(column)} else t."${column}" end`).join(', ')} from o `
      + `where t."${keyColumn}" = o."${keyColumn}" and t.xmin = o."${VERSION}" and o."${CHANGES}" returning t.xmin::text as "${VERSION}", t.*), `
      + `c as (insert into cambios (${CHANGE_COLUMNS.map(([column]) => column).join(', ')}) select ${loggedColumns.join(', ')} from w, o returning id, antes, despues) `
      + `select c.id as "${CHANGE_ID}", c.antes as "${LOGGED}antes", c.despues as "${LOGGED}despues", o."${CHANGES}", `
      + `${answered.map(({ name }) => `o."${name}" as "${BEFORE}${name}"`).join(', ')}, w.* from o left join w on true left join c on true`;
    texts.set(shape, text);
  }
  const parameters: Typed[] = [...entries.map(([column]) => ({ column })), { column: keyColumn }, ...changeColumns.map(([, form]) => ({ type: form.slice('$::'.length) }))];
  const leads = [
    { name: CHANGE_ID, value: { column: 'id', of: 'cambios' } },
    ...['antes', 'despues'].map((column) => ({ name: `${LOGGED}${column}`, value: TEXT })),
    { name: CHANGES, value: { type: 'boolean' } },
    ...answered.map(({ name }) => ({ name: `${BEFORE}${name}`, value: { column: name } })),
    VERSION_LEAD,
  ];
  const [found] = await run(db, { table, text, values, parameters, leads });
  if (found === undefined) {
    forget(db, table, key);
    return { outcome: 'absent' };
  }
  const before = Object.fromEntries(answered.map(({ name }) => [name, found[`${BEFORE}${name}`]]));
  if (!found[CHANGES]) return { outcome: 'unchanged', current: before };
  if (found[CHANGE_ID] === null) {
    forget(db, table, key);
    return { outcome: 'raced' };
  }
  // The row's own columns follow the leads: its columns are the table's.
  const stored = Object.fromEntries(Object.entries(found).slice(leads.length));
  remember(db, table, key, stored, String(found[VERSION]));
  return {
    outcome: 'stored', stored: stored as Stored<T>, before, change: Number(found[CHANGE_ID]),
    antes: String(found[`${LOGGED}antes`]), despues: String(found[`${LOGGED}despues`]),
  };
}
