// Sentences, not crashes: what the service and the command line say when they cannot start, as
// processes, exactly as an operator meets them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { harness } from './harness.js';
import { logLines, root } from './service.js';
import { backend } from './stores.js';
import { tempDir } from './tempDir.js';

const { store, service } = harness();

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

async function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd = root): Promise<Ran> {
  const child = spawn(command, args, { cwd, env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return { code, signal, stdout, stderr };
}

describe(`starting up (${backend})`, () => {
  it('when a setting is wrong, then dist/server.js says which and what it expects, one line each, with no stack trace, and exits 1', async () => {
    const { url } = await store();
    const cases: [NodeJS.ProcessEnv, string[]][] = [
      [{ PORT: 'http' }, ["cartelera: PORT is 'http'; expected a whole number from 0 to 65535."]],
      [
        { API_KEYS: 'ana:corta-y-secreta,una-clave-bien-larga-de-sobra', TIMEZONE: 'Mars/Olympus' },
        [
          'cartelera: API_KEYS: entry 1 has a key of 15 characters; a key needs at least 16 characters of A-Z a-z 0-9 - . _ ~ + / (then any =), after an optional name and a colon (ana:<key>).',
          "cartelera: TIMEZONE is 'Mars/Olympus'; expected an IANA time zone, such as America/Argentina/Buenos_Aires, Europe/Madrid or UTC.",
        ],
      ],
      [{ TIMEZONE: '-03:00' }, ["cartelera: TIMEZONE is '-03:00'; expected an IANA time zone, such as America/Argentina/Buenos_Aires, Europe/Madrid or UTC."]],
      [{ LOG_LEVEL: 'loud' }, ["cartelera: LOG_LEVEL is 'loud'; expected one of fatal, error, warn, info, debug, trace, silent."]],
    ];
    for (const [env, lines] of cases) {
      const ran = await run(process.execPath, ['dist/server.js'], { DATABASE_URL: url, PORT: '0', ...env });
      assert.equal(ran.code, 1, JSON.stringify(env));
      assert.equal(ran.stdout, '');
      assert.equal(ran.stderr, lines.map((line) => `${line}\n`).join(''));
      assert.doesNotMatch(ran.stderr, /corta-y-secreta/, 'a key is never quoted');
    }
  });

  it('when a setting is wrong, then a command that opens the store says which and what it expects, one line each, and exits 1', async () => {
    const { url } = await store();
    const ran = await run(process.execPath, ['dist/cli/main.js', 'check'], { DATABASE_URL: url, PORT: '99999', TIMEZONE: 'Buenos Aires' });
    assert.equal(ran.code, 1);
    assert.equal(
      ran.stderr,
      "cartelera: PORT is '99999'; expected a whole number from 0 to 65535.\n" +
        "cartelera: TIMEZONE is 'Buenos Aires'; expected an IANA time zone, such as America/Argentina/Buenos_Aires, Europe/Madrid or UTC.\n",
    );
  });

  it("when the service starts, then its log names the admin's address", async () => {
    const { url } = await store();
    const started = await service({ DATABASE_URL: url });
    await started.healthy();
    const admin = `${started.base}/admin/`;
    await started.printed(/the admin is at/);
    const line = logLines(started.output()).find((l) => l.msg === `the admin is at ${admin}`);
    assert.equal(line?.admin, admin, started.output());
    assert.equal((await fetch(admin)).status, 200);
    assert.equal(await started.stop(), 0);
  });

  it('when started on Node.js 20, then the service and every command say which Node.js they need and how to run them, and exit 1 without crashing', async () => {
    // A real Node.js 20 from the npm registry, as `npm run test:node24` fetches its own.
    const old = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      run('npm', ['exec', '--yes', '--package=node@20', '--', 'node', ...args], env, tempDir('cartelera-old-node-'));
    const { url } = await store();
    const runs = [
      [join(root, 'dist/server.js')],
      [join(root, 'dist/cli/main.js'), '--help'],
      [join(root, 'dist/cli/main.js'), 'import', 'categorias.csv'],
      [join(root, 'dist/cli/main.js'), 'check'],
    ];
    for (const args of runs) {
      const ran = await old(args, { DATABASE_URL: url });
      assert.equal(ran.signal, null, `${args.join(' ')}: no crash`);
      assert.equal(ran.code, 1, `${args.join(' ')}: ${ran.stderr}`);
      assert.match(
        ran.stderr,
        /^cartelera needs Node\.js 24 or 26; this is Node\.js 20\.\d+\.\d+\.\nRun it with npm start \(the service\) or npm run cartelera -- <command>: they use the Node\.js the project installs \(npm ci\)\.\n/,
        args.join(' '),
      );
      assert.equal(ran.stdout, '');
    }
  });

  it('when the service and a command have started once, then their compiled code is kept for the next start', async () => {
    const temp = tempDir('cartelera-compile-cache-');
    const env = { TMPDIR: temp, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined };
    const kept = () => readdirSync(join(temp, 'node-compile-cache'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
    assert.equal((await run(process.execPath, ['dist/cli/main.js', '--help'], env)).code, 0);
    const afterCommand = kept();
    assert.ok(afterCommand > 100, `${afterCommand} modules kept after a command`);
    assert.equal((await run(process.execPath, ['dist/server.js'], { ...env, PORT: 'http' })).code, 1);
    assert.ok(kept() > afterCommand, 'the service keeps the modules it loads beside the command\'s');
    rmSync(temp, { recursive: true, force: true });
  });
});
