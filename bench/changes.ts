/**
 * The change log's figures, part of `npm run bench`: what live streams cost a service, and how fast
 * one record's history answers in a large log. Writes its section of docs/performance.md.
 * Env: BENCH_DURATION (s per measurement, default 10), BENCH_STREAMS (default 1000),
 * BENCH_CHANGES (changes in the log for the history, default 1,000,000).
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { CATEGORY_COUNT, movie } from './catalogue.js';
import { untilQuiet } from './cpu.js';
import { statusBytes } from './memory.js';
import { runExitTasks } from './process.js';
import { utcMinute, writeSection } from './report.js';
import { CARTELERA, root, startTarget, type Target } from './targets.js';
import { ensureWrk, runWrk } from './wrk.js';

const MOVIES = 10_000;
const durationS = Number(process.env.BENCH_DURATION || 10);
const STREAMS = Number(process.env.BENCH_STREAMS || 1000);
const CHANGES = Number(process.env.BENCH_CHANGES || 1_000_000);
/** The history's changes are spread over this many movie keys: ten changes each, by default. */
const HISTORY_KEYS = CHANGES / 10;
const DOC = join(root, 'docs/performance.md');
const START = '<!-- change log: written by bench/changes.ts -->';
const END = '<!-- end of change log -->';

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const rate = (n: number) => Math.round(n).toLocaleString('en-US');

/** Creates per second (2xx) over `durationS`, wrk as the rest of the bench runs it. */
async function creates(target: Target, luaArgs: string[]): Promise<number> {
  // As bench/run.ts does: each measurement starts once the machine is quiet (the commands before leave a database shutting down).
  await untilQuiet();
  const summary = await runWrk('create', target.server.base, durationS, luaArgs);
  if (summary.non2xx > 0 || summary.socket_errors > 0) throw new Error(`creates: ${summary.non2xx} non-2xx, ${summary.socket_errors} socket errors`);
  return summary.requests / (summary.duration_us / 1e6);
}

/** Opens `count` change streams on `base`, each once its first line (`retry:`) has arrived. */
async function openStreams(base: string, count: number, query: string): Promise<http.ClientRequest[]> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const open = async () => {
    const request = http.get(`${base}/cambios${query}`, { agent, headers: { accept: 'text/event-stream' } });
    const [response] = (await once(request, 'response')) as [http.IncomingMessage];
    if (response.statusCode !== 200) throw new Error(`a stream was answered ${response.statusCode}`);
    await once(response, 'data');
    // Read and dropped from here on, as a client that keeps up does.
    response.resume();
    return request;
  };
  const streams: http.ClientRequest[] = [];
  // A hundred at a time: the service's accept queue is not what this measures.
  for (let i = 0; i < count; i += 100) streams.push(...(await Promise.all(Array.from({ length: Math.min(100, count - i) }, open))));
  return streams;
}

/** The server's resident memory once it has settled: the lowest of a few samples a second apart. */
async function settledRss(pid: number): Promise<number> {
  let lowest = Infinity;
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    lowest = Math.min(lowest, statusBytes(pid, 'VmRSS'));
  }
  return lowest;
}

/**
 * Adds `CHANGES` changes to the store's log directly (the service stopped): one `alta` and nine
 * `modificacion` of each of `HISTORY_KEYS` movie keys, interleaved as a busy catalogue's would be.
 */
function fillLog(file: string): void {
  const sqlite = new SQLite(file);
  const insert = sqlite.prepare(
    `insert into cambios (recurso, clave, operacion, antes, despues, campos, quien, quien_clave, cuando)
     values ('peliculas', ?, ?, ?, ?, ?, 'ana', 'ana', ?)`,
  );
  const start = Date.parse('2026-01-01T00:00:00Z');
  sqlite.transaction(() => {
    for (let i = 0; i < CHANGES; i++) {
      const key = (i % HISTORY_KEYS) + 1;
      const round = Math.floor(i / HISTORY_KEYS);
      const record = (r: number) => JSON.stringify({ id: key, ...movie(key), duracion: 60 + r });
      const cuando = new Date(start + i * 1000).toISOString().replace('Z', '+00:00');
      if (round === 0) insert.run(key, 'alta', null, record(0), '["id","titulo","sipnosis","duracion","categoria_id"]', cuando);
      else insert.run(key, 'modificacion', record(round - 1), record(round), '["duracion"]', cuando);
    }
  })();
  sqlite.close();
}

ensureWrk();
const dir = mkdtempSync(join(tmpdir(), 'cartelera-bench-changes-'));
try {
  const target = await startTarget('cartelera-sqlite', dir, MOVIES);
  const lines: string[] = [];
  try {
    console.log(`change log: seeding ${MOVIES.toLocaleString('en-US')} movies`);
    const ids = await target.seed(32);
    const idsFile = join(dir, 'ids.txt');
    writeFileSync(idsFile, `${ids.join('\n')}\n`);
    const luaArgs = [CARTELERA.lookup, CARTELERA.page, CARTELERA.categoryField, idsFile];
    await runWrk('mixed', target.server.base, 2, luaArgs);

    // Streams open, following what an agenda site follows (the urban events), while movies are created.
    const alone1 = await creates(target, luaArgs);
    const pid = target.server.pid;
    const before = await settledRss(pid);
    const streams = await openStreams(target.server.base, STREAMS, '?recurso=eventosUrbanos');
    const after = await settledRss(pid);
    const withStreams = await creates(target, luaArgs);
    streams.forEach((stream) => stream.destroy());
    const alone2 = await creates(target, luaArgs);
    const alone = (alone1 + alone2) / 2;
    const perStream = (after - before) / STREAMS;
    console.log(`change log: ${STREAMS} idle streams, ${kB(perStream)} each; creates ${rate(alone1)}/s and ${rate(alone2)}/s without, ${rate(withStreams)}/s with (${(withStreams / alone).toFixed(2)}×)`);

    // One record's history with CHANGES changes in the log.
    await target.server.stop();
    console.log(`change log: adding ${CHANGES.toLocaleString('en-US')} changes`);
    fillLog(join(dir, `cartelera-sqlite-${MOVIES}.sqlite`));
    if (!target.restart) throw new Error('cartelera targets restart');
    await target.restart();
    await runWrk('history', target.server.base, 2, [String(HISTORY_KEYS)], { connections: 1, pin: true });
    const history = await runWrk('history', target.server.base, durationS, [String(HISTORY_KEYS)], { connections: 1, pin: true });
    if (history.non2xx > 0) throw new Error(`history: ${history.non2xx} non-2xx answers`);
    console.log(`change log: one record's history at ${CHANGES.toLocaleString('en-US')} changes: p50 ${history.p50_us} µs, p99 ${history.p99_us} µs`);

    const met = (ok: boolean) => `**${ok ? 'met' : 'not met'}**`;
    lines.push(
      '## Change log',
      '',
      `\`npm run bench\` (bench/changes.ts), ${utcMinute()}, Node ${process.version}, cartelera on SQLite with ${MOVIES.toLocaleString('en-US')} movies (${CATEGORY_COUNT} categories), servers on CPU 0 and wrk on CPU 1 as above, ${durationS} s per measurement.`,
      '',
      `- **Streams.** ${STREAMS.toLocaleString('en-US')} clients follow \`GET /cambios?recurso=eventosUrbanos\` as a live feed (an agenda site's), reading what comes, while wrk creates movies (32 connections): the streams stay open, with their heartbeats, and the feed reads the log four times a second for them. The server's resident memory is the lowest of three samples a second apart, before and after the streams opened.`,
      `- **History.** ${CHANGES.toLocaleString('en-US')} changes are added to the store's log directly (the service stopped): an \`alta\` and nine \`modificacion\` for each of ${HISTORY_KEYS.toLocaleString('en-US')} movie keys, interleaved. Then one client (wrk, 1 connection) asks \`GET /cambios?recurso=peliculas&clave=N\` for keys at random: each answer holds that record's ten changes.`,
      '',
      '| target | measured | result |',
      '|---|---|---|',
      `| an idle stream costs < 50 kB | ${kB(perStream)} a stream (${(before / 1e6).toFixed(1)} MB → ${(after / 1e6).toFixed(1)} MB for ${STREAMS.toLocaleString('en-US')}) | ${met(perStream < 50_000)} |`,
      `| ${STREAMS.toLocaleString('en-US')} open streams keep creates ≥ 0.9× of none | ${rate(withStreams)}/s with, ${rate(alone1)}/s and ${rate(alone2)}/s without (before and after): ${(withStreams / alone).toFixed(2)}× | ${met(withStreams / alone >= 0.9)} |`,
      `| one record's history, ${CHANGES.toLocaleString('en-US')} changes stored: p99 < 5 ms | p99 ${(history.p99_us / 1000).toFixed(2)} ms, p50 ${(history.p50_us / 1000).toFixed(2)} ms, ${rate(history.requests / (history.duration_us / 1e6))} answers/s | ${met(history.p99_us < 5000)} |`,
    );
  } finally {
    await target.stop();
  }
  writeSection(DOC, START, END, lines);
  console.log(`change log: written to ${DOC}`);
} finally {
  await runExitTasks();
  rmSync(dir, { recursive: true, force: true });
}
