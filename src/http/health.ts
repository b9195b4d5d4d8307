import { sql } from 'kysely';
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/schema.js';
import { ErrorBody, HttpError } from './errors.js';
import { messages } from './messages.js';

/** `GET /health`: 200 once the store answers a query, 503 in the error body while it does not. */
export function healthRoutes(app: FastifyInstance, db: Db) {
  app.get(
    '/health',
    { schema: { response: { 200: Type.Object({ status: Type.Literal('ok') }), '5xx': ErrorBody } } },
    async (request) => {
      try {
        await sql`select 1`.execute(db);
      } catch (error) {
        request.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'health check: store unavailable');
        throw new HttpError(503, messages.storeUnavailable);
      }
      return { status: 'ok' as const };
    },
  );
}
