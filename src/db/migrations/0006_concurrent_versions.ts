import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen with this migration: the helpers it used, as they were when it was written.
const isPostgres = (db: Kysely<unknown>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;
const versionedTables = ['categorias', 'peliculas', 'obras', 'eventos_urbanos', 'artistas', 'participaciones'] as const;

/** Rows per table in `versiones` on PostgreSQL: a write bumps the one of its connection. */
const SLOTS = 16;

/**
 * PostgreSQL: writers of one table no longer wait for each other's commit.
 *
 * Every write bumps its table's row in `versiones` (migrations 0003 and 0004) and holds that row's
 * lock until it commits, so the writes of a table committed one at a time, each with a WAL flush
 * of its own. Each table now has SLOTS rows (`ranura`); a write bumps the row of its connection
 * (pg_backend_pid() % SLOTS), so writes on different connections commit together and share a
 * flush. A table's version is the sum of its rows' versions (it moves on every change, as before),
 * and its row count the sum of their counts. On SQLite writers take turns anyway: one row per
 * table, `ranura` 0.
 *
 * And what cache/versions.ts reads before a request is answered from a cache (the tables' versions,
 * the changes logged since a given id, the newest change's id) becomes one function: its three
 * queries see one snapshot (a STABLE function runs in its caller's), and PL/pgSQL keeps their plans
 * for the session. Sent as one statement, the union of the three was planned anew on every read,
 * which cost more than the read itself. No client-side prepared statement is needed, so a pooler in
 * transaction mode still fits.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table versiones add column ranura integer not null default 0`.execute(db);
  if (!isPostgres(db)) return;
  await sql`alter table versiones drop constraint versiones_pkey, add primary key (tabla, ranura)`.execute(db);
  for (const table of versionedTables) {
    await sql`insert into versiones (tabla, ranura, version, filas) select ${table}, s, 0, 0 from generate_series(1, ${SLOTS - 1}) as s`.execute(db);
  }
  const slot = sql.raw(`pg_backend_pid() % ${SLOTS}`);
  // The trigger functions of migrations 0003 and 0004, replaced in place: the triggers keep calling them.
  await sql`create or replace function cartelera_bump_version() returns trigger language plpgsql as $$
    begin update versiones set version = version + 1 where tabla = TG_TABLE_NAME and ranura = ${slot}; return null; end $$`.execute(db);
  for (const [name, sign] of [['cartelera_count_insert', '+'], ['cartelera_count_delete', '-']] as const) {
    await sql`create or replace function ${sql.id(name)}() returns trigger language plpgsql as $$
      begin
        update versiones set version = version + 1, filas = filas ${sql.raw(sign)} (select count(*) from cambiadas) where tabla = TG_TABLE_NAME and ranura = ${slot};
        return null;
      end $$`.execute(db);
  }
  await sql`create function cartelera_versiones(desde bigint, cuantos integer)
    returns table (kind integer, a text, b bigint, c bigint) language plpgsql stable as $$
    begin
      return query select 0, v.tabla, sum(v.version)::bigint, sum(v.filas)::bigint from versiones v group by v.tabla;
      return query select 1, x.recurso, x.clave, x.id::bigint from cambios x where x.id > desde order by x.id limit cuantos;
      return query select 2, ''::text, coalesce(max(x.id), 0)::bigint, 0::bigint from cambios x;
    end $$`.execute(db);
}
