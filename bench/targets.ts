import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, startEmbeddedPostgres } from '../test/embedded-postgres.js';
import { startArguments } from '../test/service.js';
import { CATEGORY_COUNT, category, movie } from './catalogue.js';
import { bareCreateTps, pgbenchTps } from './pgbench.js';
import { node24 } from './registryNode.js';
import { startDirectus } from './directus.js';
import { startPlatformatic } from './platformatic.js';
import { atExit, pinned, startServer, type ServerProcess } from './process.js';

export const root = fileURLToPath(new URL('..', import.meta.url));

export const TARGET_NAMES = ['cartelera-sqlite', 'cartelera-sqlite-normal', 'cartelera-baseline', 'cartelera-sqlite-node24', 'cartelera-postgres', 'json-server', 'platformatic-db', 'directus', 'ceiling', 'ceiling-durable'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

/**
 * How a target's API spells what differs between targets. The URLs are templates, filled in by
 * bench/lua/bench.lua under load and by checkAnswers() once.
 */
export interface Dialect {
  /** GET one movie by title; `{titulo}` stands for the URL-encoded title. */
  lookup: string;
  /** Whether a lookup answers the movie itself, or a filter's array that holds it. */
  lookupAnswer: 'record' | 'array';
  /** GET a page of 100 movies: `{page}` stands for its number (from 1), or `{offset}` for the movies skipped. */
  page: string;
  /** The name of the movie's category field in bodies. */
  categoryField: string;
  /** The status a create answers. */
  created: number;
  /**
   * What comes before `/peliculas` and `/categorias` in the URLs of the full list, of creates and of
   * updates by id (`/peliculas/{id}`).
   */
  collections: string;
  /** The method of an update by id, whose body is the whole movie. */
  update: 'PUT' | 'PATCH';
  /** Whether answers hold the record, or the records, in a `data` field (`{"data": ...}`) instead of being them. */
  wrapped: boolean;
}

/** cartelera's own API; the ceiling answers the same requests. */
export const CARTELERA: Dialect = {
  lookup: '/peliculas/{titulo}',
  lookupAnswer: 'record',
  page: '/peliculas?_page={page}&_limit=100',
  categoryField: 'categoria_id',
  created: 201,
  collections: '',
  update: 'PUT',
  wrapped: false,
};

/** json-server's routes: a lookup is a filter; pages are spelled as cartelera's. */
const JSON_SERVER: Dialect = { ...CARTELERA, lookup: '/peliculas?titulo={titulo}', lookupAnswer: 'array' };

/**
 * Platformatic DB's REST API: a lookup is a `where` filter, a page is a limit and an offset (with the
 * total count, as cartelera's pages give it), field names are the columns in camelCase, and a create
 * answers 200.
 */
const PLATFORMATIC: Dialect = {
  lookup: '/peliculas?where.titulo.eq={titulo}',
  lookupAnswer: 'array',
  page: '/peliculas?limit=100&offset={offset}&totalCount=true',
  categoryField: 'categoriaId',
  created: 200,
  collections: '',
  update: 'PUT',
  wrapped: false,
};

/**
 * Directus's REST API: the records are under /items, an update is a PATCH, answers hold the records in
 * `data`, a lookup is a filter, a page is a limit and a page number (with the collection's total count,
 * as cartelera's pages give it), and a create answers 200.
 */
const DIRECTUS: Dialect = {
  lookup: '/items/peliculas?filter[titulo][_eq]={titulo}',
  lookupAnswer: 'array',
  page: '/items/peliculas?limit=100&page={page}&meta=total_count',
  categoryField: 'categoria_id',
  created: 200,
  collections: '/items',
  update: 'PATCH',
  wrapped: true,
};

/** A page URL of `dialect`: page `n` (from 1) of 100 movies. */
export function pageUrl(dialect: Dialect, n: number): string {
  return dialect.page.replace('{page}', String(n)).replace('{offset}', String((n - 1) * 100));
}

export interface Target {
  name: TargetName;
  server: ServerProcess;
  /** How its API spells what differs between targets: URLs, the category field, answers. */
  dialect: Dialect;
  /** Loads the 20 categories and the movies; answers the id of each movie, in title order ("Película 1" first). */
  seed(concurrency: number): Promise<number[]>;
  /** Stops the server and removes what it stored. */
  stop(): Promise<void>;
  /** cartelera only: stops the server and starts it again on the same store (target.server is the new one). */
  restart?(): Promise<void>;
  /** cartelera on PostgreSQL only: `pgbench -N` on the same server, `clients` connections, `durationS` seconds: its transactions per second. */
  pgbench?(clients: number, durationS: number): number;
  /** cartelera on PostgreSQL only: its create statement from a bare script on its database (pgbench.ts, bareCreateTps). */
  bareCreates?(clients: number, durationS: number): Promise<number>;
}

/**
 * Starts one target on a free port, to hold `movies` movies once seeded, with its data under `workDir`
 * (or in a PostgreSQL database of its own).
 */
export async function startTarget(name: TargetName, workDir: string, movies: number): Promise<Target> {
  switch (name) {
    case 'cartelera-sqlite':
      return cartelera(name, movies, `sqlite:${join(workDir, `${name}-${movies}.sqlite`)}`, async () => {});
    case 'cartelera-sqlite-normal':
      return cartelera(name, movies, `sqlite:${join(workDir, `${name}-${movies}.sqlite`)}`, async () => {}, process.execPath, root, { SQLITE_SYNCHRONOUS: 'normal' });
    case 'cartelera-baseline':
      return cartelera(name, movies, `sqlite:${join(workDir, `${name}-${movies}.sqlite`)}`, async () => {}, process.execPath, baselineRoot());
    case 'cartelera-sqlite-node24':
      return cartelera(name, movies, `sqlite:${join(workDir, `${name}-${movies}.sqlite`)}`, async () => {}, node24(root));
    case 'cartelera-postgres': {
      const postgres = await startEmbeddedPostgres({ durability: 'production' });
      const stopPostgres = atExit(() => postgres.stop());
      const url = new URL(postgres.url);
      await adminQuery(postgres.url, 'create database cartelera_bench');
      url.pathname = '/cartelera_bench';
      const target = await cartelera(name, movies, url.toString(), stopPostgres);
      const bareCreates = (clients: number, durationS: number) => bareCreateTps(url.toString(), clients, durationS);
      await adminQuery(postgres.url, 'create database pgbench');
      const pgbenchUrl = new URL(url);
      pgbenchUrl.pathname = '/pgbench';
      const pgbench = (clients: number, durationS: number) => pgbenchTps(pgbenchUrl.toString(), clients, durationS);
      return Object.assign(target, { pgbench, bareCreates });
    }
    case 'json-server':
      return jsonServer(movies, join(workDir, 'db.json'));
    case 'platformatic-db':
      return platformatic(movies, workDir);
    case 'directus':
      return directus(movies, workDir);
    case 'ceiling':
      return bareServer(name, 'bench/ceiling.ts', movies, {}, '/peliculas');
    case 'ceiling-durable':
      return bareServer(name, 'bench/durableCeiling.ts', movies, { FILE: join(workDir, `${name}.sqlite`) }, '/peliculas?_page=1&_limit=100');
  }
}

/**
 * The commit the bench compares this code with (BENCH_BASELINE, default the code before the change
 * log): its tree, built once into .bench/baseline-<commit>/ with this checkout's node_modules, and
 * started as its own package.json's start script says (its node flags may differ from this code's).
 */
export const BASELINE = process.env.BENCH_BASELINE || 'a2e6fea';

function baselineRoot(): string {
  const git = (...args: string[]) => {
    const run = spawnSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed (exit ${run.status})`);
    return run.stdout.trim();
  };
  const commit = git('rev-parse', '--verify', `${BASELINE}^{commit}`);
  const dir = join(root, '.bench', `baseline-${commit.slice(0, 12)}`);
  if (!existsSync(join(dir, 'dist', 'server.js'))) {
    console.log(`cartelera-baseline: building ${BASELINE} (${commit.slice(0, 12)}) into ${dir}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const archive = spawnSync('sh', ['-c', `git archive ${commit} | tar -x -C "${dir}"`], { cwd: root, stdio: 'inherit' });
    if (archive.status !== 0) throw new Error(`git archive ${commit} failed`);
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    const build = spawnSync('npm', ['run', 'build'], { cwd: dir, stdio: 'inherit' });
    if (build.status !== 0) throw new Error(`building ${BASELINE} failed (exit ${build.status})`);
  }
  return dir;
}

/** The service itself, as `npm start` runs it but without npm, so the measured pid is the server's. */
async function cartelera(
  name: TargetName, movies: number, databaseUrl: string, afterStop: () => Promise<void>, node = process.execPath, cwd = root,
  settings: Record<string, string> = {},
): Promise<Target> {
  const port = await freePort();
  // BENCH_SERVER_FLAGS: node flags before npm start's own (--cpu-prof, --trace-deopt…), to look inside a run.
  const launch = () =>
    startServer(name, pinned(0, [node, ...(process.env.BENCH_SERVER_FLAGS?.split(/\s+/).filter(Boolean) ?? []), ...startArguments(cwd)]), {
      cwd,
      port,
      // Room for bench/changes.ts's 1,000 live streams beside wrk's connections.
      env: { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', MAX_CONNECTIONS: '2000', CHANGES_MAX_STREAMS: '1000', ...settings },
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
    dialect: CARTELERA,
    seed: (concurrency) => seedThroughApi(server.base, movies, concurrency, CARTELERA),
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
  return peer('json-server', server, JSON_SERVER, movies);
}

/** Platformatic DB (bench/platformatic.ts) on a fresh SQLite file; its SQLite is removed with `workDir`. */
async function platformatic(movies: number, workDir: string): Promise<Target> {
  const server = await startPlatformatic(root, workDir, await freePort());
  return peer('platformatic-db', server, PLATFORMATIC, movies);
}

/** Directus (bench/directus.ts) on a fresh SQLite file; its SQLite is removed with `workDir`. */
async function directus(movies: number, workDir: string): Promise<Target> {
  const server = await startDirectus(root, workDir, await freePort());
  return peer('directus', server, DIRECTUS, movies);
}

/** Another server of the same kind, seeded through its own API and stopped with its process. */
function peer(name: TargetName, server: ServerProcess, dialect: Dialect, movies: number): Target {
  return { name, server, dialect, seed: (concurrency) => seedThroughApi(server.base, movies, concurrency, dialect), stop: () => server.stop() };
}

/**
 * A bare server of bench/: `script`, started on a free port with `env`. Nothing to seed: it makes its
 * movies at start, ids 1 to `movies`. The ceiling (bench/ceiling.ts) answers the same bytes from
 * memory; the durable ceiling (bench/durableCeiling.ts) stores its movies and writes in a SQLite file.
 */
async function bareServer(name: 'ceiling' | 'ceiling-durable', script: string, movies: number, env: Record<string, string>, readyPath: string): Promise<Target> {
  const port = await freePort();
  const server = await startServer(name, pinned(0, [process.execPath, '--import', 'tsx', script]), {
    cwd: root,
    port,
    env: { PORT: String(port), MOVIES: String(movies), ...env },
    readyPath,
  });
  return { name, server, dialect: CARTELERA, seed: async () => Array.from({ length: movies }, (_, i) => i + 1), stop: () => server.stop() };
}

/** Seeds through the target's own HTTP API: the categories one by one (ids 1–20), then the movies, `concurrency` in flight. */
export async function seedThroughApi(base: string, movies: number, concurrency: number, dialect: Dialect): Promise<number[]> {
  for (let n = 1; n <= CATEGORY_COUNT; n++) {
    const { id } = await post(`${base}${dialect.collections}/categorias`, category(n), dialect);
    if (id !== n) throw new Error(`category ${n} was stored with id ${id}: the store is not fresh`);
  }
  const ids = new Array<number>(movies);
  let next = 1;
  const worker = async () => {
    for (let n = next++; n <= movies; n = next++) ids[n - 1] = (await post(`${base}${dialect.collections}/peliculas`, movieBody(n, dialect), dialect)).id;
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ids;
}

/** Movie `n` with the dialect's name for its category field, in the same place (last) as cartelera's. */
function movieBody(n: number, { categoryField }: Dialect): Record<string, unknown> {
  const { categoria_id, ...fields } = movie(n);
  return { ...fields, [categoryField]: categoria_id };
}

/**
 * What a target answers after seeding, checked once outside the load: every movie in the full list, 100
 * in a page, the last title found. Answers the problems found, so a figure for a wrong answer is flagged.
 */
export async function checkAnswers(target: Target, movies: number): Promise<string[]> {
  const { server, dialect } = target;
  const lookup = dialect.lookup.replace('{titulo}', encodeURIComponent(`Película ${movies}`));
  // The ceiling answers its first movie to every lookup, by design.
  const expected = target.name === 'ceiling' ? 'Película 1' : `Película ${movies}`;
  const isExpected = (record: unknown) => (record as { titulo?: unknown } | undefined)?.titulo === expected;
  const checks: [string, (body: unknown) => boolean][] = [
    [`${dialect.collections}/peliculas`, (body) => Array.isArray(body) && body.length >= movies],
    [pageUrl(dialect, 2), (body) => Array.isArray(body) && body.length === 100],
    dialect.lookupAnswer === 'record'
      ? [lookup, isExpected]
      : [lookup, (body) => Array.isArray(body) && body.length === 1 && isExpected(body[0])],
  ];
  const problems: string[] = [];
  for (const [path, ok] of checks) {
    const what = `GET ${path}`;
    const response = await fetch(`${server.base}${path}`);
    const body = unwrap(await response.json().catch(() => undefined), dialect);
    if (response.status !== 200 || !ok(body)) {
      const size = Array.isArray(body) ? `${body.length} records` : 'not the expected record';
      problems.push(`${target.name}: ${what} answered ${response.status}, ${size}`);
    }
  }
  return problems;
}

async function post(url: string, body: object, dialect: Dialect): Promise<{ id: number }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== dialect.created) throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`);
  return unwrap(await response.json(), dialect) as { id: number };
}

/** What an answer of `dialect` holds: its `data` when the dialect wraps answers in it. */
function unwrap(body: unknown, { wrapped }: Dialect): unknown {
  return wrapped ? (body as { data?: unknown } | undefined)?.data : body;
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
