import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, it } from 'node:test';
import { npmStart, root } from './service.js';
import { backend, freshStore, type TestStore } from './stores.js';

const run = promisify(execFile);

/**
 * The calls the docs show, in the order a reader meets them: the README's `curl` lines, then the
 * shell blocks of docs/api.md's sections titled "Examples…".
 */
function documentedCalls(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const readmeCalls = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] ?? '').split('\n'))
    .filter((line) => line.startsWith('curl '));
  const api = readFileSync(join(root, 'docs', 'api.md'), 'utf8');
  const sections = api.split('\n### ').filter((section) => section.startsWith('Examples'));
  const apiBlocks = sections.flatMap((section) => [...(section.split('\n## ')[0] ?? '').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? ''));
  assert.ok(readmeCalls.length >= 4, 'the README shows its first calls');
  assert.ok(apiBlocks.length >= 8, 'docs/api.md has its examples');
  return [readmeCalls.join('\n'), ...apiBlocks];
}

let store: TestStore | undefined;
after(() => store?.drop());

it(`when the calls the README and docs/api.md show run in order on a freshly seeded store, then every one succeeds (${backend})`, async () => {
  const blocks = documentedCalls();

  store = await freshStore();
  // The examples are an office's in Buenos Aires (docs/api.md: the PUT's 21:00 at -03:00 stays 21:00).
  const env = { DATABASE_URL: store.url, LOG_LEVEL: 'warn', TIMEZONE: 'America/Argentina/Buenos_Aires' };

  await run('npm', ['run', 'seed'], { cwd: root, env: { ...process.env, ...env } });
  const service = await npmStart(env);
  try {
    await service.healthy();
    const base = service.base.replace('http://', '');
    // Each curl prints its status and command; the examples' own text is run unchanged but for the address.
    const wrapper = 'curl() { printf "%s " "$(command curl -s -o /dev/null -w "%{http_code}" "$@")"; echo "$*"; }\n';
    const script = wrapper + blocks.join('\n').replaceAll('localhost:8080', base);
    const { stdout } = await run('bash', ['-c', script], { cwd: root });
    const lines = stdout.trim().split('\n');
    assert.ok(lines.length >= 48, stdout);
    for (const line of lines) assert.match(line, /^2\d\d /, `documented call failed: ${line}`);
    const put = lines.find((line) => line.includes('-X PUT') && line.includes('2027-02-20T21:00:00-03:00'));
    const id = /\/eventosUrbanos\/(\d+)/.exec(put ?? '')?.[1];
    const [change] = (await (await fetch(`${service.base}/cambios?recurso=eventosUrbanos&clave=${id}&operacion=modificacion`)).json()) as { despues: { fecha: string } }[];
    assert.equal(change?.despues.fecha, '2027-02-20T21:00:00.000+00:00', 'the documented PUT stores 21:00 on 20/02/2027');
  } finally {
    await service.stop();
  }
});
