import { createHash, timingSafeEqual } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { errorBody, HttpError, type ErrorBody } from '../api/errors.js';
import { messages } from '../catalogue/messages.js';
import { securityHeaders } from './securityHeaders.js';

/** Seconds a shed client is asked to wait: the load is measured once a second, and needs time to fall. */
export const SHED_RETRY_AFTER_SECONDS = 5;

/**
 * Every protection the settings turn on (docs/operations.md, "Protection"), as onRequest hooks in this order:
 * security headers, load shedding, the rate limit, then the write key. They run after CORS, so
 * browsers can read their refusals, and before any body is read or validated.
 */
export async function protect(app: FastifyInstance, config: Config): Promise<void> {
  if (config.SECURITY_HEADERS) securityHeaders(app);
  await loadShedding(app, config);
  if (config.RATE_LIMIT_PER_MINUTE > 0) await rateLimiting(app, config.RATE_LIMIT_PER_MINUTE);
  app.decorateRequest('quien', null);
  if (config.API_KEYS !== undefined) writeKeys(app, writeKeyEntries(config.API_KEYS));
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who writes, for the change log: the name of the write key used; null when writes need no key. */
    quien: string | null;
  }
}

/** `API_KEYS`' entries: `key` or `name:key`; an entry without a name is `clave N`, N its position from 1. */
export function writeKeyEntries(setting: string): { name: string; key: string }[] {
  return setting.split(',').map((entry, i) => {
    const colon = entry.indexOf(':');
    return colon === -1 ? { name: `clave ${i + 1}`, key: entry.trim() } : { name: entry.slice(0, colon).trim(), key: entry.slice(colon + 1).trim() };
  });
}

/** Liveness must answer while the process runs, or the orchestrator restarts a process that is only busy. */
const isLivenessProbe = (request: FastifyRequest) => request.routeOptions.url === '/health/live';

/** 503 with Retry-After while the process is past a limit; under-pressure's own /status route stays off. */
async function loadShedding(app: FastifyInstance, config: Config): Promise<void> {
  const limits = {
    maxEventLoopDelay: config.UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS,
    maxHeapUsedBytes: config.UNDER_PRESSURE_MAX_HEAP_USED_BYTES,
    maxRssBytes: config.UNDER_PRESSURE_MAX_RSS_BYTES,
  };
  if (Object.values(limits).every((limit) => limit === 0)) return;
  function shed(request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined): ErrorBody | undefined {
    if (isLivenessProbe(request)) return undefined;
    request.log.warn({ pressure: type, value }, 'overloaded: request shed');
    reply.code(503).header('retry-after', String(SHED_RETRY_AFTER_SECONDS)).type('application/json; charset=utf-8');
    return errorBody(request, 503, messages.protection.overloaded);
  }
  // Its types say void; under-pressure sends any other value and then stops the request (sending here
  // and returning nothing would let the request go on while async onSend hooks still run).
  const pressureHandler = shed as (...args: Parameters<typeof shed>) => void;
  await app.register(underPressure, { ...limits, exposeStatusRoute: false, pressureHandler });
}

/** At most `perMinute` requests a minute from one client address (the plugin sets Retry-After). */
async function rateLimiting(app: FastifyInstance, perMinute: number): Promise<void> {
  await app.register(rateLimit, {
    // Not per route: the hook below also covers unknown paths, in its place among the others.
    global: false,
    max: perMinute,
    timeWindow: 60_000,
    allowList: isLivenessProbe,
    // Thrown by the plugin, so the error handler answers it in the error body.
    errorResponseBuilder: (_request, context) =>
      new HttpError(context.statusCode, messages.protection.tooManyRequests(Math.max(1, Math.ceil(context.ttl / 1000)))),
  });
  app.addHook('onRequest', app.rateLimit());
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const BEARER = /^Bearer +(\S+) *$/i;
const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Writes need `Authorization: Bearer <key>`: 401 without one, 403 with one that is not among
 * `keys`; the request then carries the key's name as `quien`.
 */
function writeKeys(app: FastifyInstance, keys: { name: string; key: string }[]): void {
  // Digests have one length, which timingSafeEqual needs, whatever the length of what is sent.
  const digests = keys.map(({ key }) => sha256(key));
  app.addHook('onRequest', async (request, reply) => {
    if (!WRITES.has(request.method)) return;
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (token === undefined) {
      reply.header('www-authenticate', 'Bearer');
      throw new HttpError(401, messages.protection.keyMissing);
    }
    const given = sha256(token);
    // Every key is compared, so the time taken does not tell which one matched.
    let known: string | undefined;
    digests.forEach((digest, i) => {
      if (timingSafeEqual(digest, given)) known ??= keys[i]?.name;
    });
    if (known === undefined) throw new HttpError(403, messages.protection.keyInvalid);
    request.quien = known;
  });
}
