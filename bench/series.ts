/**
 * `POST /funciones/serie` of 1,000 showtimes on SQLite, part of `npm run bench`: the service as
 * deployed (a process of its own, its store a SQLite file, every commit synced), each series a
 * new venue's, timed from request to answer. Writes its section of docs/performance.md; runs
 * alone too (`node --import tsx bench/series.ts` after `npm run build`). Env: BENCH_SERIES_ROUNDS (default 10).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { untilQuiet } from './cpu.js';
import { runExitTasks } from './process.js';
import { utcMinute, writeSection } from './report.js';
import { root, startTarget } from './targets.js';

const ROUNDS = Number(process.env.BENCH_SERIES_ROUNDS || 10);
const SHOWTIMES = 1000;
const TARGET_S = 0.5;
const DOC = join(root, 'docs/performance.md');
const START = '<!-- series: written by bench/series.ts -->';
const END = '<!-- end of series -->';

async function post(base: string, path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

async function created(base: string, path: string, body: unknown): Promise<number> {
  const { status, json } = await post(base, path, body);
  if (status !== 201) throw new Error(`POST ${path}: ${status} ${JSON.stringify(json)}`);
  return (json as { id: number }).id;
}

const dir = mkdtempSync(join(tmpdir(), 'cartelera-bench-series-'));
const target = await startTarget('cartelera-sqlite', dir, 0);
try {
  const base = target.server.base;
  const categoria = await created(base, '/categorias', { nombre: 'Drama' });
  const pelicula = await created(base, '/peliculas', { titulo: 'Roma', sipnosis: 'Ciudad de México, 1970.', duracion: 135, categoria_id: categoria });
  const rule = { tipo_evento: 'pelicula', evento_id: pelicula, desde: '2027-01-01', hasta: '2027-09-07', dias: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'], horas: ['15:00', '18:00', '20:30', '23:00'] };
  const times: number[] = [];
  await untilQuiet();
  for (let round = 1; round <= ROUNDS; round++) {
    const lugar = await created(base, '/lugares', { nombre: `Sala ${round}`, direccion: 'Corrientes 1530', latitud: -34.6037, longitud: -58.3816 });
    const started = performance.now();
    const { status, json } = await post(base, '/funciones/serie', { ...rule, lugar_id: lugar });
    const seconds = (performance.now() - started) / 1000;
    if (status !== 201 || (json as unknown[]).length !== SHOWTIMES) throw new Error(`series ${round}: ${status} ${JSON.stringify(json).slice(0, 300)}`);
    times.push(seconds);
    console.log(`series ${round}: ${SHOWTIMES} showtimes in ${seconds.toFixed(3)} s`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const slowest = sorted.at(-1) ?? 0;
  writeSection(DOC, START, END, [
    '## Series of showtimes',
    '',
    `\`npm run bench\` (bench/series.ts), ${utcMinute()}, Node ${process.version}: \`POST /funciones/serie\` of ${SHOWTIMES.toLocaleString('en-US')} showtimes (every day for 250 days at four times), ${ROUNDS} times, each at a new venue, on the service as deployed with a SQLite store (a process of its own, every commit synced to disk). Each is one transaction: the showtimes, many a statement, and their ${SHOWTIMES.toLocaleString('en-US')} changes in the log; timed from request to answer.`,
    '',
    '| showtimes | median | slowest | target |',
    '|---:|---:|---:|---|',
    `| ${SHOWTIMES.toLocaleString('en-US')} | ${median.toFixed(3)} s | ${slowest.toFixed(3)} s | < ${TARGET_S} s, the slowest: ${slowest < TARGET_S ? 'met' : 'not met'} |`,
  ]);
  console.log(`series: written to ${DOC}`);
} finally {
  await target.stop();
  await runExitTasks();
  rmSync(dir, { recursive: true, force: true });
}
