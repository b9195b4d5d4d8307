import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen with this migration: the helpers it used, as they were when it was written.
const isPostgres = (db: Kysely<unknown>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * PostgreSQL: an UPDATE that changes no row leaves its table's version as it was.
 *
 * Since migration 0004 an UPDATE bumped its table's version once per statement, whether or not it
 * changed a row. An update the store refuses to apply (its record no longer at the version the
 * writer knew: `xmin`, src/db/prepared.ts) then moved the version with no change logged, which the
 * caches read as a write they cannot know, dropping every answer of the table (cache/versions.ts).
 * Each table's update trigger now sees the statement's changed rows (a transition table, as its
 * insert and delete triggers do) and bumps the version only when there is one. SQLite's triggers
 * run once per changed row already.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  // The slot is taken once, into a variable, as the trigger function it replaces did (migration 0008).
  await sql`create function cartelera_bump_changed() returns trigger language plpgsql as $$
    declare slot integer;
    begin
      if exists (select from cambiadas) then
        slot := cartelera_version_slot(TG_TABLE_NAME);
        update versiones set version = version + 1 where tabla = TG_TABLE_NAME and ranura = slot;
      end if;
      return null;
    end $$`.execute(db);
  const { rows } = await sql<{ tabla: string }>`select distinct tabla from versiones order by tabla`.execute(db);
  for (const { tabla } of rows) {
    const trigger = sql.id(`${tabla}_version_update`);
    await sql`drop trigger ${trigger} on ${sql.table(tabla)}`.execute(db);
    await sql`create trigger ${trigger} after update on ${sql.table(tabla)}
      referencing new table as cambiadas for each statement execute function cartelera_bump_changed()`.execute(db);
  }
  await sql`drop function cartelera_bump_version()`.execute(db);
}
