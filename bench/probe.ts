/**
 * A look inside a cartelera server under load, for bench/analysis.md: loaded into the server with
 * `BENCH_SERVER_FLAGS="--import tsx --import $PWD/bench/probe.ts"`, it records, in the server's main
 * thread,
 * - each request's time in the server, by method (from the request's event to its last byte handed
 *   to the kernel), and the time its connection stayed idle before it (wrk's turn around and the
 *   wait for the event loop to read it);
 * - each SQLite statement's time, by its SQL (better-sqlite3's run, all and get);
 * - each garbage collection, and each time a 1 ms timer ran more than 3 ms late (a long turn of
 *   the event loop);
 * and writes them, on exit, to `.bench/probe-<pid>.json` beside this file. `node --import tsx bench/probe.ts <file>`
 * summarizes a file: the last 8 seconds of requests (BENCH_DURATION's default), that is the last
 * scenario's measured seconds.
 */
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';
import { argv } from 'node:process';
import { pathToFileURL } from 'node:url';

/** What a probe file holds: times in milliseconds since the server started (`performance.now()`). */
interface Recorded {
  /** [start, time in the server, method] */
  requests: [number, number, string][];
  /** [start, time idle before the request] */
  idle: [number, number][];
  /** SQL → [end, time][] */
  statements: Record<string, [number, number][]>;
  gcs: [number, number][];
  lateTimers: [number, number][];
}

/** What is kept: the last this many seconds. */
const KEPT_S = 40;

function record(): void {
  const recorded: Recorded = { requests: [], idle: [], statements: {}, gcs: [], lateTimers: [] };
  const lastDone = new WeakMap<object, number>();

  const emit = Server.prototype.emit;
  Server.prototype.emit = function (this: Server, event: string, ...args: unknown[]) {
    if (event === 'request') {
      const [request, response] = args as [IncomingMessage, ServerResponse];
      const start = performance.now();
      const before = lastDone.get(request.socket);
      if (before !== undefined) recorded.idle.push([start, start - before]);
      response.once('finish', () => {
        const end = performance.now();
        lastDone.set(request.socket, end);
        recorded.requests.push([start, end - start, request.method ?? '']);
      });
    }
    return (emit as (this: Server, event: string, ...args: unknown[]) => boolean).apply(this, [event, ...args]);
  } as typeof Server.prototype.emit;

  // The server's own copy of better-sqlite3: resolved from where it runs.
  const SQLite = createRequire(`${process.cwd()}/package.json`)('better-sqlite3') as typeof import('better-sqlite3');
  const scratch = new SQLite(':memory:');
  type Run = (...args: unknown[]) => unknown;
  const statement = Object.getPrototypeOf(scratch.prepare('select 1')) as Record<'run' | 'all' | 'get', Run>;
  scratch.close();
  for (const method of ['run', 'all', 'get'] as const) {
    const original = statement[method];
    statement[method] = function (this: { source: string }, ...args: unknown[]) {
      const start = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const end = performance.now();
        const sql = this.source.replace(/\s+/g, ' ').trim().slice(0, 100);
        (recorded.statements[sql] ??= []).push([end, end - start]);
      }
    };
  }

  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) recorded.gcs.push([entry.startTime, entry.duration]);
  }).observe({ entryTypes: ['gc'] });

  let due = performance.now() + 1;
  setInterval(() => {
    const now = performance.now();
    if (now - due > 3) recorded.lateTimers.push([now, now - due]);
    due = now + 1;
  }, 1).unref();

  process.once('exit', () => {
    const from = performance.now() - KEPT_S * 1000;
    const recent = <T extends [number, ...unknown[]]>(rows: T[]) => rows.filter(([at]) => at >= from);
    const statements = Object.fromEntries(Object.entries(recorded.statements).map(([sql, rows]) => [sql, recent(rows)]));
    const folder = new URL('../.bench/', import.meta.url);
    mkdirSync(folder, { recursive: true });
    writeFileSync(new URL(`probe-${process.pid}.json`, folder), JSON.stringify({
      requests: recent(recorded.requests), idle: recent(recorded.idle), statements,
      gcs: recent(recorded.gcs), lateTimers: recent(recorded.lateTimers),
    } satisfies Recorded));
  });
}

/** The value below which a `share` of `values` lies. */
function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN;
}

const ms = (value: number) => value.toFixed(2);
const largest = (values: number[]) => values.reduce((max, value) => Math.max(max, value), 0);
const spread = (values: number[]) =>
  `${values.length} · p50 ${ms(percentile(values, 0.5))} · p90 ${ms(percentile(values, 0.9))} · p99 ${ms(percentile(values, 0.99))} · max ${ms(largest(values))} ms`;

function summarize(file: string, seconds = Number(process.env.BENCH_DURATION ?? 8)): void {
  const recorded = JSON.parse(readFileSync(file, 'utf8')) as Recorded;
  const end = largest(recorded.requests.map(([start, time]) => start + time));
  const from = end - seconds * 1000;
  const inWindow = <T extends [number, ...unknown[]]>(rows: T[]) => rows.filter(([at]) => at >= from && at <= end);
  const requests = inWindow(recorded.requests);
  console.log(`the last ${seconds} s of requests: ${Math.round(requests.length / seconds)} a second`);
  for (const method of new Set(requests.map(([, , method]) => method))) {
    console.log(`${method} in the server: ${spread(requests.filter((row) => row[2] === method).map(([, time]) => time))}`);
  }
  console.log(`idle before a request: ${spread(inWindow(recorded.idle).map(([, time]) => time))}`);
  const gcs = inWindow(recorded.gcs);
  console.log(`garbage collections: ${gcs.length}, ${ms(gcs.reduce((sum, [, time]) => sum + time, 0))} ms in all, the longest ${ms(largest(gcs.map(([, time]) => time)))} ms`);
  const late = inWindow(recorded.lateTimers);
  console.log(`turns over 3 ms (a 1 ms timer late): ${late.length}, the longest ${ms(largest(late.map(([, time]) => time)))} ms`);
  const statements = Object.entries(recorded.statements)
    .map(([sql, rows]) => [sql, inWindow(rows).map(([, time]) => time)] as const)
    .filter(([, times]) => times.length > 0)
    .map(([sql, times]) => ({ sql, count: times.length, total: times.reduce((sum, time) => sum + time, 0) }))
    .sort((a, b) => b.total - a.total);
  console.log('SQLite statements, by the time they took (ms a second, a second, µs each):');
  for (const { sql, count, total } of statements.slice(0, 15)) {
    console.log(`  ${(total / seconds).toFixed(1).padStart(6)} ${String(Math.round(count / seconds)).padStart(7)} ${((1000 * total) / count).toFixed(1).padStart(7)}  ${sql}`);
  }
}

if (import.meta.url === pathToFileURL(argv[1] ?? '').href) {
  const file = argv[2];
  if (!file) throw new Error('usage: node --import tsx bench/probe.ts .bench/probe-<pid>.json');
  summarize(file);
} else if (isMainThread) {
  record();
}
