import type { FastifyInstance } from 'fastify';
import { storeFaultAnswered } from '../api/errors.js';
import type { StoreFault } from '../db/errors.js';

/** Writes the store refused, by cause, since the service started (on /metrics). */
export type RefusedWrites = Record<StoreFault, number>;

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Counts the writes the store refused (a full disk, a read-only store, a database that is down),
 * and says in the log once when writes stop and once when they resume, however many requests
 * came in between.
 */
export function watchStoreFaults(app: FastifyInstance): RefusedWrites {
  const refused: RefusedWrites = { disk_full: 0, read_only: 0, unavailable: 0 };
  let stopped: StoreFault | undefined;
  app.addHook('onResponse', async (request, reply) => {
    if (!WRITES.has(request.method)) return;
    const fault = storeFaultAnswered(request);
    if (fault) {
      refused[fault]++;
      if (stopped === undefined) app.log.error({ fault }, 'writes stopped: the store refuses them');
      stopped = fault;
    } else if (stopped !== undefined && reply.statusCode < 300) {
      app.log.info({ fault: stopped, refused: refused[stopped] }, 'writes resumed');
      stopped = undefined;
    }
  });
  return refused;
}
