import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { ADMIN_POLICY, isAdmin } from '../admin.js';

type Directives = Record<string, string[]>;

/**
 * The API answers JSON only, and sends what a JSON API needs (the OWASP REST Security Cheat
 * Sheet's list) and nothing more: a policy under which nothing in an answer may load, run, frame
 * or be framed; HSTS (heeded over HTTPS only); no content sniffing; no framing for browsers older
 * than frame-ancestors. Headers that matter only to HTML pages (Referrer-Policy, the
 * Cross-Origin-*-Policy family, Origin-Agent-Cluster, X-DNS-Prefetch-Control) or only to browsers
 * long gone (X-XSS-Protection, X-Download-Options, X-Permitted-Cross-Domain-Policies) are left to
 * the pages. No Cache-Control: no-store either: the catalogue is public, and its answers carry
 * ETags precisely so that clients may keep them.
 */
export const API_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
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
 * sets the same fixed values on every answer, so building it per request (as its Fastify plugin
 * does) is work thrown away on the hottest path. Applying the headers is then a copy.
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

/** The API's few security headers on every answer; helmet's full set, each with its own policy, on the pages under /docs and /admin. */
export function securityHeaders(app: FastifyInstance): void {
  const api = API_HEADERS;
  const docs = headersOf(policy(DOCS_POLICY));
  const admin = headersOf(policy(ADMIN_POLICY));
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.routeOptions.url;
    reply.headers(isDocs(url) ? docs : isAdmin(url) ? admin : api);
    done();
  });
}
