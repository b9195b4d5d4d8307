import { sql } from 'kysely';
import type { Db } from './schema.js';

/** Resolves once the store answers a query; gives up (throws) after `waitMs`, logging each try. */
/** Where the tries are told: pino's (Fastify's) logger, or anything with its two methods. */
interface Log {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export async function waitForStore(db: Db, log: Log, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await sql`select 1`.execute(db);
      if (attempt > 1) log.info({ attempt }, 'database reachable');
      return;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (Date.now() >= deadline) {
        throw new Error(`database not reachable after ${waitMs} ms: ${reason}`, { cause: error });
      }
      log.warn({ attempt, reason }, 'waiting for the database');
      await new Promise((resolve) => setTimeout(resolve, Math.min(250 * attempt, 2000)));
    }
  }
}
