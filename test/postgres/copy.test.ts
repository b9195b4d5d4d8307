import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { harness } from '../harness.js';
import { appOn, cartelera, everyList, withoutInstant } from '../cli/cli.js';
import { tempDir } from '../tempDir.js';

const { store } = harness();

/** Every change the store's log holds, as GET /cambios answers them. */
async function changeLog(url: string): Promise<{ id: number; quien: string }[]> {
  const app = await appOn(url);
  try {
    return (await app.inject({ method: 'GET', url: '/cambios?_limit=1000' })).json();
  } finally {
    await app.close();
  }
}

it('when a catalogue is copied SQLite → PostgreSQL → SQLite, then every list answers the same, and the ids continue past the copied ones', async () => {
  const dir = tempDir('cartelera-copy-');
  const sqlite = `sqlite:${join(dir, 'origen.sqlite')}`;
  assert.equal((await cartelera(['seed', '--quien', 'Ana'], sqlite)).code, 0);
  const postgres = await store();

  const there = await cartelera(['copy', '--to', postgres.url], sqlite);
  assert.equal(there.code, 0, there.stderr);
  assert.match(there.stderr, /copy: peliculas 12 records, sha256 [0-9a-f]{64}/);
  const back = `sqlite:${join(dir, 'vuelta.sqlite')}`;
  const again = await cartelera(['copy', '--to', back], postgres.url);
  assert.equal(again.code, 0, again.stderr);

  const original = await everyList(sqlite);
  assert.deepEqual(await everyList(postgres.url), original);
  assert.deepEqual(await everyList(back), original);
  // The change log comes along, change for change, and still describes every record.
  const log = await changeLog(sqlite);
  assert.equal(log.length, 173);
  assert.deepEqual(await changeLog(postgres.url), log);
  assert.deepEqual(await changeLog(back), log);
  assert.match((await cartelera(['check'], postgres.url)).stdout, /cambios: 173\nintegrity: ok\n$/);
  assert.equal(withoutInstant((await cartelera(['export'], back)).stdout), withoutInstant((await cartelera(['export'], sqlite)).stdout));

  // A new record on the copy gets the next id, not one the copy brought.
  const nueva = join(dir, 'nueva.ndjson');
  writeFileSync(nueva, '{"recurso":"categorias","registro":{"nombre":"Nueva"}}\n');
  assert.equal((await cartelera(['import', nueva], postgres.url)).code, 0);
  assert.deepEqual((JSON.parse((await everyList(postgres.url))['/categorias'] ?? '[]') as { id: number }[]).at(-1), { id: 10, nombre: 'Nueva' });
  assert.deepEqual((await changeLog(postgres.url)).at(-1)?.id, 174);
  const refused = await cartelera(['copy', '--to', postgres.url], sqlite);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /holds \d+ records; --replace empties it first/);
  const replaced = await cartelera(['copy', '--to', postgres.url, '--replace'], sqlite);
  assert.equal(replaced.code, 0, replaced.stderr);
  assert.deepEqual(await everyList(postgres.url), original);
});

it('when asked to back up a PostgreSQL store, then it says to use pg_dump or export, and exits 1', async () => {
  const postgres = await store();
  const run = await cartelera(['backup', join(tmpdir(), 'nunca.sqlite')], postgres.url);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /^cartelera: store postgres:\/\/[^\n]+\ncartelera: backup copies a SQLite store; on PostgreSQL use pg_dump, or cartelera export\n$/);
});
