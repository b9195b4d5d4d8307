/**
 * Part of `npm run bench`: cartelera on PostgreSQL as one process, then as two processes on the
 * same database, under the same load (32 connections in all, split evenly between the processes),
 * for lookups, pages of 100 and updates. Nothing is pinned: the processes, PostgreSQL and wrk share
 * the machine's cores, as they would on one host. Writes the measured section of docs/scaling.md.
 * Env: BENCH_DURATION (s, default 10).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startEmbeddedPostgres } from '../test/embedded-postgres.js';
import { watchCpu } from './cpu.js';
import { atExit, runExitTasks, startServer, type ServerProcess } from './process.js';
import { utcMinute, writeSection } from './report.js';
import { startArguments } from '../test/service.js';
import { adminQuery, CARTELERA, root, seedThroughApi } from './targets.js';
import { ensureWrk, runWrk, SCENARIOS, type ScenarioName, type WrkSummary } from './wrk.js';

const MOVIES = 10_000;
const CONNECTIONS = 32;
const WARMUP_S = 2;
const MEASURED: ScenarioName[] = ['lookup', 'page', 'update'];
const durationS = Number(process.env.BENCH_DURATION || 10);
const DOC = join(root, 'docs', 'scaling.md');
const BEGIN = '<!-- bench/scaling.ts writes from here -->';
const END = '<!-- to here -->';

interface Row {
  processes: number;
  scenario: ScenarioName;
  rps: number;
  perProcess: number[];
  p50us: number[];
  p99us: number[];
  /** Cores used by the service processes together. */
  serverCpu: number;
}

/** `count` processes of the service on `url`, as `npm start` runs it, none pinned. */
async function startProcesses(count: number, url: string): Promise<ServerProcess[]> {
  const servers: ServerProcess[] = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    servers.push(
      await startServer(`cartelera-${i + 1}`, [process.execPath, ...startArguments()], {
        cwd: root,
        port,
        env: { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: url, LOG_LEVEL: 'warn' },
        readyPath: '/health',
      }),
    );
  }
  return servers;
}

/** One scenario against every process at once, each with its share of the connections. */
async function measure(servers: ServerProcess[], scenario: ScenarioName, luaArgs: string[]): Promise<Row> {
  const cpus = servers.map((server) => watchCpu(server.pid));
  const connections = CONNECTIONS / servers.length;
  const runs: WrkSummary[] = await Promise.all(servers.map((server) => runWrk(scenario, server.base, durationS, luaArgs, { connections, pin: false })));
  const perProcess = runs.map((run) => (run.requests - run.non2xx) / (run.duration_us / 1e6));
  return {
    processes: servers.length,
    scenario,
    rps: perProcess.reduce((a, b) => a + b, 0),
    perProcess,
    p50us: runs.map((run) => run.p50_us),
    p99us: runs.map((run) => run.p99_us),
    serverCpu: cpus.map((cpu, i) => cpu.stop(runs[i]?.cpu_s ?? 0).server).reduce((a, b) => a + b, 0),
  };
}

async function main(): Promise<void> {
  ensureWrk();
  const workDir = mkdtempSync(join(tmpdir(), 'cartelera-scaling-'));
  atExit(() => rmSync(workDir, { recursive: true, force: true }));
  const postgres = await startEmbeddedPostgres({ durability: 'production' });
  atExit(() => postgres.stop());
  const rows: Row[] = [];
  for (const count of [1, 2]) {
    const name = `cartelera_scaling_${count}`;
    await adminQuery(postgres.url, `create database ${name}`);
    const url = new URL(postgres.url);
    url.pathname = `/${name}`;
    console.log(`\nscaling: ${count} process(es) on one PostgreSQL database, seeding ${MOVIES.toLocaleString('en-US')} movies`);
    const servers = await startProcesses(count, url.toString());
    try {
      const ids = await seedThroughApi(servers[0]?.base ?? '', MOVIES, CONNECTIONS, CARTELERA);
      const idsFile = join(workDir, `ids-${count}.txt`);
      writeFileSync(idsFile, `${ids.join('\n')}\n`);
      const luaArgs = [CARTELERA.lookup, CARTELERA.page, CARTELERA.categoryField, idsFile];
      await Promise.all(servers.map((server) => runWrk('mixed', server.base, WARMUP_S, luaArgs, { connections: CONNECTIONS / count, pin: false })));
      for (const scenario of MEASURED) {
        const row = await measure(servers, scenario, luaArgs);
        rows.push(row);
        console.log(`scaling ${count} process(es) ${scenario}: ${Math.round(row.rps)} 2xx/s (${row.perProcess.map(Math.round).join(' + ')}), server CPU ${Math.round(row.serverCpu * 100)}%`);
      }
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }
  writeScalingDoc(rows);
  console.log('Wrote the measured section of docs/scaling.md.');
}

const label = (scenario: ScenarioName) => SCENARIOS.find((s) => s.name === scenario)?.label ?? scenario;
const ms = (us: number) => `${(us / 1000).toFixed(1)} ms`;

function writeScalingDoc(rows: Row[]): void {
  writeSection(DOC, BEGIN, END, [
    '',
    `Measured by \`npm run bench\` (\`bench/scaling.ts\`) on ${utcMinute()}, Node.js ${process.version}: PostgreSQL (embedded, on this machine), ` +
      `${MOVIES.toLocaleString('en-US')} movies, wrk with ${CONNECTIONS} connections in all for ${durationS} s per scenario, split evenly ` +
      'between the processes. Nothing is pinned: the service processes, PostgreSQL and wrk share the same cores.',
    '',
    '| scenario | processes | 2xx/s | each process | p50 | p99 | service CPU (cores) | gain |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) => {
      const one = rows.find((r) => r.processes === 1 && r.scenario === row.scenario);
      const gain = row.processes === 1 || !one ? '' : `${(row.rps / one.rps).toFixed(2)}×`;
      return `| ${label(row.scenario)} | ${row.processes} | ${Math.round(row.rps).toLocaleString('en-US')} | ${row.perProcess.map((r) => Math.round(r).toLocaleString('en-US')).join(' + ')} | ${row.p50us.map(ms).join(' / ')} | ${row.p99us.map(ms).join(' / ')} | ${row.serverCpu.toFixed(2)} | ${gain} |`;
    }),
    '',
  ]);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void runExitTasks().finally(() => process.exit(130)));
}
try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await runExitTasks();
}
