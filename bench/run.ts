/**
 * `npm run bench`: seeds each target through its own API, loads it with wrk scenario by scenario,
 * then measures cartelera's memory on a 100,000-movie list; prints the tables and writes
 * docs/performance.md (its figures kept in .bench/last-run.json; `--report` writes the page again
 * from them). Env: BENCH_DURATION (s, default 10), BENCH_WARMUP (s of each scenario's own load
 * before it is measured, default 10), BENCH_SERVER_FLAGS (node flags for cartelera's servers, such
 * as --cpu-prof --cpu-prof-dir=.bench/profiles), BENCH_TARGETS (comma-separated), BENCH_SCENARIOS
 * (comma-separated, default all), BENCH_SKIP_100K=1.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { untilQuiet, watchCpu } from './cpu.js';
import { statusBytes, watchPeakRss } from './memory.js';
import { atExit, pinning, pinSelf, runExitTasks } from './process.js';
import { ensurePgbench, fdatasyncRate } from './pgbench.js';
import { POOL_MAX, summary, utcMinute, writePerformanceDoc, type HundredK, type Paces, type ScenarioResult, type Seeding } from './report.js';
import { checkAnswers, root, startTarget, TARGET_NAMES, type Target, type TargetName } from './targets.js';
import { ensureWrk, runWrk, SCENARIOS, wrkVersion, type ScenarioName } from './wrk.js';

const MOVIES = 10_000;
const SEED_CONCURRENCY = 32;
const LIST_MOVIES = 100_000;
const LIST_SEED_CONCURRENCY = 64;
const LIST_GETS = 3;

const durationS = Number(process.env.BENCH_DURATION || 10);
if (!Number.isInteger(durationS) || durationS < 1) throw new Error(`BENCH_DURATION must be a whole number of seconds, not ${process.env.BENCH_DURATION}`);
const warmupS = Number(process.env.BENCH_WARMUP ?? 10);
if (!Number.isInteger(warmupS) || warmupS < 0) throw new Error(`BENCH_WARMUP must be a whole number of seconds, not ${process.env.BENCH_WARMUP}`);
const targets = chosen('BENCH_TARGETS', process.env.BENCH_TARGETS, TARGET_NAMES);
const skip100k = process.env.BENCH_SKIP_100K === '1';
const scenarios = chosen('BENCH_SCENARIOS', process.env.BENCH_SCENARIOS, SCENARIOS.map(({ name }) => name));

/** The names a comma-separated `list` (the setting `setting`) picks of `all`, in their order; all when it is empty. */
function chosen<T extends string>(setting: string, list: string | undefined, all: readonly T[]): T[] {
  if (!list) return [...all];
  const names = list.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(all as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`${setting}: unknown ${unknown.join(', ')}; choose among ${all.join(', ')}`);
  return all.filter((name) => names.includes(name));
}

const seconds = (since: number) => (performance.now() - since) / 1000;
const percent = (share: number) => `${Math.round(share * 100)}%`;

/** Seeds one target, warms it up, then runs every scenario against it. */
async function benchTarget(name: TargetName, workDir: string, seeding: Seeding[], problems: string[], paces: Paces): Promise<ScenarioResult[]> {
  console.log(`\n${name}: starting and seeding ${MOVIES.toLocaleString('en-US')} movies`);
  const target = await startTarget(name, workDir, MOVIES);
  try {
    const started = performance.now();
    const ids = await target.seed(SEED_CONCURRENCY);
    if (!name.startsWith('ceiling')) seeding.push({ target: name, movies: MOVIES, seconds: seconds(started) });
    console.log(`${name}: seeded in ${seconds(started).toFixed(1)} s`);
    const wrong = await checkAnswers(target, MOVIES);
    wrong.forEach((problem) => console.log(`WRONG ANSWER: ${problem}`));
    problems.push(...wrong);
    const idsFile = join(workDir, `${name}-ids.txt`);
    writeFileSync(idsFile, `${ids.join('\n')}\n`);
    // What bench/lua/bench.lua's init() reads: the target's dialect, the ids, then the rest of the dialect.
    const { lookup, page, categoryField, collections, update } = target.dialect;
    const luaArgs = [lookup, page, categoryField, idsFile, collections, update];

    const results: ScenarioResult[] = [];
    for (const scenario of scenarios) {
      const others = await untilQuiet();
      if (others >= 0.1) console.log(`${name} ${scenario}: other processes still use ${percent(others)} of a core; going on`);
      let result: ScenarioResult;
      try {
        // Its own load first, not measured: what is measured is the service as it runs for days, its
        // JIT done compiling what the scenario calls (bench/analysis.md: 2 s left it compiling for the next 10).
        if (warmupS > 0) await runWrk(scenario, target.server.base, warmupS, luaArgs);
        result = await measure(target, scenario, luaArgs);
      } catch (error) {
        // A target that dies is a finding, not the end of the run: its remaining scenarios are not measured.
        const ended = target.server.ended();
        if (ended === undefined) throw error;
        const problem = `${name} stopped during ${scenario} (${ended.replace(/\s+/g, ' ')})`;
        console.log(`WRONG ANSWER: ${problem}`);
        problems.push(problem);
        break;
      }
      results.push(result);
      const { wrk, cpu } = result;
      console.log(
        `${name} ${scenario}: ${Math.round(result.rps)} 2xx/s, p50 ${wrk.p50_us} µs, p99 ${wrk.p99_us} µs, ` +
          `${wrk.non2xx} non-2xx, ${wrk.socket_errors + wrk.timeouts} socket errors, peak RSS ${(result.peakRss / 1e6).toFixed(1)} MB, ` +
          `CPU server ${percent(cpu.server)} wrk ${percent(cpu.wrk)} others ${percent(cpu.others)}`,
      );
    }
    if (target.pgbench) {
      // PostgreSQL's own pace on the same server, with as many connections as cartelera's pool.
      await untilQuiet();
      paces.pgbench = { clients: POOL_MAX, tps: target.pgbench(POOL_MAX, durationS) };
      console.log(`pgbench -N, ${POOL_MAX} clients, on the same server: ${Math.round(paces.pgbench.tps)} transactions/s`);
    }
    if (target.bareCreates) {
      // cartelera's own create statement without the service: what its writes could reach. Sent
      // from the service's CPU, as the service sends it, so that PostgreSQL's processes share that
      // core with the sender as they do with the service.
      await untilQuiet();
      pinSelf(0);
      paces.bareCreates = { clients: POOL_MAX, tps: await target.bareCreates(POOL_MAX, durationS).finally(() => pinSelf('all')) };
      console.log(`cartelera's create statement from a bare script, ${POOL_MAX} clients: ${Math.round(paces.bareCreates.tps)} transactions/s`);
    }
    return results;
  } finally {
    await target.stop();
  }
}

/** One scenario against a running target: wrk's figures, and the server's peak memory and CPU meanwhile. */
async function measure(target: Target, scenario: ScenarioName, luaArgs: string[]): Promise<ScenarioResult> {
  const memory = watchPeakRss(target.server.pid);
  const cpu = watchCpu(target.server.pid);
  const wrk = await runWrk(scenario, target.server.base, durationS, luaArgs);
  const measuredS = wrk.duration_us / 1e6;
  return {
    target: target.name,
    scenario,
    wrk,
    rps: (wrk.requests - wrk.non2xx) / measuredS,
    peakRss: memory.stop(),
    cpu: { ...cpu.stop(wrk.cpu_s), wrk: wrk.cpu_s / measuredS },
  };
}

/** cartelera on SQLite with 100,000 movies: the server's peak memory over a few full lists. */
async function measureHundredK(workDir: string): Promise<HundredK> {
  console.log(`\ncartelera-sqlite: starting and seeding ${LIST_MOVIES.toLocaleString('en-US')} movies`);
  const target = await startTarget('cartelera-sqlite', workDir, LIST_MOVIES);
  try {
    const started = performance.now();
    await target.seed(LIST_SEED_CONCURRENCY);
    console.log(`cartelera-sqlite: seeded in ${seconds(started).toFixed(1)} s`);
    // Measured in a process that did only this: the seeding process keeps the heap that 100,000
    // creates grew, which says nothing of what a list costs (reported beside it).
    const rssAfterSeeding = statusBytes(target.server.pid, 'VmRSS');
    await target.restart?.();
    const { pid, base } = target.server;
    const rssBefore = statusBytes(pid, 'VmRSS');
    const memory = watchPeakRss(pid);
    const getMs: number[] = [];
    let body = Buffer.alloc(0);
    for (let i = 0; i < LIST_GETS; i++) {
      const start = performance.now();
      const response = await fetch(`${base}/peliculas`);
      body = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200) throw new Error(`GET /peliculas answered ${response.status}`);
      getMs.push(performance.now() - start);
    }
    const peakRss = memory.stop();
    const moviesInBody = (JSON.parse(body.toString()) as unknown[]).length;
    const result = { movies: LIST_MOVIES, moviesInBody, bodyBytes: body.length, rssAfterSeeding, rssBefore, peakRss, getMs };
    console.log(`cartelera-sqlite 100k list: ${moviesInBody} movies, ${body.length} bytes, peak RSS ${(peakRss / 1e6).toFixed(1)} MB`);
    if (moviesInBody !== LIST_MOVIES) console.log(`WRONG ANSWER: the full list holds ${moviesInBody} movies, not ${LIST_MOVIES}`);
    return result;
  } finally {
    await target.stop();
  }
}

function machine() {
  const nproc = spawnSync('nproc', { encoding: 'utf8' }).stdout?.trim() || String(availableParallelism());
  const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m)?.[1]?.trim() ?? 'unknown CPU';
  return { nproc, cpu, node: process.version, wrk: wrkVersion() };
}

async function main(): Promise<void> {
  ensureWrk();
  const pgbench = targets.includes('cartelera-postgres') ? ensurePgbench() : undefined;
  const started = performance.now();
  const workDir = mkdtempSync(join(tmpdir(), 'cartelera-bench-'));
  atExit(() => rmSync(workDir, { recursive: true, force: true }));
  console.log(`cartelera bench: ${targets.join(', ')}; ${durationS} s per scenario; ${pinning}; temp files in ${workDir}`);

  // The disk under the SQLite files: how many syncs it takes a second, what a durable commit waits for.
  const fdatasyncPerS = fdatasyncRate(workDir);
  console.log(`fdatasync: ${Math.round(fdatasyncPerS)}/s in ${workDir}`);
  const paces: Paces = { fdatasyncPerS, pgbenchVersion: pgbench };
  const results: ScenarioResult[] = [];
  const seeding: Seeding[] = [];
  const problems: string[] = [];
  for (const name of targets) results.push(...(await benchTarget(name, workDir, seeding, problems, paces)));
  const hundredK = skip100k ? undefined : await measureHundredK(workDir);

  console.log(`\n${summary(results, targets, hundredK, problems, paces)}\n`);
  const date = utcMinute();
  const run = { date, ...machine(), pinning, durationS, warmupS, elapsedS: seconds(started), targets };
  const figures: Figures = { run, results, seeding, hundredK, problems, paces };
  mkdirSync(dirname(LAST_RUN), { recursive: true });
  writeFileSync(LAST_RUN, `${JSON.stringify(figures)}\n`);
  writeDoc(figures);
  console.log(`Wrote docs/performance.md (the run took ${Math.round(run.elapsedS)} s); its figures are kept in ${LAST_RUN}.`);
}

/** What one run measured, kept so that the page can be written again from it (--report). */
interface Figures {
  run: Parameters<typeof writePerformanceDoc>[1];
  results: ScenarioResult[];
  seeding: Seeding[];
  hundredK: HundredK | undefined;
  problems: string[];
  /** Absent from the figures of runs before the disk and pgbench were measured. */
  paces?: Paces;
}

const LAST_RUN = join(root, '.bench', 'last-run.json');

function writeDoc({ run, results, seeding, hundredK, problems, paces = {} }: Figures): void {
  writePerformanceDoc(join(root, 'docs', 'performance.md'), run, results, seeding, hundredK, problems, paces);
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the servers and removing the temp files`);
    void runExitTasks().finally(() => process.exit(130));
  });
}

try {
  // --report: the page written again from the last run's figures (after bench/analysis.md changed, say).
  if (process.argv.includes('--report')) writeDoc(JSON.parse(readFileSync(LAST_RUN, 'utf8')) as Figures);
  else await main();
} catch (error) {
  if (!interrupted) {
    console.error(error);
    process.exitCode = 1;
  }
} finally {
  if (!interrupted) await runExitTasks();
}
