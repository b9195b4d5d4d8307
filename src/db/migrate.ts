import { Migrator, type Migration } from 'kysely';
import { holdingSqliteWriteLock } from './sqlite.js';
import type { Db } from './schema.js';
import * as catalogue from './migrations/0001_catalogue.js';
import * as textKeys from './migrations/0002_text_keys.js';
import * as versions from './migrations/0003_versions.js';
import * as rowCounts from './migrations/0004_row_counts.js';
import * as changeLog from './migrations/0005_change_log.js';
import * as concurrentVersions from './migrations/0006_concurrent_versions.js';
import * as undoIndex from './migrations/0007_undo_index.js';
import * as freeVersionSlots from './migrations/0008_free_version_slots.js';
import * as images from './migrations/0009_images.js';
import * as venuesShowtimes from './migrations/0010_venues_showtimes.js';
import * as imageRecords from './migrations/0011_image_records.js';
import * as updatesThatChangeRows from './migrations/0012_updates_that_change_rows.js';

/**
 * Forward-only, versioned migrations. Kysely records each applied name in `kysely_migration`
 * and, on PostgreSQL, holds an advisory lock while migrating, so concurrent starts apply each
 * migration once (on SQLite, see migrateToLatest). Append new migrations; never edit an applied one.
 */
const migrations: Record<string, Migration> = {
  '0001_catalogue': catalogue,
  '0002_text_keys': textKeys,
  '0003_versions': versions,
  '0004_row_counts': rowCounts,
  '0005_change_log': changeLog,
  '0006_concurrent_versions': concurrentVersions,
  '0007_undo_index': undoIndex,
  '0008_free_version_slots': freeVersionSlots,
  '0009_images': images,
  '0010_venues_showtimes': venuesShowtimes,
  '0011_image_records': imageRecords,
  '0012_updates_that_change_rows': updatesThatChangeRows,
};

/** Every migration, oldest first. */
export const migrationNames = Object.keys(migrations).sort();

/** Where Kysely's Migrator finds them. */
export const migrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Db): Promise<string[]> {
  return holdingSqliteWriteLock(db, () => migrate(db));
}

async function migrate(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw error;
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
