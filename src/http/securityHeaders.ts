import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

type Directives = Record<string, string[]>;

/** The API answers JSON only: nothing in it may load, run, frame or be framed. */
export const API_POLICY: Directives = {
  'default-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

/**
 * /docs: Swagger UI loads its scripts, styles and the description from this server, sets inline
 * styles (swagger-ui#10655) and draws its icons from data: URLs. No upgrade-insecure-requests: the
 * service speaks plain HTTP by default, and browsers that upgrade even localhost would break the page.
 */
export const DOCS_POLICY: Directives = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
};

const policy = (directives: Directives) => ({ contentSecurityPolicy: { useDefaults: false, directives } });

/**
 * Helmet's security headers on every answer, with the strict API policy everywhere but the
 * routes under /docs. Registered before /docs exists, so that its routes get their own policy.
 */
export async function securityHeaders(app: FastifyInstance): Promise<void> {
  // Before helmet's own onRoute hook, which turns a route's `helmet` option into its config.
  app.addHook('onRoute', (route) => {
    if (route.url === '/docs' || route.url.startsWith('/docs/')) route.helmet = policy(DOCS_POLICY);
  });
  await app.register(helmet, { ...policy(API_POLICY), xFrameOptions: { action: 'deny' } });
}
