import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen with this migration: the helpers it used, as they were when it was written.
type DialectName = 'sqlite' | 'postgres';
const dialectOf = (db: Kysely<unknown>): DialectName => (db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');

/**
 * Statements that make every change to `table` (including cascaded deletes) bump its row in
 * `versiones`, so any process can tell whether its cached answers for the table still hold.
 */
function versionTrigger(dialect: DialectName, table: string) {
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
function versionFunction(dialect: DialectName) {
  return dialect === 'postgres'
    ? [sql`create function cartelera_bump_version() returns trigger language plpgsql as $$
             begin update versiones set version = version + 1 where tabla = TG_TABLE_NAME; return null; end $$`]
    : [];
}

const versionedTables = ['categorias', 'peliculas', 'obras', 'eventos_urbanos', 'artistas', 'participaciones'] as const;

/** A version per table, bumped by the store itself on every change (see versions.ts). */
export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  await db.schema
    .createTable('versiones')
    .addColumn('tabla', 'text', (col) => col.primaryKey())
    .addColumn('version', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
  for (const table of versionedTables) await sql`insert into versiones (tabla, version) values (${table}, 0)`.execute(db);
  for (const statement of versionFunction(dialect)) await statement.execute(db);
  for (const table of versionedTables) {
    for (const statement of versionTrigger(dialect, table)) await statement.execute(db);
  }
}
