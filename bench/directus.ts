/**
 * Directus as a bench target: installed by the bench itself on first use (it is heavy and only the
 * bench needs it, so it is not among the project's dependencies), then run on a fresh SQLite file with
 * tables like cartelera's, which its Public policy may read, create and update, so that the bench's
 * requests carry no token.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { installForBench, registryNode, type BenchInstall } from './registryNode.js';
import { pinned, startServer, type ServerProcess } from './process.js';

/** Pinned to one version, so that a run measures the same code every time. */
export const DIRECTUS_VERSION = '11.3.5';

/**
 * The Node.js it runs on, from the npm registry (a release line Directus 11 supports): the sandbox it
 * loads at start, isolated-vm 5 (native), does not build against Node.js 26, whose V8 headers need C++20.
 */
export const DIRECTUS_NODE = '22.23.3';

/**
 * The install scripts npm may run, as the folder's package.json `allowScripts` (npm runs those of a
 * package it does not list too, with a warning, so the ones Directus runs without are denied).
 * Allowed: the two native modules it loads at start whose packages hold no binary, built from source
 * against `node`'s headers (their prebuilt downloads come from GitHub, out of reach here): its SQLite
 * driver, sqlite3, and isolated-vm, which its extension manager imports. Denied: argon2's and sharp's,
 * which only check the binaries their packages (or sharp's platform package) ship; esbuild's, for its
 * extension SDK; vue-demi's, for its web app's build; oracledb's, a driver it does not use here.
 */
const ALLOW_SCRIPTS = { sqlite3: true, 'isolated-vm': true, argon2: false, sharp: false, esbuild: false, 'vue-demi': false, oracledb: false };

/**
 * cartelera's columns (src/db/migrations/0001_catalogue.ts), so the same bodies fit, and its index on
 * the foreign key; made before `directus bootstrap`, which leaves tables it does not know alone. The
 * ids are AUTOINCREMENT, as in the tables Directus makes itself. Without what only cartelera uses: the
 * normalized-key columns (the titles are unique as written here), the CHECKs of the contract and the
 * version triggers.
 */
const SCHEMA = `create table categorias (
  id integer primary key autoincrement,
  nombre text unique not null
);
create table peliculas (
  id integer primary key autoincrement,
  titulo text not null unique,
  sipnosis text,
  duracion integer,
  categoria_id integer not null references categorias(id)
);
create index peliculas_categoria on peliculas (categoria_id);
`;

const COLLECTIONS = ['categorias', 'peliculas'];
const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'bench';

/** Installed by the bench on first use, to run on `node` (DIRECTUS_NODE); its native modules checked by loading them. */
const INSTALL: BenchInstall = {
  folder: 'directus',
  spec: `directus@${DIRECTUS_VERSION}`,
  allowScripts: ALLOW_SCRIPTS,
  check: "new (require('sqlite3').Database)(':memory:').close(); require('isolated-vm')",
};

/**
 * Starts Directus (its own CLI, `directus start`: one process) on `port`, on a fresh SQLite file under
 * `workDir` that `directus bootstrap` fills with its own tables and an admin, then opens the
 * collections to the public. Its settings are the defaults (no cache, no rate limiter, its pressure
 * limiter on) but for its logger at `warn`, as cartelera's is here, no telemetry (a report sent to
 * directus.io), its public URL (it warns without one), and a GET without `limit` answering every
 * record instead of 100 (QUERY_LIMIT_DEFAULT; no QUERY_LIMIT_MAX is set by default), so that a full
 * list is the full list.
 */
export async function startDirectus(root: string, workDir: string, port: number): Promise<ServerProcess> {
  const node = registryNode(root, DIRECTUS_NODE);
  const bin = join(installForBench(root, node, INSTALL), 'node_modules', '.bin', 'directus');
  // A project folder as `directus init` makes one: without a package.json, it warns that it cannot
  // look for extensions in it.
  const dir = join(workDir, 'directus');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  const file = join(dir, 'db.sqlite');
  const sqlite = new SQLite(file);
  sqlite.exec(SCHEMA);
  sqlite.close();
  const env = {
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DB_CLIENT: 'sqlite3',
    DB_FILENAME: file,
    KEY: 'cartelera-bench',
    SECRET: 'cartelera-bench',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    TELEMETRY: 'false',
    QUERY_LIMIT_DEFAULT: '-1',
  };
  const bootstrap = spawnSync(node, [bin, 'bootstrap'], { cwd: dir, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (bootstrap.status !== 0) {
    throw new Error(`directus bootstrap failed (${bootstrap.error?.message ?? `exit ${bootstrap.status}`}):\n${bootstrap.stdout}${bootstrap.stderr}`);
  }
  const server = await startServer('directus', pinned(0, [node, bin, 'start']), { cwd: dir, port, env, readyPath: '/server/health' });
  try {
    await openToPublic(server.base);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/**
 * Through its REST API, as the admin: makes the tables collections (as its Data Studio does with a
 * table it finds), and lets its Public policy, that of requests without a token, read, create and
 * update them.
 */
async function openToPublic(base: string): Promise<void> {
  const { access_token: token } = await call<{ access_token: string }>(base, 'POST', '/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  for (const collection of COLLECTIONS) await call(base, 'PATCH', `/collections/${collection}`, { meta: {} }, token);
  const [access] = await call<{ policy: string }[]>(base, 'GET', '/access?filter[role][_null]=true&filter[user][_null]=true&fields=policy', undefined, token);
  if (!access) throw new Error('Directus has no Public policy');
  const permissions = COLLECTIONS.flatMap((collection) => ['read', 'create', 'update'].map((action) => ({ policy: access.policy, collection, action, fields: ['*'] })));
  await call(base, 'POST', '/permissions', permissions, token);
}

/** One request to Directus's REST API: what its answer holds in `data`. */
async function call<T>(base: string, method: string, path: string, body?: object, token?: string): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`Directus: ${method} ${path} answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}

/**
 * Uploads `file` (a JPEG) through Directus's `/files`, as the admin, and lets its Public policy read
 * files, so that `/assets/<id>` and its transforms answer without a token. Answers the file's id.
 */
export async function uploadToDirectus(base: string, file: Buffer): Promise<string> {
  const { access_token: token } = await call<{ access_token: string }>(base, 'POST', '/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  const [access] = await call<{ policy: string }[]>(base, 'GET', '/access?filter[role][_null]=true&filter[user][_null]=true&fields=policy', undefined, token);
  if (!access) throw new Error('Directus has no Public policy');
  await call(base, 'POST', '/permissions', [{ policy: access.policy, collection: 'directus_files', action: 'read', fields: ['*'] }], token);
  const body = new FormData();
  body.append('title', 'Afiche');
  body.append('file', new Blob([file], { type: 'image/jpeg' }), 'afiche.jpg');
  const response = await fetch(`${base}/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body });
  if (!response.ok) throw new Error(`Directus: POST /files answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: { id: string } }).data.id;
}
