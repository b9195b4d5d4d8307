import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

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

async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
