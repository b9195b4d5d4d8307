import { sql, type Kysely } from 'kysely';
import { dialectOf, versionFunction, versionTrigger } from '../dialect.js';

export const versionedTables = ['categorias', 'peliculas', 'obras', 'eventos_urbanos', 'artistas', 'participaciones'] as const;

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
