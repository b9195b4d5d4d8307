import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A CORS preflight: an OPTIONS naming the origin and the method it asks about. */
const isPreflight = (request: FastifyRequest) =>
  request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;

/**
 * Cross-origin access for browser front ends. `origin` is `*` or a comma-separated list of
 * origins. Only a real preflight is answered 204; any other OPTIONS is no CORS matter and gets what
 * any method a path lacks gets (405 with Allow, or 404), before the plugin's catch-all OPTIONS route
 * could call it an invalid preflight. The options are fixed, so the plugin works them out once
 * rather than per request.
 */
export async function crossOrigin(app: FastifyInstance, origin: string): Promise<void> {
  const origins = origin.split(',').map((o) => o.trim()).filter(Boolean);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'OPTIONS' && !isPreflight(request)) reply.callNotFound();
    else done();
  });
  await app.register(cors, {
    origin: origins.includes('*') ? '*' : origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    // What a front end may read: pages, validators, where a record went, the request id, and when
    // to try again after a refusal (rate limit, overload, outage).
    exposedHeaders: ['X-Total-Count', 'Link', 'ETag', 'Location', 'X-Request-Id', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
  });
}
