import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CachedAnswer } from '../cache/answers.js';
import type { Db } from '../db/schema.js';
import { sqliteDurable } from '../db/sqlite.js';

/**
 * A read's answer shows nothing that is not on disk yet: on SQLite a commit is visible to reads
 * before its sync has finished (db/sqlite.ts, Durability), so the answer waits for that sync. A
 * write's answer has already waited for its own commit's.
 */
export function answersOnDisk(app: FastifyInstance, db: Db): void {
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (onDisk.has(request)) return done(null, payload);
    const syncing = request.method === 'GET' || request.method === 'HEAD' ? sqliteDurable(db) : undefined;
    if (!syncing) return done(null, payload);
    // A failed sync is reported to its writes (503, not confirmed); a read answers the store as it stands.
    syncing.then(() => done(null, payload), () => done(null, payload));
  });
}

/** Requests whose answer shows only commits already on disk (a kept answer: cache/answers.ts). */
const onDisk = new WeakSet<FastifyRequest>();

/** Before a kept answer is sent: when all it shows is on disk, it goes out without waiting for a sync under way. */
export function sendingKept(request: FastifyRequest, answer: Pick<CachedAnswer, 'onDisk'>): void {
  if (answer.onDisk) onDisk.add(request);
}
