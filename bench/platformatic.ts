/**
 * Platformatic DB as a bench target: installed by the bench itself on first use (it is heavy and only
 * the bench needs it, so it is not among the project's dependencies), then run on a fresh SQLite file
 * with tables like cartelera's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installForBench, registryNode, type BenchInstall } from './registryNode.js';
import { pinned, startServer, type ServerProcess } from './process.js';

/** Pinned to one version, so that a run measures the same code every time. */
export const PLATFORMATIC_VERSION = '2.61.0';

/**
 * The Node.js it runs on, from the npm registry: its SQLite driver, better-sqlite3 11, does not
 * build against Node.js 26, and on Node.js 24 it aborts the process when the garbage collector frees
 * a statement (an assertion in Statement::~Statement, seen under load).
 */
export const PLATFORMATIC_NODE = '22.23.3';

/**
 * More movies than a run ever stores. Platformatic DB answers 10 records to a GET without `limit`, and
 * refuses a `limit` over 100, by default; both are raised to this so that a full list is the full list.
 */
const LIST_LIMIT = 1_000_000;

/**
 * cartelera's columns (src/db/migrations/0001_catalogue.ts), so the same bodies fit, and its index on
 * the foreign key. Without what only cartelera uses: the normalized-key columns (the titles are unique
 * as written here), the CHECKs of the contract and the version triggers.
 */
const SCHEMA = `create table categorias (
  id integer primary key,
  nombre text unique not null
);
create table peliculas (
  id integer primary key,
  titulo text not null unique,
  sipnosis text,
  duracion integer,
  categoria_id integer not null references categorias(id)
);
create index peliculas_categoria on peliculas (categoria_id);
`;

/**
 * Installed by the bench on first use, to run on `node` (PLATFORMATIC_NODE). npm runs no dependency's
 * install script unless the project allows it, so the folder allows its SQLite driver's (a build from
 * source), checked by opening a database.
 */
const INSTALL: BenchInstall = {
  folder: 'platformatic',
  spec: `@platformatic/db@${PLATFORMATIC_VERSION}`,
  allowScripts: { 'better-sqlite3': true },
  check: "new (require('better-sqlite3'))(':memory:').close()",
};

/**
 * Starts Platformatic DB (its own CLI, `plt-db start`: one process, no worker threads) on `port`, on a
 * fresh SQLite file under `workDir`; the migration is applied at start. Its logger is at `warn`, as
 * cartelera's is here. Inside a container it listens on 0.0.0.0 whatever the config says (its own rule).
 */
export async function startPlatformatic(root: string, workDir: string, port: number): Promise<ServerProcess> {
  const node = registryNode(root, PLATFORMATIC_NODE);
  const bin = join(installForBench(root, node, INSTALL), 'node_modules', '.bin', 'plt-db');
  const dir = join(workDir, 'platformatic');
  mkdirSync(join(dir, 'migrations'), { recursive: true });
  writeFileSync(join(dir, 'migrations', '001.do.sql'), SCHEMA);
  const config = {
    server: { hostname: '127.0.0.1', port, logger: { level: 'warn' } },
    db: {
      connectionString: `sqlite://${join(dir, 'db.sqlite')}`,
      limit: { default: LIST_LIMIT, max: LIST_LIMIT },
    },
    migrations: { dir: './migrations', autoApply: true },
  };
  const configFile = join(dir, 'platformatic.json');
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  return startServer('platformatic-db', pinned(0, [node, bin, 'start', '-c', configFile]), {
    cwd: dir,
    port,
    readyPath: '/categorias',
  });
}
