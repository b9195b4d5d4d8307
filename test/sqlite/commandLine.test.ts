import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { freePort } from '../embedded-postgres.js';
import { logLines, root } from '../service.js';
import { cartelera } from '../cli/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'cartelera-sqlite-command-'));

describe('cartelera on SQLite files', () => {
  it('when DATABASE_URL names a SQLite file that does not exist, then import, export, copy and check refuse, create nothing, and say how to make it', async () => {
    const typo = join(dir, 'catalgo.sqlite');
    const url = `sqlite:${typo}`;
    for (const args of [['import', join(dir, 'x.json')], ['export'], ['copy', '--to', `sqlite:${join(dir, 'otra.sqlite')}`], ['check']]) {
      const run = await cartelera(args, url);
      assert.equal(run.code, 1, `${args[0]}: ${run.stderr}`);
      assert.equal(run.stderr, `cartelera: store sqlite:${typo} does not exist (a mistyped DATABASE_URL?); pass --create to make it\n`, args[0]);
      assert.ok(!existsSync(typo), `${args[0]} made no file`);
    }
    const created = await cartelera(['import', '--create', '--dry-run', join(dir, 'x.json')], url);
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
});
