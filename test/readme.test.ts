import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, it } from 'node:test';
import { npmStart, root } from './service.js';
import { backend, freshStore, type TestStore } from './stores.js';

const run = promisify(execFile);

/** The shell blocks of the README's sections titled "Examples…", in order. */
function readmeExamples(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const sections = readme.split('\n### ').filter((section) => section.startsWith('Examples'));
  return sections.flatMap((section) => [...(section.split('\n## ')[0] ?? '').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? ''));
}

let store: TestStore | undefined;
after(() => store?.drop());

it(`when the README examples run in order on a freshly seeded store, then every one succeeds (${backend})`, async () => {
  const blocks = readmeExamples();
  assert.ok(blocks.length >= 8, 'the README has its examples');

  store = await freshStore();
  const env = { DATABASE_URL: store.url, LOG_LEVEL: 'warn' };

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
    assert.ok(lines.length >= 44, stdout);
    for (const line of lines) assert.match(line, /^2\d\d /, `README example failed: ${line}`);
  } finally {
    await service.stop();
  }
});
