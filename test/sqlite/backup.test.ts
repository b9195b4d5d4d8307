import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import SQLite from 'better-sqlite3';
import { comparable } from '../../src/catalogue/comparable.js';
import { openDatabase } from '../../src/db/connect.js';
import { backupStore } from '../../src/transfer/backup.js';
import { startService } from '../service.js';
import { cartelera, everyList } from '../cli/cli.js';
import { tempDir } from '../tempDir.js';

it('when a backup is taken while the service writes, and another connection commits in the middle of it, then the copy is one moment of the store, holds that commit, passes check and is served as is', async () => {
  const dir = tempDir('cartelera-backup-');
  const file = join(dir, 'live.sqlite');
  const url = `sqlite:${file}`;
  assert.equal((await cartelera(['seed'], url)).code, 0);
  const service = await startService({ DATABASE_URL: url });
  const db = openDatabase(url);
  // Another writer on the same file, committing synchronously when the backup reports its first step.
  const other = new SQLite(file);
  try {
    await service.healthy();
    let writing = true;
    let written = 0;
    let firstWrite: () => void = () => {};
    const started = new Promise<void>((resolve) => (firstWrite = resolve));
    const load = (async () => {
      while (writing) {
        const res = await fetch(`${service.base}/categorias`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ nombre: `Carga ${written}` }) });
        assert.equal(res.status, 201);
        written++;
        firstWrite();
      }
    })();
    await started;
    // More pages than the backup's first step copies (100), so that there is a middle.
    const insert = other.prepare('insert into categorias (nombre, nombre_clave) values (?, ?)');
    other.transaction(() => {
      for (let i = 0; i < 3000; i++) insert.run(`Relleno ${i} ${'x'.repeat(200)}`, `relleno ${i} ${'x'.repeat(200)}`);
    })();

    const copy = join(dir, 'copia.sqlite');
    let midway: { done: number; total: number } | undefined;
    await backupStore(db, copy, (done, total) => {
      if (midway) return;
      midway = { done, total };
      insert.run('Durante la copia', comparable('Durante la copia'));
    });
    writing = false;
    await load;
    assert.ok(midway && midway.done < midway.total, `the commit came after the first step and before the last: ${JSON.stringify(midway)}`);

    const check = await cartelera(['check'], `sqlite:${copy}`);
    assert.equal(check.code, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /integrity: ok/);
    const categorias = JSON.parse((await everyList(`sqlite:${copy}`))['/categorias'] ?? '[]') as { nombre: string }[];
    assert.ok(categorias.some((c) => c.nombre === 'Durante la copia'), 'the commit made during the backup is in the copy');
    // A copy of one moment: the load's categories are there from the first up to some point, none missing in between.
    const loaded = categorias.filter((c) => c.nombre.startsWith('Carga ')).map((c) => Number(c.nombre.slice(6)));
    assert.ok(loaded.length >= 1, 'writes acknowledged before the backup began are in it');
    assert.deepEqual(loaded, loaded.map((_, i) => i));
    assert.equal((await cartelera(['backup', copy], url)).code, 1, 'refuses to overwrite');
  } finally {
    other.close();
    await db.destroy();
    await service.stop();
  }
  assert.ok(existsSync(join(dir, 'copia.sqlite')));
});
