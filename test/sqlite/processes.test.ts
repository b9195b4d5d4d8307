import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { migrationNames } from '../../src/db/migrate.js';
import { logLines } from '../service.js';
import { harness } from '../harness.js';

// Lookups, pages and whole lists are answered from memory while their table's version holds; on
// SQLite a process learns of another's commits from data_version, looked at once per event-loop
// turn. Here two real processes share one file, and each write through one must show in the very
// next read through the other.

const json = { 'content-type': 'application/json' };
const { store, service: start } = harness();

async function call(base: string, method: string, path: string, body?: object): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${base}${path}`, { method, headers: json, ...(body && { body: JSON.stringify(body) }) });
  return { status: res.status, json: await res.json() };
}

describe('several service processes on one SQLite file', () => {
  it('when three start at the same moment on a new file, then all come up and each migration ran once', async () => {
    const { url } = await store();
    const started = await Promise.all([1, 2, 3].map(() => start({ DATABASE_URL: url })));
    await Promise.all(started.map((s) => s.healthy(30000)));
    const applied = started.filter((s) => logLines(s.output()).some((l) => l.msg === 'migrations applied'));
    assert.equal(applied.length, 1, 'exactly one process applied the migrations');
    const file = new SQLite(url.slice('sqlite:'.length), { readonly: true });
    try {
      const names = file.prepare('select name from kysely_migration order by name').pluck().all();
      assert.deepEqual(names, migrationNames);
    } finally {
      file.close();
    }
  });

  it('when one process writes, then the next lookup, page and list through the other show it, every time', async () => {
    const { url } = await store();
    const [a, b] = await Promise.all([start({ DATABASE_URL: url }), start({ DATABASE_URL: url })]);
    await Promise.all([a.healthy(30000), b.healthy(30000)]);
    const categoria = (await call(a.base, 'POST', '/categorias', { nombre: 'Drama' })).json as { id: number };
    const created = await call(a.base, 'POST', '/peliculas', { titulo: 'Nueve reinas', sipnosis: 'Una estafa.', duracion: 114, categoria_id: categoria.id });
    assert.equal(created.status, 201);
    const { id } = created.json as { id: number };
    const reads = ['/peliculas/nueve%20reinas', '/peliculas?_page=1&_limit=10', '/peliculas'];

    for (let round = 1; round <= 40; round++) {
      // The reader answers (and keeps) every read first; then the other process writes.
      const [writer, reader] = round % 2 === 0 ? [a, b] : [b, a];
      for (const path of reads) assert.equal((await call(reader.base, 'GET', path)).status, 200);
      const written = await call(writer.base, 'PATCH', `/peliculas/${id}`, { duracion: 100 + round });
      assert.equal(written.status, 200);
      const [lookup, page, list] = await Promise.all(reads.map((path) => call(reader.base, 'GET', path)));
      assert.deepEqual(lookup?.json, written.json, `round ${round}: lookup`);
      assert.deepEqual(page?.json, [written.json], `round ${round}: page`);
      assert.deepEqual(list?.json, [written.json], `round ${round}: whole list`);
    }
  });
});
