import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Db } from '../src/db/schema.js';

/** The backend this run tests, chosen by test/run.ts. */
export const backend: 'sqlite' | 'postgres' = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

export interface TestStore {
  /** A DATABASE_URL naming a fresh, empty store. */
  url: string;
  /** Removes the store (closing whatever still holds it). */
  drop(): Promise<void>;
}

/** A fresh, empty store of this run's backend: a SQLite file, or a new PostgreSQL database. */
export async function freshStore(): Promise<TestStore> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'cartelera-test-'));
    return { url: `sqlite:${join(dir, 'store.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('TEST_STORE=postgres needs TEST_DATABASE_URL (npm test sets it)');
  const name = `cartelera_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  await adminQuery(admin, `create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(admin, `drop database if exists ${name} with (force)`) };
}

export interface MigratedStore extends TestStore {
  /** The store, open and migrated to the latest schema; `drop()` closes it. */
  db: Db;
}

/** A fresh store of this run's backend with the service's schema, open as `db`, as the service opens it. */
export async function migratedStore(): Promise<MigratedStore> {
  // Loaded here, not above: the files that only start service processes need none of the store's code.
  const [{ openDatabase }, { migrateToLatest }] = await Promise.all([import('../src/db/connect.js'), import('../src/db/migrate.js')]);
  const store = await freshStore();
  const db = openDatabase(store.url);
  const drop = async () => {
    await db.destroy();
    await store.drop();
  };
  try {
    await migrateToLatest(db);
  } catch (error) {
    await drop();
    throw error;
  }
  return { url: store.url, db, drop };
}

/** Runs `test` on a migrated store of its own (as migratedStore makes it), dropped afterwards whatever happens. */
export async function withMigratedStore(test: (store: MigratedStore) => Promise<void>): Promise<void> {
  const store = await migratedStore();
  try {
    await test(store);
  } finally {
    await store.drop();
  }
}

async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
