import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen with this migration: the helpers it used, as they were when it was written.
type DialectName = 'sqlite' | 'postgres';
const dialectOf = (db: Kysely<unknown>): DialectName => (db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');
const versionedTables = ['categorias', 'peliculas', 'obras', 'eventos_urbanos', 'artistas', 'participaciones'] as const;

/**
 * Statements that make every change to `table` bump its version and keep its row count in
 * `versiones` (migration 0004), in the writing transaction itself: a page's X-Total-Count then
 * reads one row instead of counting the table, and is exact whichever connection or process wrote.
 */
function countingTriggers(dialect: DialectName, table: string) {
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
function dropVersionTriggers(dialect: DialectName, table: string) {
  const names = dialect === 'postgres' ? [`${table}_version`] : ['insert', 'update', 'delete'].map((event) => `${table}_version_${event}`);
  return names.map((name) => (dialect === 'postgres' ? sql`drop trigger ${sql.id(name)} on ${sql.table(table)}` : sql`drop trigger ${sql.id(name)}`));
}

/** PostgreSQL's trigger functions for countingTriggers: each statement's rows come in its transition table. */
function countingFunctions(dialect: DialectName) {
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
 * Each table's row count beside its version in `versiones`, kept by the same triggers in the same
 * transaction as the change (see countingTriggers), so pages answer X-Total-Count without counting.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  await db.schema.alterTable('versiones').addColumn('filas', 'bigint', (col) => col.notNull().defaultTo(0)).execute();
  for (const statement of countingFunctions(dialect)) await statement.execute(db);
  for (const table of versionedTables) {
    for (const statement of dropVersionTriggers(dialect, table)) await statement.execute(db);
    for (const statement of countingTriggers(dialect, table)) await statement.execute(db);
    await sql`update versiones set filas = (select count(*) from ${sql.table(table)}), version = version + 1 where tabla = ${table}`.execute(db);
  }
}
