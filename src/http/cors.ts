import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/**
 * Cross-origin access for browser front ends. `origin` is `*` or a comma-separated list of
 * origins. Only a real preflight (OPTIONS with Origin and Access-Control-Request-Method) is
 * answered 204; for any other OPTIONS, `origin: false` makes the plugin's catch-all OPTIONS route
 * hand it to the not-found handler, so it stays what it was: 405 with Allow, or 404.
 */
export async function crossOrigin(app: FastifyInstance, origin: string): Promise<void> {
  const origins = origin.split(',').map((o) => o.trim()).filter(Boolean);
  const options = {
    origin: origins.includes('*') ? '*' : origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: ['X-Total-Count', 'Link', 'ETag', 'Location', 'X-Request-Id'],
  };
  await app.register(cors, {
    delegator: (request, callback) => {
      const preflight = request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;
      callback(null, request.method !== 'OPTIONS' || preflight ? options : { origin: false });
    },
  });
}
