import { sql, type Kysely } from 'kysely';

/**
 * An index on `cambios.deshace`, the change an undo undid. Deleting a change (retention, see
 * changes/retention.ts) sets to null the `deshace` of the changes that refer to it (a foreign key,
 * migration 0005), and without an index each deleted change read the whole log to find them:
 * pruning 100,000 changes took 250 s on SQLite, each batch of 500 holding the store a second or
 * more. Partial, as `cambios_causa` is: only undos have one, and a lookup by value implies it is
 * not null, so both stores use it for the foreign key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index cambios_deshace on cambios (deshace) where deshace is not null`.execute(db);
}
