import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ErrorBody, HttpError } from '../api/errors.js';
import { messages } from '../catalogue/messages.js';
import { groupCommits } from '../db/transaction.js';
import type { RefusedWrites } from './storeFaults.js';

/** What a PostgreSQL pool (pg.Pool) tells about its connections. */
export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

export interface MetricsOptions {
  /** When set, `/metrics` answers only to `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** PostgreSQL only: the pool to report as db_pool_* gauges. */
  pool?: (() => PoolStats) | undefined;
  /** The writes the store refused, by cause (ops/storeFaults.ts). */
  refusedWrites?: RefusedWrites | undefined;
}

/**
 * `GET /metrics` in Prometheus text format, from a registry of this app's own: requests by
 * method, route pattern and status, their durations, the process's default metrics and, on
 * PostgreSQL, the connection pool. Scrapes of /metrics are not counted.
 */
export function metricsRoutes(app: FastifyInstance, options: MetricsOptions = {}): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered', labelNames, registers: [registry] });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, in seconds',
    labelNames,
    registers: [registry],
  });
  if (options.pool) poolGauges(registry, options.pool);
  groupCommitCounters(registry);
  if (options.refusedWrites) refusedWritesCounter(registry, options.refusedWrites);

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'not_found';
    if (route === '/metrics') return;
    const labels = { method: request.method, route, status_code: String(reply.statusCode) };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
  });

  const expected = options.token === undefined ? undefined : Buffer.from(`Bearer ${options.token}`);
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['operations'],
        summary: 'Metrics in Prometheus text format',
        operationId: 'metrics',
        response: {
          200: { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } },
          '4xx': ErrorBody,
          '5xx': ErrorBody,
        },
      },
      onRequest: async (request, reply) => {
        if (expected === undefined || authorized(request, expected)) return;
        reply.header('www-authenticate', 'Bearer');
        throw new HttpError(401, messages.protection.metricsTokenRequired);
      },
    },
    async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()),
  );
}

function authorized(request: FastifyRequest, expected: Buffer): boolean {
  const given = Buffer.from(request.headers.authorization ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Transactions the writes shared (db/transaction.ts): writes over groups is the mean group size. */
function groupCommitCounters(registry: Registry): void {
  const counters: [string, string, keyof typeof groupCommits][] = [
    ['db_write_groups_total', 'Transactions committed for the writes, each holding a group of them', 'groups'],
    ['db_grouped_writes_total', 'Writes committed, in groups', 'writes'],
  ];
  for (const [name, help, field] of counters) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(groupCommits[field]);
      },
    });
  }
}

/** Writes answered 503 because the store could not take them, by cause: disk_full, read_only, unavailable. */
function refusedWritesCounter(registry: Registry, refused: RefusedWrites): void {
  new Counter({
    name: 'db_refused_writes_total',
    help: 'Writes refused because the store could not take them (503), by cause',
    labelNames: ['cause'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [cause, count] of Object.entries(refused)) this.inc({ cause }, count);
    },
  });
}

function poolGauges(registry: Registry, pool: () => PoolStats): void {
  const gauges: [string, string, keyof PoolStats][] = [
    ['db_pool_total', 'Connections the database pool holds', 'totalCount'],
    ['db_pool_idle', 'Connections idle in the database pool', 'idleCount'],
    ['db_pool_waiting', 'Queries waiting for a connection from the pool', 'waitingCount'],
  ];
  for (const [name, help, field] of gauges) {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(pool()[field]);
      },
    });
  }
}
