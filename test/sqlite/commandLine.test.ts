import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statfsSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { freePort } from '../embedded-postgres.js';
import { logLines, root, startService } from '../service.js';
import { appOn, cartelera } from '../cli/cli.js';
import { upload } from '../api/uploads.js';
import { tempDir } from '../tempDir.js';

const dir = tempDir('cartelera-sqlite-command-');

describe('cartelera on SQLite files', () => {
  it('when DATABASE_URL names a SQLite file that does not exist, then import, export, copy, check and migrate --status refuse, create nothing, and say how to make it with an option they take', async () => {
    const typo = join(dir, 'catalgo.sqlite');
    const url = `sqlite:${typo}`;
    const missing = `cartelera: store sqlite:${typo} does not exist (a mistyped DATABASE_URL?); `;
    const runs: [string[], string][] = [
      [['import', join(dir, 'x.json')], 'pass --create to make it'],
      ...[['export'], ['copy', '--to', `sqlite:${join(dir, 'otra.sqlite')}`], ['check'], ['migrate', '--status']].map(
        (args): [string[], string] => [args, 'name one that exists, or make it with cartelera migrate (or import --create)'],
      ),
    ];
    for (const [args, remedy] of runs) {
      const run = await cartelera(args, url);
      assert.equal(run.code, 1, `${args[0]}: ${run.stderr}`);
      assert.equal(run.stderr, `${missing}${remedy}\n`, args[0]);
      assert.ok(!existsSync(typo), `${args[0]} made no file`);
    }
    // What the sentences offer exists: check takes no --create, migrate makes the store.
    assert.equal((await cartelera(['check', '--create'], url)).code, 2);
    const migrated = await cartelera(['migrate'], url);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.equal((await cartelera(['check'], url)).code, 0);
    const created = await cartelera(['import', '--create', '--dry-run', join(dir, 'x.json')], `sqlite:${join(dir, 'otro.sqlite')}`);
    assert.equal(created.code, 2);
    assert.match(created.stderr, /x\.json: no such file or folder/);
  });

  it('when backup names a file in a missing folder, then it makes the folder and writes the copy there', async () => {
    const url = `sqlite:${join(dir, 'fuente.sqlite')}`;
    assert.equal((await cartelera(['seed'], url)).code, 0);
    const copy = join(dir, 'copias', 'noviembre', 'copia.sqlite');
    const run = await cartelera(['backup', copy], url);
    assert.equal(run.code, 0, run.stderr);
    const check = await cartelera(['check'], `sqlite:${copy}`);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /peliculas: 12\n/);
  });

  it("when a store with images is backed up, then the copy serves each image and its renditions byte for byte, with the same ETags, and check finds every original matching its digest", async () => {
    const url = `sqlite:${join(dir, 'con-imagenes.sqlite')}`;
    assert.equal((await cartelera(['seed'], url)).code, 0);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 0, g: 128, b: 255 } } }).png().toBuffer();
    const source = await appOn(url);
    const paths: string[] = [];
    try {
      const body = await upload([{ name: 'cartel.png', bytes: png }], { recurso: 'peliculas', clave: 1, alt: 'Cartel' });
      const created = await source.inject({ method: 'POST', url: '/imagenes', ...body });
      assert.equal(created.statusCode, 201, created.body);
      const { id } = created.json<{ id: number }>();
      paths.push(`/imagenes/${id}`, `/imagenes/${id}/archivo`, `/imagenes/${id}/archivo?ancho=64&formato=webp`);
    } finally {
      await source.close();
    }
    const copy = join(dir, 'copia-con-imagenes.sqlite');
    const run = await cartelera(['backup', copy], url);
    assert.equal(run.code, 0, run.stderr);
    const check = await cartelera(['check'], `sqlite:${copy}`);
    assert.equal(check.code, 0, check.stdout);

    const served = async (store: string) => {
      const app = await appOn(store);
      try {
        return await Promise.all(paths.map(async (path) => {
          const res = await app.inject({ method: 'GET', url: path });
          assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
          return { path, etag: res.headers.etag, bytes: res.rawPayload.toString('base64') };
        }));
      } finally {
        await app.close();
      }
    };
    const original = await served(url);
    assert.ok(original.every((answer) => answer.etag && answer.bytes.length > 0));
    assert.deepEqual(await served(`sqlite:${copy}`), original);
  });

  it('when imports run while the service writes to the same file, then each waits its turn and succeeds, and the service answers every write 201 or 503, never 500', async () => {
    const url = `sqlite:${join(dir, 'vivo.sqlite')}`;
    assert.equal((await cartelera(['seed'], url)).code, 0);
    const service = await startService({ DATABASE_URL: url });
    try {
      await service.healthy();
      const statuses: number[] = [];
      let sent = 0;
      let writing = true;
      const load = (async () => {
        while (writing) {
          const res = await fetch(`${service.base}/categorias`, {
            method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ nombre: `Viva ${sent++}` }),
          });
          statuses.push(res.status);
          if (res.status === 503) assert.ok(res.headers.get('retry-after'), 'a 503 says when to try again');
          await res.arrayBuffer();
        }
      })();
      for (let round = 0; round < 3; round++) {
        const file = join(dir, `lote-${round}.ndjson`);
        const lines = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ recurso: 'categorias', registro: { nombre: `Lote ${round}-${i}` } }));
        writeFileSync(file, `${lines.join('\n')}\n`);
        const before = sent;
        const run = await cartelera(['import', file], url);
        assert.equal(run.code, 0, `import ${round}: ${run.stderr}`);
        assert.match(run.stderr, /categorias: 2000 new/);
        assert.ok(sent > before, `the service was sent writes while import ${round} ran`);
      }
      writing = false;
      await load;
      assert.deepEqual([...new Set(statuses)].filter((s) => s !== 201 && s !== 503), [], 'every write answered 201 or 503');
      assert.ok(statuses.includes(201));
    } finally {
      await service.stop();
    }
  });

  it('when cartelera serve runs through npm run and gets SIGTERM, then it shuts down and exits 0, as npm start does', async () => {
    const port = await freePort();
    const child = spawn('npm', ['run', '--silent', 'cartelera', '--', 'serve'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'serve.sqlite')}`, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = once(child, 'exit');
    const deadline = Date.now() + 15_000;
    while (!(await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false))) {
      assert.ok(Date.now() < deadline && child.exitCode === null, `serve did not become healthy:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill('SIGTERM');
    const [code] = await exited;
    assert.equal(code, 0, output);
    assert.ok(logLines(output).some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM'), output);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/health`));
  });

  // A real full disk: a small tmpfs, which only root may mount. The suite runs as root, as CI does;
  // run otherwise, this test fails with mount's own refusal rather than passing unchecked.
  it('when the disk fills up during an export, then the command exits 1 with one sentence, and leaves no file, whole or partial, under the name asked for', async () => {
    const url = `sqlite:${join(dir, 'lleno.sqlite')}`;
    assert.equal((await cartelera(['seed'], url)).code, 0);
    const disk = join(dir, 'disco');
    mkdirSync(disk);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', disk]);
    try {
      writeFileSync(join(disk, 'catalogo.json'), 'el anterior\n');
      mkdirSync(join(disk, 'anteriores'));
      writeFileSync(join(disk, 'anteriores', 'categorias.csv'), 'la anterior\n');
      // Nothing free: every export of the demo catalogue needs a page at least.
      const { bavail, bsize } = statfsSync(disk);
      writeFileSync(join(disk, 'relleno'), Buffer.alloc(bavail * bsize));
      const exports: [string[], string][] = [
        [['--out', join(disk, 'catalogo.json')], 'catalogo.json'],
        [['--out', join(disk, 'catalogo.xlsx')], 'catalogo.xlsx'],
        [['--out', join(disk, 'catalogo.ods')], 'catalogo.ods'],
        [['--out', join(disk, 'peliculas.csv')], 'peliculas.csv'],
      ];
      const folders = ['hojas', 'anteriores'];
      for (const [args, name] of exports) {
        const run = await cartelera(['export', ...args], url);
        assert.equal(run.code, 1, `${args.join(' ')}: ${run.stderr}`);
        const said = run.stderr.trimEnd().split('\n').at(-1);
        assert.equal(said, `cartelera: ${join(disk, name)}: not written (no space left on device); nothing was left under that name`);
      }
      // A CSV export's folder is left as it was: removed when the command made it, its files untouched when it was there.
      for (const folder of folders) {
        const run = await cartelera(['export', '--format', 'csv', '--out', join(disk, folder)], url);
        assert.equal(run.code, 1, `${folder}: ${run.stderr}`);
        assert.equal(run.stderr.trimEnd().split('\n').at(-1), `cartelera: ${join(disk, folder)}: not written (no space left on device); the folder was left as it was`);
      }
      // Room for one small file: the categories are written whole, the movies find no room, and the categories' old file stays.
      truncateSync(join(disk, 'relleno'), bavail * bsize - 4096);
      const halfway = await cartelera(['export', '--format', 'csv', '--out', join(disk, 'anteriores')], url);
      assert.equal(halfway.code, 1, halfway.stderr);
      assert.equal(readFileSync(join(disk, 'catalogo.json'), 'utf8'), 'el anterior\n');
      assert.equal(readFileSync(join(disk, 'anteriores', 'categorias.csv'), 'utf8'), 'la anterior\n');
      assert.deepEqual(readdirSync(disk, { recursive: true }).sort(), ['anteriores', join('anteriores', 'categorias.csv'), 'catalogo.json', 'relleno']);
      // With room again, the same command writes the file.
      execFileSync('rm', [join(disk, 'relleno')]);
      const again = await cartelera(['export', '--out', join(disk, 'catalogo.json')], url);
      assert.equal(again.code, 0, again.stderr);
      assert.equal((JSON.parse(readFileSync(join(disk, 'catalogo.json'), 'utf8')) as { peliculas: unknown[] }).peliculas.length, 12);
    } finally {
      execFileSync('umount', [disk]);
    }
  });
});
