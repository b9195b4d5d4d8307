import { sql, type RawBuilder } from 'kysely';
import { OPERACIONES } from '../catalogue/fields.js';
import type { FieldKind, ListTable } from '../db/listing.js';
import type { CambiosTable, Db } from '../db/schema.js';
import { loggedResources as resources } from '../resources/index.js';

/** A change as the store holds it. */
export type ChangeRow = Omit<CambiosTable, 'id'> & { id: number };

/** What `GET /cambios` filters and sorts on, with the resources' list dialect (db/listing.ts). */
export const changeList: ListTable = {
  table: 'cambios',
  key: 'id',
  kinds: {
    id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    recurso: { type: 'enum', values: resources.map((r) => r.name) },
    clave: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    operacion: { type: 'enum', values: OPERACIONES },
    // Compared by its comparable column, quien_clave, as text fields are.
    quien: { type: 'text' },
    cuando: { type: 'fecha' },
  } satisfies Record<string, FieldKind>,
};

/** The changes `where` selects, in id order (the first `limit` of them). */
export async function changesWhere(db: Db, where: RawBuilder<unknown>, limit?: number): Promise<ChangeRow[]> {
  const { rows } = await sql<ChangeRow>`select * from cambios where ${where} order by id ${limit === undefined ? sql`` : sql`limit ${limit}`}`.execute(db);
  return rows.map(normalized);
}

/** PostgreSQL and SQLite alike: integers as numbers. */
export function normalized(row: ChangeRow): ChangeRow {
  return { ...row, id: Number(row.id), clave: Number(row.clave), causa: row.causa === null ? null : Number(row.causa), deshace: row.deshace === null ? null : Number(row.deshace) };
}

/** A change as the API answers it: one line of JSON, its record snapshots as they were stored. */
export function changeJson(row: ChangeRow): string {
  const text = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));
  return (
    `{"id":${row.id},"recurso":${JSON.stringify(row.recurso)},"clave":${row.clave},"operacion":"${row.operacion}",` +
    `"antes":${row.antes ?? 'null'},"despues":${row.despues ?? 'null'},"campos":${row.campos},"quien":${text(row.quien)},` +
    `"cuando":"${row.cuando}","causa":${row.causa ?? 'null'},"deshace":${row.deshace ?? 'null'}}`
  );
}
