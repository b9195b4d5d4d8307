import { sql, type Kysely } from 'kysely';
import { countingFunctions, countingTriggers, dialectOf, dropVersionTriggers } from '../dialect.js';
import { versionedTables } from './0003_versions.js';

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
