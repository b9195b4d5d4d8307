import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { openDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { errorHandler, methodAwareNotFound } from './http/errors.js';
import { healthRoutes } from './http/health.js';
import { validatorCompiler } from './http/validation.js';
import { resources } from './resources/index.js';

export type AppOptions = Pick<Config, 'DATABASE_URL' | 'LOG_LEVEL'>;

/** The whole service, built the same way for `npm start`, the seed script and the tests. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const db = openDatabase(options.DATABASE_URL);
  const app = Fastify({
    logger: { level: options.LOG_LEVEL },
    bodyLimit: 1024 * 1024,
    // A 255-character title percent-encodes to about 3 KB of path.
    routerOptions: { maxParamLength: 4096 },
  });
  app.addHook('onClose', () => db.destroy());
  try {
    const applied = await migrateToLatest(db);
    if (applied.length > 0) app.log.info({ migrations: applied }, 'migrations applied');
  } catch (error) {
    await db.destroy();
    throw error;
  }

  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandler);
  const notFound = methodAwareNotFound();
  app.addHook('onRoute', notFound.onRoute);
  app.setNotFoundHandler(notFound.handler);
  // Bodies are JSON only: anything else is a 415.
  app.removeContentTypeParser('text/plain');

  for (const resource of resources) resource.register(app, db);
  healthRoutes(app, db);
  return app;
}
