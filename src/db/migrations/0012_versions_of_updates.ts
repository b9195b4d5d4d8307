import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen with this migration: the helpers it used, as they were when it was written.
const isPostgres = (db: Kysely<unknown>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;
/** Every table whose version `versiones` keeps (migrations 0004, 0009, 0010). */
const versionedTables = ['categorias', 'peliculas', 'obras', 'eventos_urbanos', 'artistas', 'participaciones', 'imagenes', 'lugares', 'funciones'] as const;

/**
 * PostgreSQL: an UPDATE that changes no row leaves its table's version as it is.
 *
 * The version's update trigger ran once per statement (migration 0004), rows or none. An update
 * that reads, writes and logs a record in one statement (db/prepared.ts, replaceLogged) runs its
 * UPDATE whether or not the record's fields change, and writes no row when they do not: that
 * moved the version with no change logged, and the caches, not told which record changed, dropped
 * everything. The trigger now sees the statement's rows (a transition table, as the insert and
 * delete triggers do) and does nothing when there are none. SQLite's triggers run per row already.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function cartelera_bump_version_updated() returns trigger language plpgsql as $$
    declare slot integer;
    begin
      if not exists (select from cambiadas) then return null; end if;
      slot := cartelera_version_slot(TG_TABLE_NAME);
      update versiones set version = version + 1 where tabla = TG_TABLE_NAME and ranura = slot;
      return null;
    end $$`.execute(db);
  for (const table of versionedTables) {
    await sql`drop trigger ${sql.id(`${table}_version_update`)} on ${sql.table(table)}`.execute(db);
    await sql`create trigger ${sql.id(`${table}_version_update`)} after update on ${sql.table(table)}
      referencing new table as cambiadas for each statement execute function cartelera_bump_version_updated()`.execute(db);
  }
}
