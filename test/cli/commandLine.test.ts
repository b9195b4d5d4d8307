import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { root } from '../service.js';
import { harness } from '../harness.js';
import { backend } from '../stores.js';
import { appOn, cartelera, everyList, withoutInstant } from './cli.js';
import { tempDir } from '../tempDir.js';

const dir = tempDir('cartelera-command-');
const started = harness();
async function seeded(): Promise<string> {
  const made = await started.store();
  const seed = await cartelera(['seed'], made.url);
  assert.equal(seed.code, 0, seed.stderr);
  return made.url;
}

/** `npm run cartelera -- …` run in the folder `cwd`, as a user in that folder would. */
async function npmRun(args: string[], cwd: string, url: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn('npm', ['--prefix', root, 'run', '--silent', 'cartelera', '--', ...args], {
    cwd,
    env: { ...process.env, DATABASE_URL: url },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = await once(child, 'exit');
  return { code: code as number | null, stderr };
}

describe(`cartelera's files and stores (${backend})`, () => {
  it('when run through npm run in another folder, then the files it is given and writes are in that folder', async () => {
    const url = await seeded();
    const folder = mkdtempSync(join(dir, 'carpeta-'));
    writeFileSync(join(folder, 'categorias.csv'), 'nombre\nCine de barrio\n');
    const imported = await npmRun(['import', 'categorias.csv'], folder, url);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match((await everyList(url))['/categorias'] ?? '', /"Cine de barrio"/);
    const exported = await npmRun(['export', '--out', 'copia.json'], folder, url);
    assert.equal(exported.code, 0, exported.stderr);
    assert.ok(existsSync(join(folder, 'copia.json')), 'written where the user is');
    assert.ok(!existsSync(join(root, 'copia.json')), 'not written into the project');
  });

  it('when a command opens a store, then it says which on stderr, without the password', async () => {
    const url = await seeded();
    const run = await cartelera(['check'], url);
    assert.equal(run.code, 0, run.stderr);
    const opened = run.stderr.split('\n')[0] ?? '';
    if (url.startsWith('sqlite:')) {
      assert.equal(opened, `cartelera: store ${url}`);
    } else {
      const password = new URL(url).password;
      assert.ok(password.length > 0, 'the test server has a password');
      assert.equal(opened, `cartelera: store ${url.replace(`:${password}@`, ':***@')}`);
      assert.doesNotMatch(run.stderr, new RegExp(password));
    }
  });

  it('when --out names a missing folder, then export makes it; its extension chooses the format, and a contradiction is refused', async () => {
    const url = await seeded();
    const ndjson = join(dir, 'nueva', 'carpeta', 'catalogo.ndjson');
    const run = await cartelera(['export', '--out', ndjson], url);
    assert.equal(run.code, 0, run.stderr);
    const first = readFileSync(ndjson, 'utf8').split('\n')[0] ?? '';
    assert.deepEqual(Object.keys(JSON.parse(first) as object), ['recurso', 'registro']);

    const json = join(dir, 'otra', 'catalogo.json');
    assert.equal((await cartelera(['export', '--out', json], url)).code, 0);
    assert.equal(withoutInstant(readFileSync(json, 'utf8')), withoutInstant((await cartelera(['export'], url)).stdout));

    const csv = await cartelera(['export', '--out', join(dir, 'catalogo.csv')], url);
    assert.equal(csv.code, 2);
    assert.match(csv.stderr, /export: a CSV file holds one resource: name it with --recurso \(categorias, peliculas, Obras, eventosUrbanos, artistas, participaciones, lugares, funciones, imagenes\), or write a folder of them with --format csv --out <folder>/);
    assert.ok(!existsSync(join(dir, 'catalogo.csv')));

    const contradiction = await cartelera(['export', '--format', 'json', '--out', join(dir, 'x.ndjson')], url);
    assert.equal(contradiction.code, 2);
    assert.match(contradiction.stderr, /--format json does not match --out .*x\.ndjson/);
  });

  it('when used wrongly, then it says why in one line and points to --help, with exit 2', async () => {
    const url = await seeded();
    const unknown = await cartelera(['exportar'], url);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr, "error: unknown command 'exportar'\n(Did you mean export?)\n(run 'cartelera --help' for usage)\n");
    const option = await cartelera(['import', '--on-conflict', 'pisar', 'x.json'], url);
    assert.equal(option.code, 2);
    assert.equal(option.stderr, "error: option '--on-conflict <what>' argument 'pisar' is invalid. Allowed choices are error, skip, update.\n(run 'cartelera --help' for usage)\n");
  });
});

describe(`who the command line writes as (${backend})`, () => {
  it('when --quien is given, then the import\'s changes carry it; without it, the system user\'s name', async () => {
    const { url } = await started.store();
    const dir = tempDir('cartelera-quien-');
    writeFileSync(join(dir, 'categorias.csv'), 'nombre\nDrama\n');
    assert.equal((await cartelera(['import', '--create', '--quien', 'Luis', join(dir, 'categorias.csv')], url)).code, 0);
    writeFileSync(join(dir, 'categorias.csv'), 'nombre\nComedia\n');
    assert.equal((await cartelera(['import', join(dir, 'categorias.csv')], url)).code, 0);
    const app = await appOn(url);
    try {
      const log = (await app.inject({ method: 'GET', url: '/cambios' })).json<{ quien: string }[]>();
      assert.deepEqual(log.map((c) => c.quien), ['Luis', userInfo().username]);
    } finally {
      await app.close();
    }
  });
});
