import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storeFaultOf, UnconfirmedCommit } from '../../src/db/errors.js';

// What each failure of either store is taken for (the contract's "Faults of the machine"): the
// cause a 503 names, or none (a failure of the write itself, or a bug: 500).
describe('the store faults errors are taken for', () => {
  const cases: [string, unknown, ReturnType<typeof storeFaultOf>][] = [
    ['SQLite, disk full', { code: 'SQLITE_FULL', message: 'database or disk is full' }, 'disk_full'],
    ['SQLite, read-only file', { code: 'SQLITE_READONLY', message: 'attempt to write a readonly database' }, 'read_only'],
    ['SQLite, read-only extended code', { code: 'SQLITE_READONLY_DBMOVED' }, 'read_only'],
    ['SQLite, a commit after the file system turned read-only', new UnconfirmedCommit(), 'read_only'],
    // No store of this process is on a full or read-only disk (which would name the cause): a disk failing to write.
    ['SQLite, an I/O error', { code: 'SQLITE_IOERR_WRITE', message: 'disk I/O error' }, 'read_only'],
    ['SQLite, busy', { code: 'SQLITE_BUSY_SNAPSHOT' }, 'unavailable'],
    ['PostgreSQL, disk full', { code: '53100', message: 'could not extend file' }, 'disk_full'],
    ['PostgreSQL, read-only transaction', { code: '25006' }, 'read_only'],
    ['PostgreSQL, administrator shutdown', { code: '57P01' }, 'unavailable'],
    ['PostgreSQL, cannot connect now', { code: '57P03' }, 'unavailable'],
    ['PostgreSQL, connection failure', { code: '08006' }, 'unavailable'],
    ['a refused connection', { code: 'ECONNREFUSED' }, 'unavailable'],
    ['a connection cut', new Error('Connection terminated unexpectedly'), 'unavailable'],
    ['SQLite, a unique violation', { code: 'SQLITE_CONSTRAINT_UNIQUE' }, undefined],
    ['PostgreSQL, a unique violation', { code: '23505' }, undefined],
    ['a bug', new TypeError('x is undefined'), undefined],
  ];
  for (const [what, error, fault] of cases) {
    it(`when the error is ${what}, then it is taken for ${fault ?? 'no fault of the store'}`, () => {
      assert.equal(storeFaultOf(error), fault);
    });
  }
});
