import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { userInfo } from 'node:os';
import { fileURLToPath } from 'node:url';
import { atExit, pinned } from './process.js';

export const SCENARIOS = [
  { name: 'lookup', label: 'lookup by title' },
  { name: 'page', label: 'list of 100' },
  { name: 'list', label: 'full list' },
  { name: 'create', label: 'create' },
  { name: 'update', label: 'update by id' },
  { name: 'mixed', label: '90% lookup / 10% update' },
] as const;
export type ScenarioName = (typeof SCENARIOS)[number]['name'];

/** What bench/lua/bench.lua's done() prints. */
export interface WrkSummary {
  requests: number;
  duration_us: number;
  bytes: number;
  non2xx: number;
  socket_errors: number;
  timeouts: number;
  p50_us: number;
  p99_us: number;
  /** wrk's own CPU time, every thread. */
  cpu_s: number;
}

/** Installs wrk from Debian when it is missing and this runs as root; otherwise says how to get it. */
export function ensureWrk(): void {
  if (spawnSync('wrk', ['-v']).error === undefined) return;
  if (userInfo().uid !== 0) throw new Error('wrk is not installed: install it with `sudo apt-get install -y wrk` and run again');
  console.log('wrk is missing: apt-get install -y wrk');
  const install = () => spawnSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'inherit' }).status === 0;
  if (!install() && !(spawnSync('apt-get', ['update'], { stdio: 'inherit' }).status === 0 && install())) {
    throw new Error('could not install wrk with apt-get; install it and run again');
  }
}

export function wrkVersion(): string {
  return spawnSync('wrk', ['-v'], { encoding: 'utf8' }).stdout.split('\n')[0]?.split(' Copyright')[0]?.trim() ?? 'wrk';
}

/**
 * Runs bench/lua/<scenario>.lua against `base` for `seconds`: one thread, 32 connections, on CPU 1
 * (unless `options` say otherwise).
 * The timeout is long so that slow answers count in the latencies instead of being dropped as timeouts.
 */
export async function runWrk(
  scenario: ScenarioName | 'history' | 'whatsOn', base: string, seconds: number, luaArgs: string[], options: { connections: number; pin: boolean } = { connections: 32, pin: true },
): Promise<WrkSummary> {
  const script = fileURLToPath(new URL(`lua/${scenario}.lua`, import.meta.url));
  const argv = ['wrk', '-t1', `-c${options.connections}`, `-d${seconds}s`, '--timeout', '30s', '-s', script, base, '--', ...luaArgs];
  const [command = '', ...args] = options.pin ? pinned(1, argv) : argv;
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = atExit(() => {
    child.kill('SIGKILL');
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  await stop();
  const line = output.split('\n').find((l) => l.startsWith('{"requests"'));
  if (code !== 0 || line === undefined) throw new Error(`wrk ${scenario} on ${base} failed (exit ${code}):\n${output}`);
  return JSON.parse(line) as WrkSummary;
}
