import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Servers run on CPU 0 and wrk on CPU 1, when `taskset` exists and there are two CPUs to split. */
const canPin = availableParallelism() >= 2 && spawnSync('taskset', ['-V']).error === undefined;

/** `argv`, run on `cpu` only (unchanged when it cannot be pinned). `taskset` execs, so the pid stays the same. */
export function pinned(cpu: number, argv: string[]): string[] {
  return canPin ? ['taskset', '-c', String(cpu), ...argv] : argv;
}

/** Every CPU this process may run on, read once: while it is pinned, availableParallelism() answers 1. */
const everyCpu = `0-${availableParallelism() - 1}`;

/** Moves this process, every thread of it, onto `cpu`, or back onto every CPU (nothing when it cannot be pinned). */
export function pinSelf(cpu: number | 'all'): void {
  const cpus = cpu === 'all' ? everyCpu : String(cpu);
  if (canPin) spawnSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
}

export const pinning = canPin ? 'servers on CPU 0, wrk on CPU 1 (taskset)' : 'not pinned (no taskset, or a single CPU)';

// Whatever must be undone at exit, newest first: servers, temp folders, PostgreSQL.
const exitTasks: (() => Promise<void>)[] = [];
let exiting = false;

/** Registers `task` to run at exit; returns a function that runs it now (once) instead. */
export function atExit(task: () => Promise<void> | void): () => Promise<void> {
  let done = false;
  const runOnce = async () => {
    if (done) return;
    done = true;
    exitTasks.splice(exitTasks.indexOf(runOnce), 1);
    await task();
  };
  exitTasks.push(runOnce);
  // After an interrupt, whatever the main flow still starts is undone at once.
  if (exiting) void runOnce();
  return runOnce;
}

/** Runs every pending exit task, newest first; one failing does not stop the others. */
export async function runExitTasks(): Promise<void> {
  exiting = true;
  while (exitTasks.length > 0) {
    const task = exitTasks[exitTasks.length - 1];
    await task?.().catch((error: unknown) => console.error('cleanup:', error));
  }
}

// Last resort if the process exits without running the tasks (an uncaught error): no server outlives it.
const children = new Set<ChildProcess>();
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The server's own process (node), whose memory is measured. */
  pid: number;
  /** SIGTERM, then SIGKILL after 10 s. */
  stop(): Promise<void>;
  /** How it ended, with the last of what it printed, once it has ended by itself; undefined while it runs. */
  ended(): string | undefined;
}

/**
 * Starts `argv` (a server listening on 127.0.0.1:`port`) and resolves once `readyPath` answers 2xx.
 * The server is stopped at exit if nobody stops it before.
 */
export async function startServer(name: string, argv: string[], options: { port: number; env?: NodeJS.ProcessEnv; cwd?: string; readyPath: string }): Promise<ServerProcess> {
  const [command = '', ...args] = argv;
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = once(child, 'exit');
  const stop = atExit(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(forced);
    }
    children.delete(child);
  });

  const base = `http://127.0.0.1:${options.port}`;
  try {
    await untilReady(`${base}${options.readyPath}`, child, 60_000);
  } catch (error) {
    await stop();
    throw new Error(`${name} did not start: ${(error as Error).message}\n${output}`);
  }
  const ended = () =>
    child.exitCode === null && child.signalCode === null ? undefined : `exit ${child.exitCode ?? child.signalCode}; its last words: ${output.slice(-1500).trim()}`;
  return { base, pid: nodePid(child.pid ?? 0), stop, ended };
}

async function untilReady(url: string, child: ChildProcess, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`it exited (${child.exitCode ?? child.signalCode})`);
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer 2xx within ${ms / 1000} s`);
}

/** The node process at or under `pid`: a wrapper that forks instead of exec'ing has it as its child. */
function nodePid(pid: number): number {
  let current = pid;
  for (let depth = 0; depth < 5; depth++) {
    if (readProc(current, 'comm')?.trim() === 'node') return current;
    const child = Number(readProc(current, `task/${current}/children`)?.trim().split(/\s+/)[0]);
    if (!Number.isInteger(child) || child <= 0) break;
    current = child;
  }
  return pid;
}

export function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}
