import { sql, type Kysely } from 'kysely';

// Frozen with this migration: the normalization every write used when it was written.
function normalizeKey(value: string): string {
  return value
    .trim()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    // toUpperCase first folds characters that have no one-letter lower case (ß → SS → ss).
    .toUpperCase()
    .toLowerCase()
    .normalize('NFC');
}

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
    // Existing rows: their keys, computed as the writes of the time computed them.
    const rows = await sql<Record<string, string | number>>`select ${sql.ref(key)}, ${sql.join(fields.map((f) => sql.ref(f)))} from ${sql.table(table)}`.execute(db);
    for (const row of rows.rows) {
      const keys = fields.map((f) => sql`${sql.ref(`${f}_clave`)} = ${normalizeKey(String(row[f]))}`);
      await sql`update ${sql.table(table)} set ${sql.join(keys)} where ${sql.ref(key)} = ${row[key]}`.execute(db);
    }
  }
}
