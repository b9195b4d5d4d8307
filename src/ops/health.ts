import { sql } from 'kysely';
import { Type } from 'typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/schema.js';
import { ErrorBody, HttpError } from '../api/errors.js';
import { messages } from '../catalogue/messages.js';

const Ok = Type.Object({ status: Type.Literal('ok') });

/**
 * `GET /health` and `GET /health/ready`: 200 once the store answers a query, 503 in the error body
 * while it does not. `GET /health/live`: 200 while the process runs; it never asks the store.
 */
export function healthRoutes(app: FastifyInstance, db: Db) {
  async function ready(request: FastifyRequest) {
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      request.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'health check: store unavailable');
      throw new HttpError(503, messages.storeUnavailable);
    }
    return { status: 'ok' as const };
  }
  const probe = (summary: string, operationId: string) => ({
    schema: { tags: ['health'], summary, operationId, response: { 200: Ok, '4xx': ErrorBody, '5xx': ErrorBody } },
  });

  app.get('/health', probe('Whether the service and its database answer', 'health'), ready);
  app.get('/health/ready', probe('Readiness: whether the database answers', 'healthReady'), ready);
  app.get('/health/live', probe('Liveness: whether the process runs', 'healthLive'), async () => ({ status: 'ok' as const }));
}
