import { Migrator, type Migration } from 'kysely';
import type { Db } from './schema.js';
import * as catalogue from './migrations/0001_catalogue.js';
import * as textKeys from './migrations/0002_text_keys.js';
import * as versions from './migrations/0003_versions.js';

/**
 * Forward-only, versioned migrations. Kysely records each applied name in `kysely_migration`
 * and holds a lock while migrating (an advisory lock on PostgreSQL), so concurrent starts
 * apply each migration once. Append new migrations; never edit an applied one.
 */
const migrations: Record<string, Migration> = {
  '0001_catalogue': catalogue,
  '0002_text_keys': textKeys,
  '0003_versions': versions,
};

/** Every migration, oldest first. */
export const migrationNames = Object.keys(migrations).sort();

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw error;
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
