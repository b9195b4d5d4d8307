/**
 * What an update costs SQLite in pages: the service in this process on a SQLite file of 10,000
 * movies, updated by id (`PUT /peliculas/{id}`, another duration) 1, 2, 4 and 8 at once (the
 * group commit gathers those into one transaction); the WAL's growth over each series, in pages
 * (4 kB frames) per commit and per update. An analysis for bench/analysis.md, not part of `npm run bench`:
 * `node --import tsx bench/pages.ts`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { groupCommits } from '../src/db/transaction.js';
import { CATEGORY_COUNT, category, movie } from './catalogue.js';

const MOVIES = 10_000;
/** Updates per series: few enough that the WAL does not reach SQLite's automatic checkpoint (1,000 pages). */
const UPDATES = 96;
const FRAME = 4096 + 24;
const WAL_HEADER = 32;

const dir = mkdtempSync(join(tmpdir(), 'cartelera-pages-'));
const file = join(dir, 'store.sqlite');
// The pages a commit appends are the same whether it is synced: NORMAL only seeds faster.
const config = loadConfig({ DATABASE_URL: `sqlite:${file}`, SQLITE_SYNCHRONOUS: 'normal', LOG_LEVEL: 'silent', UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' });
const app = await buildApp(config);
try {
  for (let n = 1; n <= CATEGORY_COUNT; n++) await app.inject({ method: 'POST', url: '/categorias', payload: category(n) });
  const ids: number[] = [];
  for (let n = 1; n <= MOVIES; n++) ids[n] = (await app.inject({ method: 'POST', url: '/peliculas', payload: movie(n) })).json<{ id: number }>().id;
  const other = new SQLite(file);
  const walPages = () => (statSync(`${file}-wal`).size - WAL_HEADER) / FRAME;
  for (const group of [1, 2, 4, 8]) {
    other.pragma('wal_checkpoint(TRUNCATE)');
    const before = groupCommits.groups;
    for (let c = 0; c < UPDATES / group; c++) {
      await Promise.all(Array.from({ length: group }, async () => {
        const n = 1 + Math.floor(Math.random() * MOVIES);
        const response = await app.inject({ method: 'PUT', url: `/peliculas/${ids[n]}`, payload: { ...movie(n), duracion: 1 + ((movie(n).duracion + c) % 300) } });
        if (response.statusCode !== 200) throw new Error(`PUT answered ${response.statusCode}: ${response.body}`);
      }));
    }
    const commits = groupCommits.groups - before;
    console.log(`${group} at once: ${UPDATES} updates in ${commits} commits, ${(walPages() / commits).toFixed(1)} pages a commit, ${(walPages() / UPDATES).toFixed(2)} an update`);
  }
  other.close();
} finally {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}
