// Loaded by the runner's arguments (test/runnerArgs.ts) into the runner and every test file's
// process. A file's process sends its results to the runner over a pipe, its stdout, and under
// --test-force-exit exits as soon as its reporter has handed the last of them to that stream; the
// runner then exits the same way after its own report. On Linux a pipe's writes do not block: what
// the pipe could not take at once waited in the process and was lost at its exit, and the runner
// counted fewer tests than had run, still passing (nodejs/node#64833), or its summary was cut
// short. With blocking writes every result is in the pipe before the process exits. Processes the
// tests start do not load this file.
type Handle = { setBlocking?: (blocking: boolean) => number };

(process.stdout as unknown as { _handle?: Handle })._handle?.setBlocking?.(true);
