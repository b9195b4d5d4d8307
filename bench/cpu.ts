import { readdirSync, readFileSync } from 'node:fs';
import { readProc } from './process.js';

// Linux reports CPU time in clock ticks of 1/100 s (`getconf CLK_TCK`) on every usual build.
const TICKS_PER_S = 100;

/**
 * A process's parent, its CPU time so far (user + system), and that of its children that ended and
 * that it waited for (`reaped`), in ticks.
 */
function processStat(pid: number): { ppid: number; ticks: number; reaped: number } | undefined {
  const stat = readProc(pid, 'stat');
  // Fields after the parenthesized command name, which may itself contain spaces.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (!fields) return undefined;
  return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), reaped: Number(fields[13]) + Number(fields[14]) };
}

/**
 * CPU ticks used so far by this process and every process under it (servers, PostgreSQL, wrk),
 * with the processes under it that ended meanwhile: PostgreSQL's autovacuum workers and ended
 * sessions, counted by the postmaster that waited for them. This process's own ended children
 * (wrk) are left to the caller, which has their time from them (watchCpu).
 */
function ownTreeTicks(): number {
  const stats = new Map<number, { ppid: number; ticks: number; reaped: number }>();
  for (const entry of readdirSync('/proc')) {
    const stat = /^\d+$/.test(entry) ? processStat(Number(entry)) : undefined;
    if (stat) stats.set(Number(entry), stat);
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid; p > 1; p = stats.get(p)?.ppid ?? 0) if (p === process.pid) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, stat] of stats) if (inTree(pid)) ticks += stat.ticks + (pid === process.pid ? 0 : stat.reaped);
  return ticks;
}

/** Busy ticks of the whole machine so far, every CPU summed (idle and iowait excluded). */
function machineBusyTicks(): number {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/) ?? [];
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = values.map(Number);
  return user + nice + system + irq + softirq + steal;
}

export interface CpuUse {
  /** CPU seconds per second, 1 = one whole core. */
  server: number;
  /** What processes outside this run used meanwhile (a test suite, a build…): the figures are only fair near 0. */
  others: number;
}

/**
 * Starts measuring CPU use: the server's, and the machine's outside this run. `stop(ownExitedS)` takes the CPU
 * seconds of processes of this run that exited meanwhile (wrk), which the process tree no longer shows.
 */
export function watchCpu(serverPid: number): { stop(ownExitedS: number): CpuUse } {
  const started = performance.now();
  const server = processStat(serverPid)?.ticks ?? 0;
  const tree = ownTreeTicks();
  const busy = machineBusyTicks();
  return {
    stop(ownExitedS) {
      const seconds = (performance.now() - started) / 1000;
      const ownS = (ownTreeTicks() - tree) / TICKS_PER_S + ownExitedS;
      const othersS = Math.max(0, (machineBusyTicks() - busy) / TICKS_PER_S - ownS);
      return { server: ((processStat(serverPid)?.ticks ?? 0) - server) / TICKS_PER_S / seconds, others: othersS / seconds };
    },
  };
}

/** Longest wait, before each scenario, for other processes to leave the CPUs alone. */
export const QUIET_WAIT_S = 60;

/**
 * Waits, up to `maxS`, for a second in which processes outside this run use under a tenth of a core,
 * so that a scenario does not start in the middle of someone's build. Answers what they used last.
 */
export async function untilQuiet(maxS = QUIET_WAIT_S): Promise<number> {
  const deadline = performance.now() + maxS * 1000;
  for (;;) {
    const watch = watchCpu(process.pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { others } = watch.stop(0);
    if (others < 0.1 || performance.now() >= deadline) return others;
  }
}
