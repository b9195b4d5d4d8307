import Fastify, { type FastifyInstance } from 'fastify';
import { adminPages } from './admin.js';
import type { Config } from './config.js';
import { conditionalGets } from './api/conditional.js';
import { crudRoutes } from './api/crudRoutes.js';
import { answersOnDisk } from './api/durable.js';
import { imageRoutes } from './api/imageRoutes.js';
import { cacheFolder, RenditionCache } from './images/cache.js';
import { transferRoutes } from './api/transferRoutes.js';
import { changeRoutes } from './api/changeRoutes.js';
import { calendarRoutes } from './api/calendarRoutes.js';
import { whatsOnRoutes } from './api/whatsOnRoutes.js';
import { seriesRoutes } from './api/seriesRoutes.js';
import { pruneRegularly } from './changes/retention.js';
import { errorHandler, methodAwareNotFound } from './api/errors.js';
import { strictJsonBodies } from './api/json.js';
import { openApi } from './api/openapi.js';
import { responseSerializer } from './api/serializers.js';
import { tableVersions } from './cache/versions.js';
import { compileValidator, type JsonSchema } from './catalogue/validation.js';
import { openDatabase, poolOf } from './db/connect.js';
import type { Db } from './db/schema.js';
import { migrateToLatest } from './db/migrate.js';
import { waitForStore } from './db/wait.js';
import { crossOrigin } from './ops/cors.js';
import { healthRoutes } from './ops/health.js';
import { expectationRefusals, lingeringClose, serverLimits } from './ops/limits.js';
import { protect } from './ops/protection.js';
import { echoRequestId, requestIdOf } from './ops/requestId.js';
import { watchStoreFaults } from './ops/storeFaults.js';
import { imagenes, resources } from './resources/index.js';
import { relationsOf } from './resources/relations.js';

/** The whole service, built the same way for `npm start` and the tests. */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.LOG_LEVEL },
    bodyLimit: 1024 * 1024,
    // A 255-character title percent-encodes to about 3 KB of path.
    routerOptions: { maxParamLength: 4096 },
    // An incoming X-Request-Id is vetted by requestIdOf, never taken as is.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Failures before routing (a malformed URL like /peliculas/%ZZ) get the error body too; no hook
    // runs for them, so the request id is echoed here.
    frameworkErrors: (error, request, reply) => errorHandler(error, request, reply.header('x-request-id', request.id)),
    // Behind these proxies, the client is the address X-Forwarded-For names (the rate limit counts by it).
    trustProxy: config.TRUST_PROXY ?? false,
    ...serverLimits(config),
  });
  if (config.MAX_CONNECTIONS > 0) app.server.maxConnections = config.MAX_CONNECTIONS;
  expectationRefusals(app);
  lingeringClose(app);
  echoRequestId(app);
  let db: Db;
  try {
    db = openDatabase(config.DATABASE_URL, {
      poolMax: config.DATABASE_POOL_MAX,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
      sqliteSynchronous: config.SQLITE_SYNCHRONOUS,
      sqliteCheckpointsBeside: true,
      onConnectionError: (error) => app.log.warn({ reason: error.message }, 'database connection lost'),
    });
    const opened = db;
    app.addHook('onClose', () => opened.destroy());
    await waitForStore(db, app.log, config.DATABASE_WAIT_MS);
    const applied = await migrateToLatest(db);
    if (applied.length > 0) app.log.info({ migrations: applied }, 'migrations applied');
  } catch (error) {
    // server.ts exits on this without a word of its own: the reason is logged here, whatever failed.
    app.log.fatal({ reason: error instanceof Error ? error.message : String(error) }, 'start-up failed');
    await app.close();
    throw error;
  }

  // Before the 404/405 mirror below sees routes: its catch-all OPTIONS route would make every path "known".
  await crossOrigin(app, config.CORS_ORIGIN);
  // After CORS, so that browsers can read its refusals; before /docs exists, which gets its own CSP.
  await protect(app, config);
  app.setValidatorCompiler(({ schema, httpPart }) => compileValidator(schema as JsonSchema, httpPart ?? 'body', config.TIMEZONE));
  app.setSerializerCompiler(responseSerializer);
  app.setErrorHandler(errorHandler);
  const notFound = methodAwareNotFound();
  app.addHook('onRoute', notFound.onRoute);
  app.setNotFoundHandler(notFound.handler);
  app.addHook('onRequest', notFound.beforeBody);
  // Bodies are JSON only: anything else is a 415.
  app.removeContentTypeParser('text/plain');
  // Decimal fields (a venue's coordinates) round what they are sent; every other number must be exact.
  strictJsonBodies(app, new Set(resources.flatMap((r) => Object.entries(r.kinds).flatMap(([name, kind]) => (kind.type === 'number' ? [name] : [])))));
  conditionalGets(app);
  answersOnDisk(app, db);

  // Before the routes, so that the description and the request metrics see every one of them.
  await openApi(app, { writeKeys: config.API_KEYS !== undefined });
  const pool = poolOf(db);
  const refusedWrites = watchStoreFaults(app);
  // Loaded only when asked for: prom-client is a few MB of resident memory.
  if (config.METRICS_ENABLED) {
    const { metricsRoutes } = await import('./ops/metrics.js');
    metricsRoutes(app, { token: config.METRICS_TOKEN, pool: pool && (() => pool), refusedWrites });
  }
  const versions = tableVersions(db, Object.fromEntries([...resources, imagenes].map((r) => [r.name, r.table])));
  for (const resource of resources) crudRoutes(app, resource, db, relationsOf(resource), versions, config.TIMEZONE);
  seriesRoutes(app, db, config.TIMEZONE);
  crudRoutes(app, imagenes, db, relationsOf(imagenes), versions, config.TIMEZONE, { writes: false });
  const folder = cacheFolder(config.IMAGE_CACHE_DIR, config.DATABASE_URL);
  const renditions = new RenditionCache(folder.path, config.IMAGE_CACHE_MB * 1024 * 1024);
  if (folder.temporary) app.addHook('onClose', () => renditions.clear());
  await imageRoutes(app, db, versions, { maxBytes: config.IMAGE_MAX_BYTES, maxPixels: config.IMAGE_MAX_PIXELS, timeZone: config.TIMEZONE }, renditions);
  changeRoutes(app, db, { maxStreams: config.CHANGES_MAX_STREAMS, stallSeconds: config.CHANGES_STALL_SECONDS });
  calendarRoutes(app, db, { name: config.CALENDAR_NAME, domain: config.CALENDAR_DOMAIN, timeZone: config.TIMEZONE, publicUrl: config.PUBLIC_URL });
  whatsOnRoutes(app, db, versions, { name: config.CALENDAR_NAME, domain: config.CALENDAR_DOMAIN, timeZone: config.TIMEZONE, publicUrl: config.PUBLIC_URL });
  const stopPruning = pruneRegularly(
    db,
    config.CHANGES_KEEP_DAYS,
    (pruned) => app.log.info({ pruned }, 'change log pruned'),
    (error) => app.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'change log pruning failed'),
  );
  app.addHook('onClose', () => stopPruning());
  await transferRoutes(app, db, config.IMPORT_MAX_BYTES, config.TIMEZONE);
  healthRoutes(app, db);
  await adminPages(app);
  return app;
}
