import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/connect.js';
import { storeFaultOf } from '../../src/db/errors.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/schema.js';
import { categorias } from '../../src/resources/index.js';
import { createRecord } from '../../src/resources/writes.js';
import { importCatalogue } from '../../src/transfer/import.js';
import { readImport } from '../../src/transfer/read/index.js';
import { fillUp } from '../faults.js';
import { tempDir } from '../tempDir.js';

// A disk that fills up in the middle of a transaction: SQLite writes the pages that do not fit its
// cache to the WAL before the commit (a spill), the write fails with SQLITE_FULL, and SQLite rolls
// the whole transaction back, savepoints and all. On a small tmpfs (root, as the suite runs).

/** A migrated store on a tmpfs with `leave` bytes free and a cache of a few pages, for `work`; then `categorias`' count. */
async function onNearlyFullDisk(leave: number, work: (db: Db, dir: string) => Promise<void>): Promise<number> {
  const dir = tempDir('cartelera-spill-');
  const disk = join(dir, 'disco');
  mkdirSync(disk);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', disk]);
  const db = openDatabase(`sqlite:${join(disk, 'catalogo.sqlite')}`);
  try {
    await migrateToLatest(db);
    // A cache of a few pages: a transaction's pages go to the WAL long before its commit.
    await sql`pragma cache_size = 8`.execute(db);
    fillUp(join(disk, 'relleno'), leave);
    await work(db, dir);
    rmSync(join(disk, 'relleno'));
    const { rows: [row] } = await sql<{ n: number }>`select count(*) as n from categorias`.execute(db);
    return Number(row?.n);
  } finally {
    await db.destroy();
    execFileSync('umount', [disk]);
    rmSync(dir, { recursive: true, force: true });
  }
}

const longName = (i: number) => `Categoría número ${i} ${'x'.repeat(200)}`;

describe('a SQLite store whose disk fills up in the middle of a transaction', () => {
  it('when an import finds no room for a page it spills, then it fails as a full disk, not as "no such savepoint", and stores nothing', async () => {
    const stored = await onNearlyFullDisk(128 * 1024, async (db, dir) => {
      const file = join(dir, 'categorias.ndjson');
      writeFileSync(file, Array.from({ length: 3000 }, (_, i) => JSON.stringify({ recurso: 'categorias', registro: { nombre: longName(i) } })).join('\n'));
      const failure: unknown = await importCatalogue(db, readImport([file]), { onConflict: 'error', dryRun: false, quien: 'ana', timeZone: 'UTC' }).then(
        () => assert.fail('the import was stored'),
        (error: unknown) => error,
      );
      assert.equal(storeFaultOf(failure), 'disk_full', String(failure));
    });
    assert.equal(stored, 0, 'nothing of the import');
  });

  it('when writes committed together find no room, then each is stored and answered, or refused as a full disk and not stored; none is answered for a rollback', async () => {
    let answered: string[] = [];
    const stored = await onNearlyFullDisk(32 * 1024, async (db) => {
      const outcomes = await Promise.allSettled(Array.from({ length: 64 }, (_, i) => createRecord(db, categorias, { nombre: longName(i) }, { quien: 'ana' })));
      const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
      assert.ok(failures.length > 0, 'the disk was full for some');
      assert.deepEqual(failures.filter((error) => storeFaultOf(error) !== 'disk_full').map(String), [], 'every refusal is the full disk');
      answered = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [String(o.value.nombre)] : []));
      const { rows } = await sql<{ nombre: string }>`select nombre from categorias order by id`.execute(db);
      assert.deepEqual(rows.map((r) => r.nombre).sort(), [...answered].sort(), 'the store holds the answered writes, and no other');
    });
    assert.equal(stored, answered.length);
  });
});
