import { sql, type Kysely } from 'kysely';
import { normalizeKey } from '../../catalogue/keys.js';

// Every text field gets a `<field>_clave` column: its normalized form (keys.ts), computed by the
// service on every write. Filters, search and sorting on text compare these, so SQLite and
// PostgreSQL give identical answers without either needing accent-folding functions.
export const textKeys = {
  peliculas: { key: 'id', fields: ['sipnosis'] },
  obras: { key: 'id', fields: ['descripcion'] },
  eventos_urbanos: { key: 'id', fields: ['descripcion', 'lugar'] },
  artistas: { key: 'dni', fields: ['nombre', 'apellido', 'tipo', 'descripcion'] },
} as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, { key, fields }] of Object.entries(textKeys)) {
    for (const field of fields) {
      await db.schema.alterTable(table).addColumn(`${field}_clave`, 'text', (col) => col.notNull().defaultTo('')).execute();
    }
    // Existing rows: compute the keys here, in the same function every later write uses.
    const rows = await sql<Record<string, string | number>>`select ${sql.ref(key)}, ${sql.join(fields.map((f) => sql.ref(f)))} from ${sql.table(table)}`.execute(db);
    for (const row of rows.rows) {
      const keys = fields.map((f) => sql`${sql.ref(`${f}_clave`)} = ${normalizeKey(String(row[f]))}`);
      await sql`update ${sql.table(table)} set ${sql.join(keys)} where ${sql.ref(key)} = ${row[key]}`.execute(db);
    }
  }
}
