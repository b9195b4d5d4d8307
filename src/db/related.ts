import { sql } from 'kysely';
import type { Database, Db } from './schema.js';

type Row = Record<string, unknown>;

/**
 * The rows of `table` whose `column` is one of `values` (and whose columns equal `also`), in one
 * query, by key ascending.
 */
export async function rowsWhereIn(
  db: Db, table: keyof Database, column: string, values: unknown[], options: { key?: string; also?: Row } = {},
): Promise<Row[]> {
  const distinct = [...new Set(values)];
  if (distinct.length === 0) return [];
  const also = Object.entries(options.also ?? {}).map(([c, v]) => sql` and ${sql.ref(c)} = ${v}`);
  const result = await sql<Row>`select * from ${sql.table(table)} where ${sql.ref(column)} in (${sql.join(distinct)})${sql.join(also, sql``)} order by ${sql.ref(options.key ?? 'id')}`.execute(db);
  return result.rows;
}

/** Groups rows by the value of one of their columns. */
export function groupBy(rows: Row[], column: string): Map<unknown, Row[]> {
  const groups = new Map<unknown, Row[]>();
  for (const row of rows) groups.set(row[column], [...(groups.get(row[column]) ?? []), row]);
  return groups;
}
