/**
 * What's on under load, part of `npm run bench`: a store of 2,000 venues around Buenos Aires and
 * 200,000 showtimes, on the service as deployed (SQLite, then PostgreSQL). wrk asks, as the main
 * bench does (one thread, 32 connections), for lookups by title, then `GET /cartelera` for a week
 * near one of 20 points (`cerca`, `radio_km=3`, `_limit=50`), then `.jsonld` and `.ics` for the
 * same, taking gzip as browsers and crawlers do. Writes its section of docs/performance.md; runs alone too (`node --import tsx
 * bench/whatsOn.ts` after `npm run build`). Env: BENCH_WHATS_ON_SECONDS (default 15).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { untilQuiet } from './cpu.js';
import { runExitTasks } from './process.js';
import { utcMinute, writeSection } from './report.js';
import { root, startTarget, type TargetName } from './targets.js';
import { ensureWrk, runWrk, type WrkSummary } from './wrk.js';

const SECONDS = Number(process.env.BENCH_WHATS_ON_SECONDS || 15);
const MOVIES = 1000;
const VENUES = 2000;
const PER_VENUE = 100;
const WEEK = { desde: '2027-03-01', hasta: '2027-03-07' };
const DOC = join(root, 'docs/performance.md');
const START = '<!-- whats-on: written by bench/whatsOn.ts -->';
const END = '<!-- end of whats-on -->';
const TARGETS: { name: TargetName; p99Ms: number }[] = [
  { name: 'cartelera-sqlite', p99Ms: 5 },
  { name: 'cartelera-postgres', p99Ms: 10 },
];
// A fixed sequence, so that every run stores the same venues: a linear congruential generator.
let state = 20_270_301;
const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const CENTRE = { lat: -34.6037, lon: -58.3816 };
/** Within about 15 km of the centre. */
const around = () => ({ latitud: +(CENTRE.lat + (random() - 0.5) * 0.27).toFixed(6), longitud: +(CENTRE.lon + (random() - 0.5) * 0.33).toFixed(6) });

async function post(base: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json: unknown = await res.json();
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** The venues, each with a series of showtimes: every day from WEEK.desde for 50 days at two times. */
async function fill(base: string, movies: number[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let n = next++; n < VENUES; n = next++) {
      const { id } = (await post(base, '/lugares', { nombre: `Sala ${n + 1}`, direccion: `Calle ${n + 1}, Buenos Aires`, ...around() })) as { id: number };
      const evento_id = movies[n % movies.length];
      await post(base, '/funciones/serie', { tipo_evento: 'pelicula', evento_id, lugar_id: id, desde: WEEK.desde, hasta: '2027-04-19', dias: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'], horas: ['19:00', '22:00'] });
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

const rate = (w: WrkSummary) => w.requests / (w.duration_us / 1e6);
const ms = (us: number) => (us / 1000).toFixed(2);

ensureWrk();
const dir = mkdtempSync(join(tmpdir(), 'cartelera-bench-whats-on-'));
const rows: string[] = [];
try {
  for (const { name, p99Ms } of TARGETS) {
    const target = await startTarget(name, dir, MOVIES);
    try {
      const base = target.server.base;
      const ids = await target.seed(8);
      const started = performance.now();
      await fill(base, ids);
      console.log(`${name}: ${VENUES} venues and ${VENUES * PER_VENUE} showtimes in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      const idsFile = join(dir, `${name}-ids.txt`);
      writeFileSync(idsFile, `${ids.join('\n')}\n`);
      const points = Array.from({ length: 20 }, around);
      const urls = (path: string, extra: string) => points.map((p) => `${path}?desde=${WEEK.desde}&hasta=${WEEK.hasta}&cerca=${p.latitud},${p.longitud}&radio_km=3${extra}`);
      const files = Object.fromEntries(
        (['/cartelera', '/cartelera.jsonld', '/cartelera.ics'] as const).map((path) => {
          const file = join(dir, `${name}${path.replace('/', '-')}.txt`);
          writeFileSync(file, `${urls(path, path === '/cartelera' ? '&_limit=50' : '').join('\n')}\n`);
          return [path, file];
        }),
      );
      const { lookup, page, categoryField, collections, update } = target.dialect;
      const luaArgs = [lookup, page, categoryField, idsFile, collections, update];
      await untilQuiet();
      await runWrk('lookup', base, 3, luaArgs);
      const lookups = await runWrk('lookup', base, SECONDS, luaArgs);
      const results: [string, WrkSummary, number][] = [];
      for (const [path, file] of Object.entries(files)) {
        await runWrk('whatsOn', base, 3, [...luaArgs, file]);
        results.push([path, await runWrk('whatsOn', base, SECONDS, [...luaArgs, file]), path === '/cartelera' ? 0.3 : 0.2]);
      }
      rows.push(`| ${name.replace('cartelera-', '')} | lookup by title | ${rate(lookups).toFixed(0)}/s | ${ms(lookups.p99_us)} ms | | ${lookups.non2xx} |`);
      for (const [path, w, share] of results) {
        const ratio = rate(w) / rate(lookups);
        const p99Target = path === '/cartelera' ? ` (target ≤ ${p99Ms} ms: ${w.p99_us / 1000 <= p99Ms ? 'met' : 'not met'})` : '';
        rows.push(`| ${name.replace('cartelera-', '')} | \`${path}\` | ${rate(w).toFixed(0)}/s | ${ms(w.p99_us)} ms${p99Target} | ${ratio.toFixed(2)}× (target ≥ ${share}×: ${ratio >= share ? 'met' : 'not met'}) | ${w.non2xx} |`);
      }
      console.log(rows.slice(-4).join('\n'));
    } finally {
      await target.stop();
    }
  }
  writeSection(DOC, START, END, [
    "## What's on",
    '',
    `\`npm run bench\` (bench/whatsOn.ts), ${utcMinute()}, Node ${process.version}: a store of ${VENUES.toLocaleString('en-US')} venues within about 15 km of the centre of Buenos Aires, each with a series of ${PER_VENUE} showtimes (${(VENUES * PER_VENUE).toLocaleString('en-US')} in all, over 50 days) and ${MOVIES.toLocaleString('en-US')} movies. wrk (one thread, 32 connections, ${SECONDS} s each) asks for lookups by title, then for the week of ${WEEK.desde} near one of 20 points (\`cerca\`, \`radio_km=3\`; \`_limit=50\` for \`/cartelera\`), as JSON, JSON-LD and iCalendar, with \`Accept-Encoding: gzip\` as browsers, calendar apps and search engines send it. Answers are kept as the other answers are (dropped when a table they read changes), each gzipped once when first asked for so.`,
    '',
    '| store | request | rate | p99 | rate ÷ lookups | non-2xx |',
    '|---|---|---:|---:|---:|---:|',
    ...rows,
  ]);
  console.log(`what's on: written to ${DOC}`);
} finally {
  await runExitTasks();
  rmSync(dir, { recursive: true, force: true });
}
