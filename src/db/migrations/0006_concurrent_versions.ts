import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen with this migration: the helpers it used, as they were when it was written.
const isPostgres = (db: Kysely<unknown>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * PostgreSQL: what cache/versions.ts reads before a request is answered from a cache (the tables'
 * versions, the changes logged since a given id, the newest change's id), as one function. Its
 * three queries see one snapshot (a STABLE function runs in its caller's), and PL/pgSQL keeps their
 * plans for the session: sent as one statement, the union of the three was planned anew on every
 * read, which cost more than the read itself. No client-side prepared statement is needed for it,
 * so a pooler in transaction mode still fits. SQLite plans its statements once (db/sqlite.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function cartelera_versiones(desde bigint, cuantos integer)
    returns table (kind integer, a text, b bigint, c bigint) language plpgsql stable as $$
    begin
      return query select 0, v.tabla, v.version::bigint, v.filas from versiones v;
      return query select 1, x.recurso, x.clave, x.id::bigint from cambios x where x.id > desde order by x.id limit cuantos;
      return query select 2, ''::text, coalesce(max(x.id), 0)::bigint, 0::bigint from cambios x;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await sql`drop function cartelera_versiones(bigint, integer)`.execute(db);
}
