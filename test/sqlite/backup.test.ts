import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { startService } from '../service.js';
import { cartelera, everyList } from '../cli/cli.js';

it('when a backup is taken while a write load runs, then the copy passes check and is served as is', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cartelera-backup-'));
  const url = `sqlite:${join(dir, 'live.sqlite')}`;
  assert.equal((await cartelera(['seed'], url)).code, 0);
  const service = await startService({ DATABASE_URL: url });
  try {
    await service.healthy();
    let writing = true;
    let written = 0;
    const load = (async () => {
      while (writing) {
        const res = await fetch(`${service.base}/categorias`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ nombre: `Carga ${written}` }) });
        assert.equal(res.status, 201);
        written++;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const copy = join(dir, 'copia.sqlite');
    const backup = await cartelera(['backup', copy], url);
    writing = false;
    await load;
    assert.equal(backup.code, 0, backup.stderr);
    assert.ok(written > 0, 'writes ran during the backup');

    const check = await cartelera(['check'], `sqlite:${copy}`);
    assert.equal(check.code, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /integrity: ok/);
    const lists = await everyList(`sqlite:${copy}`);
    const categorias = JSON.parse(lists['/categorias'] ?? '[]') as { nombre: string }[];
    assert.ok(categorias.length >= 9 && categorias.length <= 9 + written, `${categorias.length} categories`);
    // A copy of one moment: the load's categories are there from the first up to some point, none missing in between.
    const loaded = categorias.filter((c) => c.nombre.startsWith('Carga ')).map((c) => Number(c.nombre.slice(6)));
    assert.deepEqual(loaded, loaded.map((_, i) => i));
    assert.equal((await cartelera(['backup', copy], url)).code, 1, 'refuses to overwrite');
  } finally {
    await service.stop();
  }
  assert.ok(existsSync(join(dir, 'copia.sqlite')));
});
