import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** 1 to 128 visible ASCII characters: safe to log and to echo in a header. */
const ACCEPTABLE = /^[\x21-\x7e]{1,128}$/;

/**
 * Fastify's `genReqId`: the client's X-Request-Id when it is acceptable, a fresh UUID otherwise.
 * It becomes `request.id`, the `reqId` of every log line of the request.
 */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTABLE.test(given) ? given : randomUUID();
}

/** Echoes the request's id on every answer; first of all hooks, so errors and preflights carry it too. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}
