import { sql } from 'kysely';
import type { Database, Db } from './schema.js';

type Row = Record<string, unknown>;

/** Columns the store computes itself, which no insert may name. */
const GENERATED: Partial<Record<keyof Database, readonly string[]>> = {
  participaciones: ['pelicula_id', 'obra_id', 'evento_urbano_id'],
  funciones: ['pelicula_id', 'obra_id', 'evento_urbano_id'],
};

/**
 * Stores rows exactly as another store held them (comparable columns included), in one statement.
 * A deliberate generic layer, like listing.ts: the copy between stores moves every table alike.
 */
export async function insertRows(db: Db, table: keyof Database, rows: Row[]): Promise<void> {
  const first = rows[0];
  if (!first) return;
  const generated = GENERATED[table] ?? [];
  const columns = Object.keys(first).filter((c) => !generated.includes(c));
  const values = rows.map((row) => sql`(${sql.join(columns.map((c) => row[c]))})`);
  await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${sql.join(values)}`.execute(db);
}

/** Rows in a table. */
export async function countRows(db: Db, table: keyof Database): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
