import { isIPv6, type AddressInfo } from 'node:net';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  // One sentence per setting, not a stack trace: the operator fixes the environment and starts again.
  if (!(error instanceof ConfigError)) throw error;
  for (const problem of error.problems) process.stderr.write(`cartelera: ${problem}\n`);
  process.exit(1);
}
// buildApp has logged why it could not start.
const app = await buildApp(config).catch(() => process.exit(1));

// Stop accepting, let in-flight requests finish, close the store, exit 0.
let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const forced = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    forced.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

await app.listen({ port: config.PORT, host: config.HOST });
const { port } = app.server.address() as AddressInfo;
// A server on every interface is reached, on this machine, at the loopback address.
const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : isIPv6(config.HOST) ? `[${config.HOST}]` : config.HOST;
const admin = `http://${host}:${port}/admin/`;
app.log.info({ admin }, `the admin is at ${admin}`);
