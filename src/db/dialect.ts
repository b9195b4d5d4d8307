import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Db } from './schema.js';

/**
 * Everything that differs between SQLite and PostgreSQL in the schema lives here, so migrations
 * read the same on both.
 */
export type DialectName = 'sqlite' | 'postgres';

export function dialectOf<DB>(db: Kysely<DB>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** A surrogate key that is never reused, even after the newest row is deleted. */
export function identity(dialect: DialectName) {
  return (col: ColumnDefinitionBuilder) =>
    dialect === 'postgres'
      ? col.primaryKey().generatedByDefaultAsIdentity()
      : col.primaryKey().autoIncrement();
}

/** Event instants: a real timestamp on PostgreSQL; canonical UTC text, format-checked, on SQLite. */
export function fechaColumn(dialect: DialectName) {
  return dialect === 'postgres'
    ? { type: 'timestamptz' as const, check: (col: ColumnDefinitionBuilder) => col.notNull() }
    : {
        type: 'text' as const,
        check: (col: ColumnDefinitionBuilder) =>
          col.notNull().check(sql`fecha GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9].[0-9][0-9][0-9]+00:00'`),
      };
}

/**
 * Inside a transaction, holds the row until commit so a check on it (If-Match) stays true until
 * the write. SQLite needs nothing: one connection per process writes at a time.
 */
export async function lockRow(trx: Db, table: string, key: string, value: number): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    await sql`select 1 from ${sql.table(table)} where ${sql.ref(key)} = ${value} for update`.execute(trx);
  }
}

/**
 * Statements that make every change to `table` (including cascaded deletes) bump its row in
 * `versiones`, so any process can tell whether its cached answers for the table still hold.
 */
export function versionTrigger(dialect: DialectName, table: string) {
  if (dialect === 'postgres') {
    // Once per statement: a bulk change is one change.
    return [sql`create trigger ${sql.id(`${table}_version`)} after insert or update or delete on ${sql.table(table)}
                for each statement execute function cartelera_bump_version()`];
  }
  // SQLite triggers run once per row.
  return (['insert', 'update', 'delete'] as const).map(
    (event) => sql`create trigger ${sql.id(`${table}_version_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
                   begin update versiones set version = version + 1 where tabla = ${sql.lit(table)}; end`,
  );
}

/** PostgreSQL's shared trigger function (SQLite triggers carry their statement inline). */
export function versionFunction(dialect: DialectName) {
  return dialect === 'postgres'
    ? [sql`create function cartelera_bump_version() returns trigger language plpgsql as $$
             begin update versiones set version = version + 1 where tabla = TG_TABLE_NAME; return null; end $$`]
    : [];
}

/**
 * Statements that make every change to `table` bump its version and keep its row count in
 * `versiones` (migration 0004), in the writing transaction itself: a page's X-Total-Count then
 * reads one row instead of counting the table, and is exact whichever connection or process wrote.
 */
export function countingTriggers(dialect: DialectName, table: string) {
  if (dialect === 'postgres') {
    // Once per statement; a transition table cannot serve two events, hence one trigger per event.
    return [
      sql`create trigger ${sql.id(`${table}_version_insert`)} after insert on ${sql.table(table)}
          referencing new table as cambiadas for each statement execute function cartelera_count_insert()`,
      sql`create trigger ${sql.id(`${table}_version_update`)} after update on ${sql.table(table)}
          for each statement execute function cartelera_bump_version()`,
      sql`create trigger ${sql.id(`${table}_version_delete`)} after delete on ${sql.table(table)}
          referencing old table as cambiadas for each statement execute function cartelera_count_delete()`,
    ];
  }
  const change = { insert: 'filas = filas + 1, ', update: '', delete: 'filas = filas - 1, ' } as const;
  return (['insert', 'update', 'delete'] as const).map(
    (event) => sql`create trigger ${sql.id(`${table}_version_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
                   begin update versiones set ${sql.raw(change[event])}version = version + 1 where tabla = ${sql.lit(table)}; end`,
  );
}

/** The triggers versionTrigger made (migration 0003), by name. */
export function dropVersionTriggers(dialect: DialectName, table: string) {
  const names = dialect === 'postgres' ? [`${table}_version`] : ['insert', 'update', 'delete'].map((event) => `${table}_version_${event}`);
  return names.map((name) => (dialect === 'postgres' ? sql`drop trigger ${sql.id(name)} on ${sql.table(table)}` : sql`drop trigger ${sql.id(name)}`));
}

/** PostgreSQL's trigger functions for countingTriggers: each statement's rows come in its transition table. */
export function countingFunctions(dialect: DialectName) {
  if (dialect !== 'postgres') return [];
  const counting = (name: string, sign: '+' | '-') =>
    sql`create function ${sql.id(name)}() returns trigger language plpgsql as $$
          begin
            update versiones set version = version + 1, filas = filas ${sql.raw(sign)} (select count(*) from cambiadas) where tabla = TG_TABLE_NAME;
            return null;
          end $$`;
  return [counting('cartelera_count_insert', '+'), counting('cartelera_count_delete', '-')];
}

/**
 * After rows were stored with keys of their own (a restore), new rows must not be handed those
 * keys. SQLite's AUTOINCREMENT moves past them by itself; a PostgreSQL identity does not.
 */
export async function moveSequencePastKeys(db: Db, table: string, key: string): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`select setval(pg_get_serial_sequence(${table}, ${key}), greatest(coalesce((select max(${sql.ref(key)}) from ${sql.table(table)}), 0), 1), (select count(*) > 0 from ${sql.table(table)}))`.execute(db);
}
