import { fileURLToPath } from 'node:url';

/**
 * The arguments `node` runs test files with (test/run.ts), before the files: TypeScript through tsx,
 * `concurrency` files at once, each in a process of its own.
 * --test-force-exit: a file whose tests are over exits then, instead of waiting on a handle left
 * open. Node.js 26 was once seen spinning for minutes in its exit-time clean-up of such a handle (a
 * test of service processes and a TCP relay), which would hang CI. Exiting early could lose
 * a file's last results on their way to the runner, or the runner's own summary: test/wholeReports.ts
 * keeps them.
 */
export function runnerArgs(concurrency: number): string[] {
  return [
    '--import', 'tsx',
    '--import', fileURLToPath(new URL('./wholeReports.ts', import.meta.url)),
    '--test', `--test-concurrency=${concurrency}`, '--test-force-exit',
  ];
}
