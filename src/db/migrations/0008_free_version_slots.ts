import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen with this migration: the helpers it used, as they were when it was written.
const isPostgres = (db: Kysely<unknown>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** Rows per table in `versiones` on PostgreSQL (migration 0006). */
const SLOTS = 16;

/**
 * PostgreSQL: a write bumps a row of `versiones` no other transaction holds.
 *
 * Migration 0006 gave each table SLOTS rows and a write the one of its connection,
 * pg_backend_pid() % SLOTS. Backend ids are not spread evenly over the rows: of a pool of 10
 * connections, about 3 pairs share a row, and each of those waits for the other's commit, a WAL
 * flush each, as all writers of a table did before 0006. A write now takes the first row, from
 * its connection's, that no other transaction holds (FOR UPDATE SKIP LOCKED; a row the write's own
 * transaction holds is taken again), and waits for its connection's row only when all SLOTS are
 * held. A table's version and row count stay the sums of its rows'. SQLite is unchanged: its
 * writers take turns anyway.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const own = sql.raw(`pg_backend_pid() % ${SLOTS}`);
  await sql`create function cartelera_version_slot(t text) returns integer language sql as $$
    select coalesce(
      (select ranura from versiones where tabla = t order by (ranura + ${sql.raw(String(SLOTS))} - ${own}) % ${sql.raw(String(SLOTS))} limit 1 for update skip locked),
      ${own}) $$`.execute(db);
  // The slot is taken once, into a variable: in the update's condition the function would run, and lock, for each row.
  await sql`create or replace function cartelera_bump_version() returns trigger language plpgsql as $$
    declare slot integer := cartelera_version_slot(TG_TABLE_NAME);
    begin update versiones set version = version + 1 where tabla = TG_TABLE_NAME and ranura = slot; return null; end $$`.execute(db);
  for (const [name, sign] of [['cartelera_count_insert', '+'], ['cartelera_count_delete', '-']] as const) {
    await sql`create or replace function ${sql.id(name)}() returns trigger language plpgsql as $$
      declare slot integer := cartelera_version_slot(TG_TABLE_NAME);
      begin
        update versiones set version = version + 1, filas = filas ${sql.raw(sign)} (select count(*) from cambiadas)
          where tabla = TG_TABLE_NAME and ranura = slot;
        return null;
      end $$`.execute(db);
  }
}
