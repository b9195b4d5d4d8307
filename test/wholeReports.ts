// Loaded into every test file's process by the runner's arguments (test/runnerArgs.ts). A file's
// process sends its results to the runner over a pipe, its stdout, and under --test-force-exit exits
// as soon as its reporter has handed the last of them to that stream. On Linux a pipe's writes do not
// block: what the pipe could not take at once waited in the process and was lost at its exit, and
// the runner counted fewer tests than had run, still passing (nodejs/node#64833). With blocking
// writes every result is in the pipe before the process exits. Only a test file's process is
// changed (the runner sets NODE_TEST_CONTEXT in it), not the runner's own nor the processes tests start.
type Handle = { setBlocking?: (blocking: boolean) => number };

if (process.env.NODE_TEST_CONTEXT !== undefined) {
  (process.stdout as unknown as { _handle?: Handle })._handle?.setBlocking?.(true);
}
