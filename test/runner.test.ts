import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runnerArgs } from './runnerArgs.js';
import { tempDir } from './tempDir.js';

// The suite's own runner counts every test that ran. No store is involved: it runs files of
// trivial tests with the arguments test/run.ts runs the suite with. Without test/wholeReports.ts,
// files that send many results at once lose some on their way to the runner (the runner counted
// 438 to 532 of these 600 in three runs on a 2-core machine) and the run still passes.

const root = fileURLToPath(new URL('..', import.meta.url));
const FILES = 12;
const TESTS = 50;

test(`when ${FILES} files of ${TESTS} tests run four at once, each exiting as its tests end, then the runner reports all ${FILES * TESTS}`, async () => {
  const dir = tempDir('cartelera-runner-');
  const files = Array.from({ length: FILES }, (_, f) => {
    const file = join(dir, `f${f}.test.mjs`);
    const tests = Array.from({ length: TESTS }, (_, t) => `test('file ${f}, test ${t}: a name about as long as the names of this suite', () => {});`);
    writeFileSync(file, [`import { test } from 'node:test';`, ...tests].join('\n'));
    return file;
  });

  // A runner of its own: without NODE_TEST_CONTEXT, which marks this file's process as a runner's child.
  // Its report goes to a file, which Node.js writes synchronously: what is counted is what the runner
  // reported, whatever becomes of a pipe's last writes when a loaded machine is slow to read them.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const report = join(dir, 'report.tap');
  const out = openSync(report, 'w');
  try {
    const runner = spawn(process.execPath, [...runnerArgs(4), '--test-reporter=tap', ...files], { cwd: root, env, stdio: ['ignore', out, 'inherit'] });
    const [code] = (await once(runner, 'exit')) as [number | null];
    assert.equal(code, 0);
  } finally {
    closeSync(out);
  }
  const stdout = readFileSync(report, 'utf8');

  const counted = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(stdout)?.[1]);
  assert.deepEqual({ tests: counted('tests'), pass: counted('pass') }, { tests: FILES * TESTS, pass: FILES * TESTS });
});
