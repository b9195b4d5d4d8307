import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadConfig } from '../src/config.js';
import { QUIET_WAIT_S } from './cpu.js';
import { DIRECTUS_NODE, DIRECTUS_VERSION } from './directus.js';
import { PLATFORMATIC_NODE, PLATFORMATIC_VERSION } from './platformatic.js';
import { BASELINE, TARGET_NAMES, type TargetName } from './targets.js';
import { SCENARIOS, type ScenarioName, type WrkSummary } from './wrk.js';

export interface ScenarioResult {
  target: TargetName;
  scenario: ScenarioName;
  wrk: WrkSummary;
  /** Answers per second, 2xx only. */
  rps: number;
  /** The server process's peak resident memory during the scenario, in bytes. */
  peakRss: number;
  /** CPU seconds per second (1 = a whole core) of the server, wrk, and processes outside the run. */
  cpu: { server: number; wrk: number; others: number };
}

export interface Seeding {
  target: TargetName;
  movies: number;
  seconds: number;
}

export interface HundredK {
  movies: number;
  /** How many movies the list held: all of them, unless the server is wrong. */
  moviesInBody: number;
  bodyBytes: number;
  /** Resident memory after seeding, before the first list. */
  /** The seeding process's resident memory once it had made the 100,000 movies. */
  rssAfterSeeding: number;
  rssBefore: number;
  peakRss: number;
  getMs: number[];
}

/** What the run measured beside the targets: the disk's sync rate, and PostgreSQL's own pace on cartelera's server. */
export interface Paces {
  /** 4 kB appends each followed by fdatasync, a second, in the temp dir that holds the SQLite files. */
  fdatasyncPerS?: number;
  /** `pgbench --version`, when cartelera-postgres ran. */
  pgbenchVersion?: string;
  /** `pgbench -N` with as many connections as cartelera's pool, on the server cartelera (PostgreSQL) used. */
  pgbench?: { clients: number; tps: number };
  /** cartelera's create statement driven by a bare script, as many connections, on its own database after its scenarios. */
  bareCreates?: { clients: number; tps: number };
}

export interface RunInfo {
  date: string;
  nproc: string;
  cpu: string;
  node: string;
  wrk: string;
  pinning: string;
  durationS: number;
  /** Seconds of each scenario's own load before it is measured (absent in runs before it was set: 2 s of the mix, once). */
  warmupS?: number;
  elapsedS: number;
  targets: readonly TargetName[];
}

const TITLES: Record<TargetName, string> = {
  'cartelera-sqlite': 'cartelera (SQLite)',
  'cartelera-sqlite-normal': 'cartelera (SQLite, synchronous=NORMAL)',
  'cartelera-baseline': BASELINE === 'a2e6fea' ? 'cartelera before the change log (SQLite)' : `cartelera at ${BASELINE} (SQLite)`,
  'cartelera-sqlite-node24': 'cartelera (SQLite, Node.js 24)',
  'cartelera-postgres': 'cartelera (PostgreSQL)',
  'json-server': 'json-server 0.17',
  // The minor version only, as the targets are stated; the exact one is in the text below the table.
  'platformatic-db': `Platformatic DB ${PLATFORMATIC_VERSION.replace(/\.\d+$/, '')}`,
  directus: `Directus ${DIRECTUS_VERSION.replace(/\.\d+$/, '')}`,
  ceiling: 'ceiling (node:http)',
  'ceiling-durable': 'durable ceiling (node:http, SQLite)',
};

/** The moment a run is stamped with: `2026-11-23 19:52 UTC`. */
export const utcMinute = () => `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Puts `lines` (the markers included) in place of the section of `file` between `begin` and `end`,
 * or at its end when it has none yet: a bench writes its own part of a page and leaves the rest.
 */
export function writeSection(file: string, begin: string, end: string, lines: string[]): void {
  const doc = readFileSync(file, 'utf8');
  const section = [begin, ...lines, end].join('\n');
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  writeFileSync(file, from >= 0 && to > from ? doc.slice(0, from) + section + doc.slice(to + end.length) : `${doc.trimEnd()}\n\n${section}\n`);
}

const MB = 1_000_000;
const NODE24: TargetName = 'cartelera-sqlite-node24';
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const ms = (us: number) => `${(us / 1000).toFixed(us < 10_000 ? 2 : 1)} ms`;
const rate = (n: number) => (n < 100 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US'));
const size = (bytes: number) =>
  bytes >= MB ? `${(bytes / MB).toFixed(2)} MB` : bytes >= 1000 ? `${(bytes / 1000).toFixed(1)} kB` : `${Math.round(bytes)} B`;
const pct = (share: number) => `${Math.round(share * 100)}%`;
const times = (ratio: number | undefined) => (ratio === undefined ? '–' : `${ratio.toFixed(ratio < 10 ? 2 : 1)}×`);

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function find(results: ScenarioResult[], target: TargetName, scenario: ScenarioName): ScenarioResult | undefined {
  return results.find((r) => r.target === target && r.scenario === scenario);
}

/** cartelera (SQLite)'s 2xx rate over `target`'s, in one scenario. */
function ratio(results: ScenarioResult[], scenario: ScenarioName, target: TargetName, ours: TargetName = 'cartelera-sqlite'): number | undefined {
  const mine = find(results, ours, scenario)?.rps;
  const theirs = find(results, target, scenario)?.rps;
  return mine === undefined || !theirs ? undefined : mine / theirs;
}

function resultsTable(results: ScenarioResult[], targets: readonly TargetName[]): string {
  const rows = SCENARIOS.flatMap(({ name, label }) =>
    targets.flatMap((target) => {
      const r = find(results, target, name);
      if (!r) return [];
      const errors = r.wrk.socket_errors + r.wrk.timeouts;
      const cpu = `${pct(r.cpu.server)} / ${pct(r.cpu.wrk)} / ${pct(r.cpu.others)}`;
      const perAnswer = r.wrk.requests > 0 ? size(r.wrk.bytes / r.wrk.requests) : '–';
      return [[label, TITLES[target], rate(r.rps), ms(r.wrk.p50_us), ms(r.wrk.p99_us), String(r.wrk.non2xx), String(errors), perAnswer, mb(r.peakRss), cpu]];
    }),
  );
  return table(
    ['scenario', 'target', '2xx/s', 'p50', 'p99', 'non-2xx', 'socket errors', 'bytes/answer', 'server peak RSS', 'CPU server / wrk / others'],
    rows,
  );
}

/** A warning when processes outside the run took CPU during a scenario: its figures are then not the machine's. */
function busyMachineWarning(results: ScenarioResult[]): string | undefined {
  const worst = results.reduce<ScenarioResult | undefined>((w, r) => (r.cpu.others > (w?.cpu.others ?? 0.1) ? r : w), undefined);
  if (!worst) return undefined;
  return `**Warning: the machine was not idle.** Processes outside the benchmark used up to ${pct(worst.cpu.others)} of a core (during ${worst.target} ${worst.scenario}); the figures of the scenarios with a high "others" share are lower than this machine gives.`;
}

/** Scenarios in which wrk used its whole core: their figures are the load generator's limit, not the server's. */
function clientBoundNote(results: ScenarioResult[]): string | undefined {
  const bound = results.filter((r) => r.cpu.wrk >= 0.9).map((r) => `${TITLES[r.target]} ${SCENARIOS.find((s) => s.name === r.scenario)?.label}`);
  if (bound.length === 0) return undefined;
  return `**wrk was the limit** (≥ 90% of its core) in: ${bound.join('; ')}. Those servers could answer more than shown; a ratio to them is flattering to cartelera.`;
}

function ratiosTable(results: ScenarioResult[], targets: readonly TargetName[]): string {
  const others = targets.filter((t) => t !== 'cartelera-sqlite');
  const rows = SCENARIOS.map(({ name, label }) => [label, ...others.map((t) => times(ratio(results, name, t)))]);
  return table(['scenario', ...others.map((t) => `÷ ${TITLES[t]}`)], rows);
}

function hundredKTable(h: HundredK): string {
  return table(
    ['movies', 'movies in the body', 'body', 'RSS of the seeding process', 'RSS before the GETs', 'server peak RSS', 'each GET'],
    [[h.movies.toLocaleString('en-US'), h.moviesInBody.toLocaleString('en-US'), mb(h.bodyBytes), mb(h.rssAfterSeeding), mb(h.rssBefore), mb(h.peakRss), h.getMs.map((t) => `${Math.round(t)} ms`).join(', ')]],
  );
}

/** The pool cartelera (PostgreSQL) runs with: the targets set no DATABASE_POOL_MAX. */
export const POOL_MAX = loadConfig({}).DATABASE_POOL_MAX;

type Verdict = 'met' | 'not met' | 'not measured';
/** A target of the project: its wording, the figure it is checked on, how that figure is shown, and when it is met. */
type Goal = [string, number | undefined, (v: number) => string, (v: number) => boolean];
const verdict = (value: number | undefined, ok: (v: number) => boolean): Verdict => (value === undefined ? 'not measured' : ok(value) ? 'met' : 'not met');

/** The project's targets, each checked against figures of this run only (a target not run is "not measured"). */
function targetsTable(results: ScenarioResult[], hundredK: HundredK | undefined, paces: Paces): string {
  // cartelera (PostgreSQL)'s 2xx rate over cartelera (SQLite)'s, when both ran.
  const postgres = (scenario: ScenarioName) => {
    const sqlite = find(results, 'cartelera-sqlite', scenario)?.rps;
    const pg = find(results, 'cartelera-postgres', scenario)?.rps;
    return sqlite === undefined || pg === undefined || sqlite === 0 ? undefined : pg / sqlite;
  };
  const p99 = find(results, 'cartelera-sqlite', 'lookup')?.wrk.p99_us;
  const over = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b === 0 ? undefined : a / b);
  const mixedOverLookups = over(find(results, 'cartelera-sqlite', 'mixed')?.rps, find(results, 'cartelera-sqlite', 'lookup')?.rps);
  // What the least a Node process does for the same durable writes gives in the same run: the mix's physical limit here.
  const durableRatio = over(find(results, 'ceiling-durable', 'mixed')?.rps, find(results, 'ceiling-durable', 'lookup')?.rps);
  const durableP99 = find(results, 'ceiling-durable', 'mixed')?.wrk.p99_us;
  const besideDurable = (text: string, limit: number | undefined, show: (v: number) => string) =>
    limit === undefined ? text : `${text} (${TITLES['ceiling-durable']}: ${show(limit)})`;
  const mixedP99 = over(find(results, 'cartelera-sqlite', 'mixed')?.wrk.p99_us, find(results, 'ceiling', 'mixed')?.wrk.p99_us);
  const p99Node24 = find(results, NODE24, 'lookup')?.wrk.p99_us;
  const pgbench = (scenario: ScenarioName) => over(find(results, 'cartelera-postgres', scenario)?.rps, paces.pgbench?.tps);
  const pgbenchClients = `pgbench -N (${paces.pgbench?.clients ?? POOL_MAX} connections, the same server)`;
  const wrkBound = (scenario: ScenarioName) => ((find(results, 'ceiling', scenario)?.cpu.wrk ?? 0) >= 0.9 ? ' (the ceiling was wrk-bound)' : '');
  // A small peak over an incomplete list proves nothing.
  const complete = hundredK?.moviesInBody === hundredK?.movies;
  const incomplete = complete ? '' : `, but the list held ${hundredK?.moviesInBody.toLocaleString('en-US')} movies`;
  const rows: Goal[] = [
    ['lookup by title ≥ 0.6× ceiling', ratio(results, 'lookup', 'ceiling'), (v) => times(v) + wrkBound('lookup'), (v) => v >= 0.6],
    ['lookup by title ≥ 5× Platformatic DB', ratio(results, 'lookup', 'platformatic-db'), times, (v) => v >= 5],
    ['create ≥ 15× Platformatic DB', ratio(results, 'create', 'platformatic-db'), times, (v) => v >= 15],
    ['update ≥ 15× Platformatic DB', ratio(results, 'update', 'platformatic-db'), times, (v) => v >= 15],
    // Ahead of Directus, a data API people run instead of writing one, on every scenario.
    ...SCENARIOS.map(({ name, label }): Goal => [`${label} ≥ 1× Directus`, ratio(results, name, 'directus'), times, (v) => v >= 1]),
    // The change log costs every write a row of its own: writes keep ≥ 0.8× of the code before it.
    [`create ≥ 0.8× ${TITLES['cartelera-baseline']}`, ratio(results, 'create', 'cartelera-baseline'), times, (v) => v >= 0.8],
    [`update ≥ 0.8× ${TITLES['cartelera-baseline']}`, ratio(results, 'update', 'cartelera-baseline'), times, (v) => v >= 0.8],
    // Real traffic: the public reads while staff write.
    ['90% lookups / 10% updates ≥ 0.6× lookups alone', mixedOverLookups, (v) => besideDurable(times(v), durableRatio, times), (v) => v >= 0.6],
    ['90% lookups / 10% updates ≥ 8× Platformatic DB', ratio(results, 'mixed', 'platformatic-db'), times, (v) => v >= 8],
    ['90% lookups / 10% updates: p99 ≤ 3× the ceiling\'s', mixedP99, times, (v) => v <= 3],
    ['90% lookups / 10% updates: p99 ≤ 5 ms', find(results, 'cartelera-sqlite', 'mixed')?.wrk.p99_us, (v) => besideDurable(ms(v), durableP99, ms), (v) => v <= 5000],
    ['full list of 10,000 ≥ 0.5× ceiling', ratio(results, 'list', 'ceiling'), (v) => times(v) + wrkBound('list'), (v) => v >= 0.5],
    ['full list of 10,000 ≥ 10× json-server', ratio(results, 'list', 'json-server'), times, (v) => v >= 10],
    ['full list of 10,000 ≥ 10× Platformatic DB', ratio(results, 'list', 'platformatic-db'), times, (v) => v >= 10],
    // The same code on the older supported LTS (package.json's config.node24).
    ['on Node.js 24: lookup by title ≥ 0.6× ceiling', ratio(results, 'lookup', 'ceiling', NODE24), (v) => times(v) + wrkBound('lookup'), (v) => v >= 0.6],
    ['on Node.js 24: lookup by title ≥ 5× Platformatic DB', ratio(results, 'lookup', 'platformatic-db', NODE24), times, (v) => v >= 5],
    ['on Node.js 24: create ≥ 15× Platformatic DB', ratio(results, 'create', 'platformatic-db', NODE24), times, (v) => v >= 15],
    ['on Node.js 24: update ≥ 15× Platformatic DB', ratio(results, 'update', 'platformatic-db', NODE24), times, (v) => v >= 15],
    ['PostgreSQL page of 100 ≥ 0.5× SQLite', postgres('page'), times, (v) => v >= 0.5],
    ['PostgreSQL lookup ≥ 0.6× SQLite', postgres('lookup'), times, (v) => v >= 0.6],
    ['PostgreSQL create ≥ 0.6× SQLite', postgres('create'), times, (v) => v >= 0.6],
    ['PostgreSQL update ≥ 0.6× SQLite', postgres('update'), times, (v) => v >= 0.6],
    [`PostgreSQL create ≥ 0.6× ${pgbenchClients}`, pgbench('create'), times, (v) => v >= 0.6],
    [`PostgreSQL update ≥ 0.6× ${pgbenchClients}`, pgbench('update'), times, (v) => v >= 0.6],
    ['full list of 100,000: server peak RSS < 150 MB', hundredK?.peakRss, (v) => mb(v) + incomplete, (v) => complete && v < 150 * MB],
    ['p99 of lookups ≤ 3 ms at 32 connections', p99, ms, (v) => v <= 3000],
    ['on Node.js 24: p99 of lookups ≤ 3 ms at 32 connections', p99Node24, ms, (v) => v <= 3000],
  ];
  return table(
    ['target', 'measured', 'result'],
    rows.map(([goal, value, show, ok]) => [goal, value === undefined ? '–' : show(value), `**${verdict(value, ok)}**`]),
  );
}

function problemsList(problems: string[]): string {
  return `**Wrong answers** (checked once after seeding; the figures for these targets are not comparable):\n\n${problems.map((p) => `- ${p}`).join('\n')}`;
}

/** The Last run lines of what was measured beside the targets: the disk's syncs, pgbench. */
function pacesLines({ fdatasyncPerS, pgbenchVersion, pgbench, bareCreates }: Paces): string {
  const lines = [];
  if (fdatasyncPerS !== undefined) lines.push(`- The disk under the SQLite files: ${rate(fdatasyncPerS)} \`fdatasync\`s a second (4 kB appended before each), what a durable commit waits for`);
  if (pgbench) lines.push(`- PostgreSQL's own pace on the server cartelera (PostgreSQL) used, after its scenarios: \`pgbench -N\` (${pgbenchVersion ?? 'pgbench'}, scale 1, ${pgbench.clients} clients, \`fsync=on\`, \`synchronous_commit=on\`) ${rate(pgbench.tps)} transactions/s`);
  if (bareCreates) lines.push(`- cartelera's create (one statement: the movie and its change, committed by itself) driven by a bare script on ${bareCreates.clients} connections, on the same server and database, from the service's CPU: ${rate(bareCreates.tps)} transactions/s, what PostgreSQL gives cartelera's writes without the service between`);
  return lines.map((line) => `${line}\n`).join('');
}

/** The markdown printed at the end of a run. */
export function summary(results: ScenarioResult[], targets: readonly TargetName[], hundredK: HundredK | undefined, problems: string[], paces: Paces): string {
  const parts = ['## Results', resultsTable(results, targets)];
  if (problems.length > 0) parts.push(problemsList(problems));
  for (const note of [busyMachineWarning(results), clientBoundNote(results)]) if (note) parts.push(note);
  if (targets.includes('cartelera-sqlite') && targets.length > 1) parts.push('## cartelera (SQLite) ÷ each other target (2xx/s)', ratiosTable(results, targets));
  if (hundredK) parts.push('## Full list of 100,000 movies (cartelera, SQLite)', hundredKTable(hundredK));
  parts.push('## Targets', targetsTable(results, hundredK, paces));
  return parts.join('\n\n');
}

export function writePerformanceDoc(
  path: string,
  run: RunInfo,
  results: ScenarioResult[],
  seeding: Seeding[],
  hundredK: HundredK | undefined,
  problems: string[],
  paces: Paces = {},
): void {
  const seeded = seeding.map((s) => `${TITLES[s.target]} ${s.seconds.toFixed(1)} s (${rate(s.movies / s.seconds)} creates/s)`).join('; ');
  const doc = `# Performance

What cartelera answers per second, how fast, and with how much memory, next to json-server, to
Platformatic DB, to Directus, to a bare \`node:http\` server answering the same bytes from memory, and to a
bare one storing the same writes as durably in SQLite. Everything on this page below "Last run"
is written by \`npm run bench\` (the code is in \`bench/\`); run it again to refresh it.

## Last run

- Date: ${run.date}
- Machine: ${run.nproc} CPUs (\`nproc\`), ${run.cpu}
- Node.js ${run.node}, ${run.wrk}
- \`BENCH_DURATION=${run.durationS}\` (seconds per scenario and target), ${run.warmupS === undefined ? 'after a 2 s warm-up of the mix' : `each after \`BENCH_WARMUP=${run.warmupS}\` s of its own load`}, ${run.pinning}
- Targets: ${run.targets.join(', ')}${hundredK ? ', and the 100,000-movie list' : ''}; the whole run took ${Math.floor(run.elapsedS / 60)} min ${Math.round(run.elapsedS % 60)} s
- Seeding 10,000 movies through each API (32 in flight): ${seeded || '–'}
${pacesLines(paces)}
Answers per second count 2xx answers only; p50 and p99 are wrk's latencies; bytes/answer is what
wrk read per answer, headers included; "server peak RSS" is the peak resident memory of the server's
own process during the scenario (MB are 10⁶ bytes); CPU is in cores (100% = one core) used by the
server process, by wrk, and by processes outside the benchmark. A server near 100% is the limit; wrk
near 100% means the load generator was. "Others" should be near 0%; when it is not, the machine was
shared and the figures are low.
${[busyMachineWarning(results), clientBoundNote(results)].filter(Boolean).map((note) => `\n${note}\n`).join('')}${problems.length > 0 ? `\n${problemsList(problems)}\n` : ''}
${resultsTable(results, run.targets)}
${run.targets.includes('cartelera-sqlite') && run.targets.length > 1 ? `\n### cartelera (SQLite) ÷ each other target (2xx/s)\n\n${ratiosTable(results, run.targets)}\n` : ''}${hundredK ? `\n### Full list of 100,000 movies (cartelera, SQLite)\n\nSeeded through the API (64 in flight); then the server is restarted on the same store (the seeding process keeps the heap 100,000 creates grew: its RSS is shown beside), and answers ${hundredK.getMs.length} sequential \`GET /peliculas\`; the peak is over those GETs only.\n\n${hundredKTable(hundredK)}\n` : ''}
## Targets

The project's targets, each worked out from figures of this one run: a ratio to Platformatic DB
divides cartelera (SQLite)'s answers per second by Platformatic DB ${PLATFORMATIC_VERSION}'s in the same
scenario (the "on Node.js 24" rows, the same service run on Node.js 24's), a ratio to Directus
by Directus ${DIRECTUS_VERSION}'s, and the PostgreSQL rows divide cartelera (PostgreSQL)'s by cartelera (SQLite)'s. A row whose targets were not all run
is "not measured".

${targetsTable(results, hundredK, paces)}

${readFileSync(new URL('analysis.md', import.meta.url), 'utf8').trim()}

## Reproduce

\`\`\`sh
npm run bench                                         # every target, 10 s per scenario, then the 100,000-movie list
BENCH_DURATION=5 npm run bench                        # seconds per scenario (default 10)
BENCH_WARMUP=2 npm run bench                          # seconds of each scenario's load before it is measured (default 10)
BENCH_SERVER_FLAGS="--cpu-prof --cpu-prof-dir=.bench/profiles" npm run bench   # node flags for cartelera's servers
BENCH_SERVER_FLAGS="--import tsx --import $PWD/bench/probe.ts" npm run bench  # each request's and statement's time: bench/probe.ts
BENCH_TARGETS=cartelera-sqlite,ceiling npm run bench  # a subset of: ${TARGET_NAMES.join(', ')}
BENCH_SKIP_100K=1 npm run bench                       # without the 100,000-movie list
BENCH_SCENARIOS=create,update npm run bench           # a subset of: ${SCENARIOS.map(({ name }) => name).join(', ')}
\`\`\`

It needs \`wrk\` (\`apt-get install -y wrk\`; installed by the run itself when missing and run as root),
\`pgbench\` when \`cartelera-postgres\` is among the targets (PostgreSQL's own client, from Debian's
\`postgresql-client\`: \`apt-get install -y postgresql-client\`; the run refuses at its start, saying so,
when it is missing) and the dev dependencies (\`npm ci\`). Platformatic DB is not one of them: the first run that includes
it installs \`@platformatic/db@${PLATFORMATIC_VERSION}\` with npm into \`.bench/platformatic/\` (git-ignored,
a few minutes: its SQLite driver, better-sqlite3 11, is built from source against Node.js
${PLATFORMATIC_NODE} from the npm registry, on which Platformatic DB then runs: that driver does not
build against Node.js 26, and aborts under load on Node.js 24), and later runs reuse it. Directus is
not one of them either: the first run that includes it installs \`directus@${DIRECTUS_VERSION}\` into
\`.bench/directus/\` the same way (a few minutes: its SQLite driver, sqlite3, and its script sandbox,
isolated-vm, are built from source against Node.js ${DIRECTUS_NODE}, on which it then runs:
isolated-vm 5 does not build against Node.js 26). The code before the change log (the target \`cartelera-baseline\`; another commit with
\`BENCH_BASELINE=<commit>\`) is taken from git and built once into \`.bench/baseline-<commit>/\` with this
checkout's \`node_modules\`, and started with the node flags of that commit's own \`npm start\`. Apart from those, it leaves nothing behind: servers, the SQLite files,
json-server's db.json, Platformatic DB's config, Directus's project folder and PostgreSQL's data folder live under the OS temp dir
and are removed at the end, on failure and on Ctrl-C too.

## How it measures

- **Targets**, one after another, each alone on the machine: cartelera on SQLite (a fresh file),
  the same with \`SQLITE_SYNCHRONOUS=normal\` (what durable commits cost, see "Durability"), the same service as it was before the change log (commit ${BASELINE}: every write since also
  stores its change, in the same transaction), cartelera on PostgreSQL (the embedded server from
  \`test/embedded-postgres.ts\` at production durability, \`fsync=on\` and \`synchronous_commit=on\`, a
  fresh database, the default pool of \`DATABASE_POOL_MAX=${POOL_MAX}\` connections),
  json-server 0.17 (a fresh db.json), Platformatic DB ${PLATFORMATIC_VERSION} and Directus ${DIRECTUS_VERSION} (below) and the ceiling, \`bench/ceiling.ts\`: \`node:http\` answering
  bytes serialized at start (one movie, the first page of 100, all 10,000), the fastest any Node
  process can answer here; and the durable ceiling, \`bench/durableCeiling.ts\`: \`node:http\` on a SQLite
  file that commits as cartelera does by default (WAL, the writes that arrive together in one
  transaction, the WAL \`fdatasync\`ed on libuv's pool before they are answered), each write its row
  and a row of a change log, lookups from bytes kept in memory and replaced at each commit: the
  least any Node process does for the same durable writes here, so the limit of the mix's ratio
  and p99 on this machine (the targets table shows its figures beside cartelera's). cartelera runs as \`npm start\` does (its node flags and \`dist/server.js\`, read from package.json, built first)
  with \`LOG_LEVEL=warn\`: at the default \`info\`, it would also write two log lines per request.
- **Platformatic DB** (\`bench/platformatic.ts\`) runs as its own CLI starts it (\`plt-db start\`: one
  process, no worker threads), its logger at \`warn\`, on a fresh SQLite file whose \`categorias\` and
  \`peliculas\` have cartelera's columns (the titles unique, an index on the category), made by its
  migration at start. Its list limit (10 records by default, 100 at most) is raised so that a full
  list holds every movie.
- **Directus** (\`bench/directus.ts\`) runs as its own CLI starts it (\`directus start\`: one process),
  on a fresh SQLite file that holds \`categorias\` and \`peliculas\` with cartelera's columns (the
  titles unique, an index on the category) before \`directus bootstrap\` adds its own tables and an
  admin; the admin then makes them collections and gives the Public policy read, create and update on
  both through its REST API, so that the bench's requests need no token. Its settings are its
  defaults (no cache, no rate limiter, its pressure limiter on: a 503 to every request while its
  event loop is over 99% busy or 500 ms late; every write also stored in its activity and
  revisions) but for its logger at \`warn\`, telemetry off, and a GET without \`limit\` answering
  every record instead of 100 (\`QUERY_LIMIT_DEFAULT=-1\`), so that a full list holds every movie.
- **PostgreSQL's own pace**: after cartelera (PostgreSQL)'s scenarios, on the same server, \`pgbench -N\`
  (its tables made by \`pgbench -i -s 1\` in a database of their own; each transaction an UPDATE, a
  SELECT and an INSERT, committed) with as many clients as cartelera's pool has connections, for
  \`BENCH_DURATION\` seconds, pinned where wrk runs. cartelera's creates and updates are compared with it.
- **The disk**: at the start, a file in the temp dir that holds the SQLite files is appended 4 kB
  and \`fdatasync\`ed again and again for a second: the syncs a second this disk gives, the most
  durable commits a second it allows (the writes a group commit gathers share one sync).
- **CPUs**: ${run.pinning}. PostgreSQL's own processes are not pinned: they share both CPUs with the
  server and wrk, so cartelera (PostgreSQL) pays for its database out of the same two cores.
- **Data**: 20 categories, then 10,000 movies ("Película N", a 100-character synopsis), loaded through
  each target's own HTTP API with 32 requests in flight. Each scenario then runs first for
  \`BENCH_WARMUP\` seconds (10 by default), not reported, and then for the measured seconds: what is
  measured is a service that has run its load for a while, as one in use has, its JIT done
  compiling what the load calls (with 2 s, the JIT still compiled through the first measured seconds,
  the p99s then its pauses: bench/analysis.md).
- **Load**: wrk, 1 thread, 32 connections, one Lua script per scenario in \`bench/lua/\`:
  lookup of a random seeded title (\`GET /peliculas/Película%20N\`; json-server: \`GET /peliculas?titulo=…\`;
  Platformatic DB: \`GET /peliculas?where.titulo.eq=…\`; Directus: \`GET /items/peliculas?filter[titulo][_eq]=…\`),
  a random page of 100 among the first 100 (\`?_page=N&_limit=100\`; Platformatic DB:
  \`?limit=100&offset=…&totalCount=true\`; Directus: \`?limit=100&page=N&meta=total_count\`), the full
  list, creates with titles never used before, \`PUT /peliculas/{id}\` with a full valid body over the
  seeded movies (Directus: \`PATCH\` with the same body, as it has no \`PUT\`), and 90% lookups / 10%
  updates; Directus's records are under \`/items\` (\`/items/peliculas\`). Bodies are the same for every target but for the category
  field, which Platformatic DB names \`categoriaId\` (its columns in camelCase); each target's spelling
  is its dialect in \`bench/targets.ts\`.
  Scenarios run in that order on one store, so updates and the mixed run see the movies the creates added.
  Counting non-2xx in \`response()\` makes wrk buffer every body, which costs it most on the full list:
  there the ceiling is limited by wrk's core, not its own (the CPU column shows it).
- **Quiet**: before each scenario the run waits, up to ${QUIET_WAIT_S} s, for a second in which processes outside it
  use under 10% of a core; the "others" CPU share shows what they took anyway.
- **Memory**: the server process's VmHWM (reset before each scenario through \`/proc/<pid>/clear_refs\`)
  and VmRSS sampled every 200 ms; the larger is reported.
- json-server answers with its own semantics: lookups by title are filters that scan every movie and
  answer an array, bodies are indented JSON, and every write re-serializes the whole db.json.
- Platformatic DB's lookups are filters too (on the title's unique index) and answer an array; its
  creates answer 200, not 201.
- Directus's lookups are filters too (on the title's unique index), and every answer holds the
  record, or the records, in a \`data\` field; its creates answer 200, not 201.

## Durability

The write figures are for the durability each target has as configured here; they are not equal:

- **cartelera (SQLite)** runs in WAL mode with durable commits (the default, \`SQLITE_SYNCHRONOUS=full\`): each
  commit is synced to disk (\`fdatasync\` of the WAL, off the event loop) before its writes are acknowledged
  and before any answer shows it, so they survive a power cut or OS crash too; the writes that commit
  together share one sync. \`SQLITE_SYNCHRONOUS=normal\` syncs at
  checkpoints only: faster writes, and a power cut or OS crash can lose the last acknowledged ones
  (the target cartelera (SQLite, synchronous=NORMAL), measured beside it: what the sync costs).
- **cartelera (PostgreSQL)** runs on the embedded server as a deployment runs PostgreSQL:
  \`fsync=on\` and \`synchronous_commit=on\` (the test suite's own server runs with \`fsync=off\`).
  Every acknowledged write is synced to disk, and survives a power cut too.
- **cartelera (SQLite)** commits the writes that arrive together in one transaction
  (\`src/db/groupCommit.ts\`), each answered after that commit. On PostgreSQL each write keeps a
  transaction of its own, and the server shares one WAL flush among the transactions that commit
  together.
- **Platformatic DB** uses SQLite as its driver opens it, setting no pragma: a rollback journal
  (\`journal_mode=DELETE\`) and \`synchronous=FULL\`, so every write is synced to disk before it is
  acknowledged and survives a power cut too, as cartelera (SQLite) with its default; it syncs a
  rollback journal and the database file, where cartelera syncs its WAL once for the writes that commit together. Its SQLite pool holds one connection.
- **Directus** uses SQLite the same way (it sets no pragma but \`foreign_keys=ON\` on what its driver,
  sqlite3, opens: \`journal_mode=DELETE\`, \`synchronous=FULL\`), through a pool of one connection, and
  each create or update also stores a row of activity and a revision, in the same transaction.
- **json-server** answers before it writes, and rewrites the whole db.json after each write without
  syncing it: a crash can lose acknowledged writes.
- **The ceiling** stores nothing. **The durable ceiling** syncs every write before its answer, as
  cartelera (SQLite) does, and does nothing else a service does: no routing, validation, snapshots
  of the change, indexes but the title's, invalidation of answers by other processes' writes.
`;
  // The sections the other bench scripts write (bench/transfer.ts, bench/changes.ts) are kept until they write them again.
  const previous = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const sections = [...previous.matchAll(/<!-- [^>]*: written by bench\/[^>]* -->[\s\S]*?<!-- end of [^>]* -->/g)].map((m) => m[0]);
  writeFileSync(path, [doc.trimEnd(), ...sections].join('\n\n') + '\n');
}
