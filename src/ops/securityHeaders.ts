import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { ADMIN_POLICY, isAdmin } from '../admin.js';

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

/**
 * The headers helmet sets for these options, worked out once at start-up: helmet's middleware
 * sets the same fixed values on every answer, and building it per request (as its Fastify plugin
 * does) cost about 6% of a lookup's time in the profile. Applying the headers is then a copy.
 */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers = new Map<string, string>();
  const collector = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  helmet(options)({} as IncomingMessage, collector as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return Object.fromEntries(headers);
}

const policy = (directives: Directives): HelmetOptions => ({
  contentSecurityPolicy: { useDefaults: false, directives },
  xFrameOptions: { action: 'deny' },
});

const isDocs = (url: string | undefined) => url !== undefined && (url === '/docs' || url.startsWith('/docs/'));

/** Helmet's security headers on every answer, with the strict API policy everywhere but the routes under /docs and /admin. */
export function securityHeaders(app: FastifyInstance): void {
  const api = headersOf(policy(API_POLICY));
  const docs = headersOf(policy(DOCS_POLICY));
  const admin = headersOf(policy(ADMIN_POLICY));
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.routeOptions.url;
    reply.headers(isDocs(url) ? docs : isAdmin(url) ? admin : api);
    done();
  });
}
