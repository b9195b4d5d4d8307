import { sqliteDiskFault } from './sqlite.js';

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

/**
 * Why the store cannot take a write (or answer at all): its disk is full, it is read-only, or it
 * is down, restarting, unreachable or overloaded. The same request may succeed later, so each is
 * answered 503, never 500.
 */
export type StoreFault = 'disk_full' | 'read_only' | 'unavailable';

const FAULT_CODES: Record<string, StoreFault> = {
  SQLITE_FULL: 'disk_full',
  '53100': 'disk_full', // PostgreSQL: disk full
  // An I/O error that no full or read-only disk explains (sqliteDiskFault) is a disk that fails to
  // write: the storage takes no writes. SQLite has rolled the transaction back.
  SQLITE_IOERR: 'read_only',
  SQLITE_READONLY: 'read_only',
  '25006': 'read_only', // PostgreSQL: a read-only transaction (a standby, default_transaction_read_only)
  '58030': 'read_only', // PostgreSQL: an I/O error
  ECONNREFUSED: 'unavailable', ECONNRESET: 'unavailable', ETIMEDOUT: 'unavailable', EPIPE: 'unavailable',
  EHOSTUNREACH: 'unavailable', ENOTFOUND: 'unavailable', EAI_AGAIN: 'unavailable',
  '57P01': 'unavailable', '57P02': 'unavailable', '57P03': 'unavailable', // PostgreSQL shutting down, crashed, not yet accepting
  '53300': 'unavailable', // too many connections
  '57014': 'unavailable', // statement cancelled by statement_timeout
  '40001': 'unavailable', '40P01': 'unavailable', // serialization failure, deadlock: the same request may succeed if retried
  SQLITE_BUSY: 'unavailable', SQLITE_CANTOPEN: 'unavailable', SQLITE_NOMEM: 'unavailable',
};
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/;

/** The store's fault `error` is, if it is one. */
export function storeFaultOf(error: unknown): StoreFault | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // SQLite's extended codes (SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED, SQLITE_BUSY_SNAPSHOT…) share their primary's fault.
    const primary = code.startsWith('SQLITE_') ? code.split('_', 2).join('_') : code;
    // SQLite says "disk I/O error" or "unable to open database file" whatever the cause: the disk tells.
    if (primary === 'SQLITE_IOERR' || primary === 'SQLITE_CANTOPEN') return sqliteDiskFault() ?? FAULT_CODES[primary];
    const fault = FAULT_CODES[code] ?? FAULT_CODES[primary];
    if (fault) return fault;
    if (code.startsWith('08')) return 'unavailable'; // PostgreSQL: connection exceptions
  }
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message) ? 'unavailable' : undefined;
}

/**
 * A commit SQLite reported done whose sync failed, or on a file system that had turned read-only
 * by then (its sync may have written nothing): it is not acknowledged, nor run again (it may be
 * on disk after all).
 */
export class UnconfirmedCommit extends Error {
  readonly code = 'SQLITE_READONLY_UNCONFIRMED';
  constructor() {
    super('the file system turned read-only: the commit may not be on disk');
  }
}
