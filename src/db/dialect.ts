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
