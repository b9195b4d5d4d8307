/** Which integrity rule of the store a failed statement broke, on either backend. */
export type Violation = 'unique' | 'foreign_key' | 'check';

const SQLITE: Record<string, Violation> = {
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign_key',
  SQLITE_CONSTRAINT_CHECK: 'check',
};
// 23001 is how PostgreSQL reports ON DELETE RESTRICT.
const POSTGRES: Record<string, Violation> = { '23505': 'unique', '23503': 'foreign_key', '23001': 'foreign_key', '23514': 'check' };

export function violationOf(error: unknown): Violation | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string') return undefined;
  // SQLite reports ON DELETE RESTRICT as a trigger failure with the foreign-key message.
  if (code === 'SQLITE_CONSTRAINT_TRIGGER' && String(message).includes('FOREIGN KEY')) return 'foreign_key';
  return SQLITE[code] ?? POSTGRES[code];
}

// Connection-level failures: the store is down, restarting, unreachable or overloaded. The request
// may succeed later, so they answer 503, not 500.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  '57P01', '57P02', '57P03', // PostgreSQL shutting down, crashed, not yet accepting
  '53300', // too many connections
  '57014', // statement cancelled by statement_timeout
  '40001', '40P01', // serialization failure, deadlock: the same request may succeed if retried
  'SQLITE_BUSY', 'SQLITE_CANTOPEN',
]);
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/;

export function isStoreUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  // SQLITE_BUSY_SNAPSHOT and the other SQLITE_BUSY_* codes: another connection holds or just moved the store.
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || code.startsWith('SQLITE_BUSY'))) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}
