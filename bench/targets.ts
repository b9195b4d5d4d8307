import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, startEmbeddedPostgres } from '../test/embedded-postgres.js';
import { CATEGORY_COUNT, category, movie } from './catalogue.js';
import { atExit, pinned, startServer, type ServerProcess } from './process.js';

export const root = fileURLToPath(new URL('..', import.meta.url));

export const TARGET_NAMES = ['cartelera-sqlite', 'cartelera-postgres', 'json-server', 'ceiling'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

export interface Target {
  name: TargetName;
  server: ServerProcess;
  /** How a movie is looked up by title: `/peliculas/<titulo>`, or json-server's `/peliculas?titulo=<titulo>`. */
  lookup: 'path' | 'query';
  /** Loads the 20 categories and the movies; answers the id of each movie, in title order ("Película 1" first). */
  seed(concurrency: number): Promise<number[]>;
  /** Stops the server and removes what it stored. */
  stop(): Promise<void>;
  /** cartelera only: stops the server and starts it again on the same store (target.server is the new one). */
  restart?(): Promise<void>;
}

/**
 * Starts one target on a free port, to hold `movies` movies once seeded, with its data under `workDir`
 * (or in a PostgreSQL database of its own).
 */
export async function startTarget(name: TargetName, workDir: string, movies: number): Promise<Target> {
  switch (name) {
    case 'cartelera-sqlite':
      return cartelera(name, movies, `sqlite:${join(workDir, `${name}-${movies}.sqlite`)}`, async () => {});
    case 'cartelera-postgres': {
      const postgres = await startEmbeddedPostgres();
      const stopPostgres = atExit(() => postgres.stop());
      const url = new URL(postgres.url);
      await adminQuery(postgres.url, 'create database cartelera_bench');
      url.pathname = '/cartelera_bench';
      return cartelera(name, movies, url.toString(), stopPostgres);
    }
    case 'json-server':
      return jsonServer(movies, join(workDir, 'db.json'));
    case 'ceiling':
      return ceiling(movies);
  }
}

/** What `npm start` gives node (its flags and the script), read from package.json so the two cannot differ. */
export function startArguments(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const command = /^exec node (.+)$/.exec(scripts.start);
  if (!command?.[1]) throw new Error(`package.json's start script is not "exec node …": ${scripts.start}`);
  return command[1].split(/\s+/);
}

/** The service itself, as `npm start` runs it but without npm, so the measured pid is the server's. */
async function cartelera(name: TargetName, movies: number, databaseUrl: string, afterStop: () => Promise<void>): Promise<Target> {
  const port = await freePort();
  const launch = () =>
    startServer(name, pinned(0, [process.execPath, ...startArguments()]), {
      cwd: root,
      port,
      env: { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      readyPath: '/health',
    }).catch(async (error: unknown) => {
      await afterStop();
      throw error;
    });
  let server = await launch();
  return {
    name,
    get server() {
      return server;
    },
    lookup: 'path',
    seed: (concurrency) => seedThroughApi(server.base, movies, concurrency),
    async stop() {
      await server.stop();
      await afterStop();
    },
    async restart() {
      await server.stop();
      server = await launch();
    },
  };
}

/** json-server 0.17 on a fresh db.json, with its own routes: /peliculas, /categorias. */
async function jsonServer(movies: number, dbFile: string): Promise<Target> {
  writeFileSync(dbFile, JSON.stringify({ categorias: [], peliculas: [] }));
  const port = await freePort();
  const bin = join(root, 'node_modules', '.bin', 'json-server');
  const server = await startServer('json-server', pinned(0, [bin, '--port', String(port), '--host', '127.0.0.1', dbFile, '--quiet']), {
    cwd: root,
    port,
    readyPath: '/categorias',
  });
  return {
    name: 'json-server',
    server,
    lookup: 'query',
    seed: (concurrency) => seedThroughApi(server.base, movies, concurrency),
    stop: () => server.stop(),
  };
}

/** bench/ceiling.ts: the same bytes, from memory. Nothing to seed: it makes its movies at start. */
async function ceiling(movies: number): Promise<Target> {
  const port = await freePort();
  const server = await startServer('ceiling', pinned(0, [process.execPath, '--import', 'tsx', 'bench/ceiling.ts']), {
    cwd: root,
    port,
    env: { PORT: String(port), MOVIES: String(movies) },
    readyPath: '/peliculas',
  });
  return {
    name: 'ceiling',
    server,
    lookup: 'path',
    seed: async () => Array.from({ length: movies }, (_, i) => i + 1),
    stop: () => server.stop(),
  };
}

/** Seeds through the target's own HTTP API: the categories one by one (ids 1–20), then the movies, `concurrency` in flight. */
export async function seedThroughApi(base: string, movies: number, concurrency: number): Promise<number[]> {
  for (let n = 1; n <= CATEGORY_COUNT; n++) {
    const { id } = await post(`${base}/categorias`, category(n));
    if (id !== n) throw new Error(`category ${n} was stored with id ${id}: the store is not fresh`);
  }
  const ids = new Array<number>(movies);
  let next = 1;
  const worker = async () => {
    for (let n = next++; n <= movies; n = next++) ids[n - 1] = (await post(`${base}/peliculas`, movie(n))).id;
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ids;
}

/**
 * What a target answers after seeding, checked once outside the load: every movie in the full list, 100
 * in a page, the last title found. Answers the problems found, so a figure for a wrong answer is flagged.
 */
export async function checkAnswers(target: Target, movies: number): Promise<string[]> {
  const { base } = target.server;
  const title = encodeURIComponent(`Película ${movies}`);
  // The ceiling answers its first movie to every lookup, by design.
  const expected = target.name === 'ceiling' ? 'Película 1' : `Película ${movies}`;
  const checks: [string, string, (body: unknown) => boolean][] = [
    [`GET /peliculas`, `${base}/peliculas`, (body) => Array.isArray(body) && body.length >= movies],
    [`GET /peliculas?_page=2&_limit=100`, `${base}/peliculas?_page=2&_limit=100`, (body) => Array.isArray(body) && body.length === 100],
    target.lookup === 'path'
      ? [`GET /peliculas/${title}`, `${base}/peliculas/${title}`, (body) => (body as { titulo?: unknown }).titulo === expected]
      : [`GET /peliculas?titulo=${title}`, `${base}/peliculas?titulo=${title}`, (body) => Array.isArray(body) && body.length === 1],
  ];
  const problems: string[] = [];
  for (const [what, url, ok] of checks) {
    const response = await fetch(url);
    const body: unknown = await response.json().catch(() => undefined);
    if (response.status !== 200 || !ok(body)) {
      const size = Array.isArray(body) ? `${body.length} records` : 'not the expected record';
      problems.push(`${target.name}: ${what} answered ${response.status}, ${size}`);
    }
  }
  return problems;
}

async function post(url: string, body: object): Promise<{ id: number }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 201) throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: number };
}

export async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
