import { spawnSync } from 'node:child_process';
import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../src/db/connect.js';
import { insertLogged } from '../src/db/prepared.js';
import { pinned } from './process.js';

/**
 * PostgreSQL's own pace and the disk's: what cartelera's writes are compared with in the same run.
 * pgbench is PostgreSQL's own client (Debian: `apt-get install -y postgresql-client`); its `-N`
 * transaction is one UPDATE, one SELECT and one INSERT, committed.
 */

const HOW_TO_GET = 'pgbench is not installed: it comes with PostgreSQL\'s client (`sudo apt-get install -y postgresql-client`); install it and run again, or leave cartelera-postgres out of BENCH_TARGETS';

/** Refuses, saying how to get it, when pgbench is missing; answers its version otherwise. */
export function ensurePgbench(): string {
  const run = spawnSync('pgbench', ['--version'], { encoding: 'utf8' });
  if (run.error !== undefined || run.status !== 0) throw new Error(HOW_TO_GET);
  return run.stdout.trim();
}

/**
 * `pgbench -N` on the database `url` names (empty: pgbench makes its tables there first, scale 1),
 * with `clients` connections for `durationS` seconds, pinned where wrk runs: its transactions per
 * second.
 */
export function pgbenchTps(url: string, clients: number, durationS: number): number {
  const pgbench = (options: string[]) => {
    const [command = 'pgbench', ...args] = pinned(1, ['pgbench', ...options, url]);
    const run = spawnSync(command, args, { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`pgbench ${options.join(' ')} failed (exit ${run.status}): ${run.stderr.trim()}`);
    return run.stdout;
  };
  pgbench(['-i', '-q', '-s', '1']);
  const out = pgbench(['-N', '-n', '-c', String(clients), '-j', String(clients), '-T', String(durationS)]);
  const tps = Number(out.match(/^tps = ([\d.]+)/m)?.[1]);
  if (!Number.isFinite(tps)) throw new Error(`pgbench printed no tps:\n${out}`);
  return tps;
}

/** How many 4 kB appends, each followed by fdatasync, a file in `dir` takes in `seconds`: the disk's sync rate. */
export function fdatasyncRate(dir: string, seconds = 1): number {
  const file = join(dir, 'fdatasync-probe');
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(4096, 1);
  let syncs = 0;
  const started = performance.now();
  try {
    while (performance.now() - started < seconds * 1000) {
      writeSync(fd, block);
      fdatasyncSync(fd);
      syncs++;
    }
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  return syncs / ((performance.now() - started) / 1000);
}

/**
 * The statement cartelera sends for a create (`POST /peliculas`: the movie and its change in one
 * statement, committed by itself: src/db/prepared.ts, insertLogged, which this calls, through the
 * function that keeps it), driven by a bare script on `clients` connections of their own for
 * `durationS` seconds, on cartelera's database `url` after its scenarios (bench/run.ts runs it on
 * the service's CPU): its transactions per second. What PostgreSQL gives cartelera's writes
 * without the service between them and the client.
 */
export async function bareCreateTps(url: string, clients: number, durationS: number): Promise<number> {
  const db = openDatabase(url, { poolMax: clients, statementTimeoutMs: 5000 });
  try {
    const categoria = (await db.selectFrom('categorias').select((eb) => eb.fn.min('id').as('id')).executeTakeFirst())?.id;
    if (categoria === undefined || categoria === null) throw new Error('the bench database holds no category');
    const end = performance.now() + durationS * 1000;
    let done = 0;
    const client = async (n: number) => {
      for (let i = 0; performance.now() < end; i++) {
        const titulo = `Bare ${process.pid} ${n} ${i}`;
        const row = { titulo, sipnosis: 'Sinopsis.', duracion: 90, categoria_id: categoria, titulo_clave: titulo.toLowerCase(), sipnosis_clave: 'sinopsis.' };
        const change = {
          recurso: 'peliculas', operacion: 'alta' as const, antes: null, campos: '["id","titulo","sipnosis","duracion","categoria_id"]',
          quien: null, quien_clave: null, cuando: new Date().toISOString(), causa: null, deshace: null,
        };
        await insertLogged(db, 'peliculas', row, 'id', change, ['{"id":', `,"titulo":${JSON.stringify(titulo)},"sipnosis":"Sinopsis.","duracion":90,"categoria_id":${categoria}}`]);
        done++;
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: clients }, (_, n) => client(n)));
    return done / ((performance.now() - started) / 1000);
  } finally {
    await db.destroy();
  }
}
