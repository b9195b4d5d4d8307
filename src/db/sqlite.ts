import { accessSync, closeSync, constants, fdatasync, fdatasyncSync, mkdirSync, openSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, SqliteDialect, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import { CHECKPOINT_MARKS, checkpointsBeside, type CheckpointMarks, type Checkpoints } from './checkpoints.js';
import type { Database, Db } from './schema.js';

/**
 * Everything that needs better-sqlite3's own handle, which stays in this module: opening a store,
 * the signals that tell whether it changed, the write lock migrations take, the file's own
 * checks, and the online backup. Everything else reaches SQLite through Kysely.
 */
const handles = new WeakMap<Db, SQLite.Database>();

/**
 * Statements that may have changed a store, run through any SQLite connection of this process
 * so far: counted as they are handed to Kysely (see reusingStatements).
 */
let writesInProcess = 0;

/** The folders of the file stores this process opened: where a disk fault of SQLite's is looked for. */
const folders = new Set<string>();

export interface SqliteOptions {
  synchronous: 'full' | 'normal';
  /**
   * Checkpoints in a worker thread on a connection of their own (checkpoints.ts), not in this
   * connection's commits: the service's (true: at CHECKPOINT_MARKS; or at the marks given).
   */
  checkpointsBeside: boolean | CheckpointMarks;
  /** The most of the store's pages the connection keeps in memory, in KiB; better-sqlite3 builds SQLite with 16,000. */
  pageCacheKb?: number;
  /**
   * SQLite's temporary files kept in memory (`temp_store = memory`): for a command, the pages a
   * savepoint or a statement of its long transaction may have to undo, written to a temporary file
   * past their first 64 KiB otherwise; a savepoint's worth at a time, let go at its release.
   */
  undoInMemory?: boolean;
}

export function openSqlite(path: string, { synchronous, checkpointsBeside: beside, pageCacheKb, undoInMemory = false }: SqliteOptions): Db {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true });
    folders.add(dirname(path));
  }
  const sqlite = new SQLite(path);
  // First: the pragmas below wait for a lock too. Another process starting on the same new file
  // may hold it while it migrates, and without a timeout, switching to WAL fails at once.
  sqlite.pragma('busy_timeout = 5000');
  // WAL, with SQLite syncing at checkpoints only (NORMAL). With SQLITE_SYNCHRONOUS=full (the
  // default) this process syncs each commit itself, off the event loop, before anything it
  // committed is answered (Durability, below): an acknowledged write survives a power cut or OS
  // crash too, and the writes group commit gathers share that sync. With `normal` a crash of this
  // process loses nothing, a power cut the last commits.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  if (pageCacheKb !== undefined) sqlite.pragma(`cache_size = -${Math.round(pageCacheKb)}`);
  if (undoInMemory) sqlite.pragma('temp_store = memory');
  const durability = synchronous === 'full' && !sqlite.memory ? new Durability(sqlite) : undefined;
  const checkpoints = beside && !sqlite.memory ? checkpointsBeside(sqlite, beside === true ? CHECKPOINT_MARKS : beside) : undefined;
  const writer = reusingStatements(sqlite, true, durability);
  const reader = sqlite.memory ? undefined : () => reusingStatements(readOnlyConnection(sqlite), false);
  const db = new Kysely<Database>({ dialect: new SharingDialect(writer, reader, checkpoints) });
  handles.set(db, sqlite);
  if (durability) durabilities.set(db, durability);
  if (checkpoints) checkpointsOf.set(db, checkpoints);
  return db;
}

/** The service's file stores' checkpoint workers. */
const checkpointsOf = new WeakMap<Db, Checkpoints>();

/**
 * Undefined, or settles when a write may begin: when the WAL is long and all of it but the last
 * pages copied into the database file, a write waits a moment for the checkpoint worker to copy
 * those, so that it starts the WAL over (checkpoints.ts, restartWrites).
 */
export function sqliteRestartWrites(db: Db): Promise<void> | undefined {
  return checkpointsOf.get(db)?.restartWrites();
}

/**
 * A second connection to a file store, read only, for a long read (an export, the calendar, a
 * check) to hold its snapshot on, while the store's one connection serves everyone else; undefined
 * for an in-memory store or on PostgreSQL. The caller destroys it.
 */
export function sqliteReader(db: Db): Db | undefined {
  const sqlite = handles.get(db);
  if (!sqlite || sqlite.memory) return undefined;
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: readOnlyConnection(sqlite) }) });
}

function readOnlyConnection(sqlite: SQLite.Database): SQLite.Database {
  const reader = new SQLite(sqlite.name, { readonly: true, fileMustExist: true });
  reader.pragma('busy_timeout = 5000');
  return reader;
}

/**
 * Kysely prepares every statement anew; preparing is a good part of a short query's cost on
 * SQLite. Statements are kept by their SQL text and reused (bounded: list filters vary).
 * Kysely prepares a statement right before it runs it, so this is also where every write made
 * through the store's connection is seen, whoever makes it: each one is counted in
 * writesInProcess, and each commit in `durability`, when this process syncs them.
 */
function reusingStatements(sqlite: SQLite.Database, counting: boolean, durability?: Durability): SQLite.Database {
  const prepared = new Map<string, SQLite.Statement>();
  return Object.assign(Object.create(sqlite) as SQLite.Database, {
    prepare(source: string) {
      let statement = prepared.get(source);
      if (!statement) {
        if (prepared.size >= 500) prepared.clear();
        statement = sqlite.prepare(unpeekedLimits(source));
        prepared.set(source, statement);
      }
      // A commit or rollback counts too: reads go on beside an open transaction (SharingDialect), so
      // its end is what makes its writes visible to them.
      if (counting && (!statement.readonly || ENDS.test(source))) {
        writesInProcess++;
        // A commit, or a write outside a transaction (which commits by itself).
        if (durability && (COMMITS.test(source) || (!statement.readonly && !sqlite.inTransaction))) durability.committed();
      }
      return statement;
    },
    close: () => {
      durability?.close();
      sqlite.close();
    },
  });
}

/**
 * `sql` with its `limit ?` and `offset ?` written `limit +?` and `offset +?`: the same values, which
 * SQLite does not read while it plans. It reads a value bound to a bare `limit ?` or `offset ?`, and
 * then plans the statement anew whenever that parameter is bound again, which better-sqlite3 does
 * at every run: every run of such a statement was prepared again (11 µs a run in a loop, about 100
 * µs in the server, on the versions' read after each commit: bench/analysis.md).
 */
export const unpeekedLimits = (sql: string): string =>
  // Quoted text and names are passed over whole: a `limit ?` inside them is not a clause.
  sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\b(limit|offset)\s+\?/gi, (found, clause?: string) => (clause ? `${clause} +?` : found));

const ENDS = /^\s*(commit|end|rollback)\b/i;
const COMMITS = /^\s*(commit|end)\b/i;
/** Statements a reader cannot run: those that open, end or mark a transaction (SQLite calls them read only), and pragmas. */
const WRITER_ONLY = /^\s*(begin|commit|end|rollback|savepoint|release|pragma)\b/i;

/**
 * Kysely's SQLite dialect, with the store's one connection shared as Kysely's own driver shares it
 * (one holder at a time), but with reads going on beside a holder: while the connection is held
 * (an import's transaction, a group commit), a file store's reads run on a read-only second
 * connection, which sees what was committed before; the first statement that is not a read waits
 * for the store's connection and runs there, with everything after it.
 */
class SharingDialect extends SqliteDialect {
  constructor(
    private readonly writer: SQLite.Database,
    private readonly reader: (() => SQLite.Database) | undefined,
    private readonly checkpoints: Checkpoints | undefined,
  ) {
    super({ database: writer });
  }

  override createDriver(): Driver {
    return new SharingDriver(this.writer, this.reader, this.checkpoints);
  }
}

class SharingDriver implements Driver {
  private held: Promise<void> | undefined;
  private release: (() => void) | undefined;
  private readerHandle: SQLite.Database | undefined;
  private readonly own: Connection;

  constructor(
    private readonly writer: SQLite.Database,
    private readonly openReader: (() => SQLite.Database) | undefined,
    private readonly checkpoints: Checkpoints | undefined,
  ) {
    this.own = new Connection(writer);
  }

  async init(): Promise<void> {}

  /** Takes the store's connection, waiting for its holder to let go. */
  async lock(): Promise<void> {
    while (this.held) await this.held;
    this.held = new Promise((resolve) => (this.release = resolve));
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.held && this.openReader) {
      this.readerHandle ??= this.openReader();
      return new ReadingBeside(this.readerHandle, this);
    }
    await this.lock();
    return this.own;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection === this.own || (connection instanceof ReadingBeside && connection.holds)) {
      const release = this.release;
      this.held = this.release = undefined;
      release?.();
    }
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    void settings;
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    await this.checkpoints?.stop();
    this.readerHandle?.close();
    this.writer.close();
  }

  /** The store's connection, for a ReadingBeside that met a statement only it can run. */
  get writerConnection(): Connection {
    return this.own;
  }
}

/** Runs statements on one better-sqlite3 handle, as Kysely's own SQLite connection does. */
class Connection implements DatabaseConnection {
  constructor(readonly handle: SQLite.Database) {}

  executeQuery<R>({ sql, parameters }: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.handle.prepare(sql);
    if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as R[] });
    const { changes, lastInsertRowid } = statement.run(parameters);
    return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
  }

  async *streamQuery<R>({ sql, parameters }: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    for (const row of this.handle.prepare(sql).iterate(parameters)) yield { rows: [row as R] };
  }
}

/** A connection given while the store's is held: reads on the reader, until a statement needs the store's own. */
class ReadingBeside implements DatabaseConnection {
  holds = false;
  private readonly reading: Connection;

  constructor(
    reader: SQLite.Database,
    private readonly driver: SharingDriver,
  ) {
    this.reading = new Connection(reader);
  }

  private async on(sql: string): Promise<Connection> {
    if (this.holds) return this.driver.writerConnection;
    if (!WRITER_ONLY.test(sql) && readOnly(this.reading.handle, sql)) return this.reading;
    await this.driver.lock();
    this.holds = true;
    return this.driver.writerConnection;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return (await this.on(query.sql)).executeQuery<R>(query);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield* (await this.on(query.sql)).streamQuery<R>(query);
  }
}

/** Whether `sql` only reads; false too when the reader cannot prepare it (a table the holder is creating). */
function readOnly(reader: SQLite.Database, sql: string): boolean {
  try {
    return reader.prepare(sql).readonly;
  } catch {
    return false;
  }
}

/** What a sync covers: this process's commits so far, and the store's data_version (the other processes' commits). */
interface Mark {
  commits: number;
  dataVersion: number;
}

const covers = (synced: Mark, now: Mark) => synced.commits >= now.commits && synced.dataVersion === now.dataVersion;

/** A sync in progress, what it covers, and its end. */
interface Sync {
  covers: Mark;
  done: Promise<void>;
}

/** The file stores whose commits this process syncs itself (SQLITE_SYNCHRONOUS=full). */
const durabilities = new WeakMap<Db, Durability>();

/**
 * A commit's sync, off the event loop. SQLite commits with synchronous=NORMAL, which appends the
 * commit to the WAL file without waiting for the disk; this process then syncs the WAL file
 * (`fdatasync`, on libuv's thread pool) before anything is answered that the commit may show. A
 * commit's writes wait for it (db/transaction.ts), and so do reads (`durable`, before an answer
 * or the live feed goes out): a commit is visible to reads before it is on disk, but no answer
 * shows it until it is. A sync of the file covers whatever was written to it before, by any
 * connection of any process: so also another process's commit that a read here saw (data_version
 * moved) before that process's own sync. Syncs run one at a time; a sync covers every commit
 * made before it started, so the commits made meanwhile share the next one.
 */
class Durability {
  /** Commits made through this process's connection. */
  private commits = 0;
  /** What the newest finished sync covered: this process's commits, and data_version (the others'). */
  private covered: Mark = { commits: 0, dataVersion: -1 };
  private readonly dataVersion: () => number;
  private readonly wal: string;
  private fd: number | undefined;
  /** Syncs started, and the newest finished one (with its failure, if it failed). */
  private started = 0;
  private finished: { sync: number; error?: unknown } = { sync: 0 };
  private running: Sync | undefined;

  constructor(sqlite: SQLite.Database) {
    const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
    this.dataVersion = () => dataVersion.get() as number;
    this.wal = `${sqlite.name}-wal`;
  }

  committed(): void {
    this.commits++;
  }

  /** Undefined when everything a read can see is on disk; else settles once it is (rejects if the sync failed). */
  durable(): Promise<void> | undefined {
    const now = { commits: this.commits, dataVersion: this.dataVersion() };
    if (covers(this.covered, now)) return undefined;
    if (this.running && covers(this.running.covers, now)) return this.running.done;
    return this.syncAfter(this.started);
  }

  /** Before the connection closes: commits nobody waited for (a command's) are synced too, as far as the disk lets. */
  close(): void {
    if (this.covered.commits < this.commits) {
      try {
        fdatasyncSync(this.walFd());
      } catch {
        // The writes that were answered waited for their own sync; these were never confirmed.
      }
    }
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Settles once a sync started after the first `after` has finished. */
  private async syncAfter(after: number): Promise<void> {
    for (;;) {
      if (this.finished.sync > after) {
        if (this.finished.error !== undefined) throw this.finished.error;
        return;
      }
      this.running ??= this.sync();
      await this.running.done.catch(() => {});
    }
  }

  private sync(): Sync {
    const sync = ++this.started;
    const covering = { commits: this.commits, dataVersion: this.dataVersion() };
    const done = new Promise<void>((resolve, reject) =>
      fdatasync(this.walFd(), (error) => {
        this.running = undefined;
        this.finished = error ? { sync, error } : { sync };
        if (error) return reject(error);
        this.covered = covering;
        resolve();
      }),
    );
    return { covers: covering, done };
  }

  /** The WAL file, opened once: SQLite keeps it (the same file) while this process's connection is open. */
  private walFd(): number {
    return (this.fd ??= openSync(this.wal, 'r'));
  }
}

/**
 * Undefined when every commit a read of `db` may see is on disk (always, on PostgreSQL, an
 * in-memory store, or with SQLITE_SYNCHRONOUS=normal); else settles once it is, rejecting when
 * the sync failed (the disk or its file system failed: the commits are not confirmed).
 */
export function sqliteDurable(db: Db): Promise<void> | undefined {
  return durabilities.get(db)?.durable();
}

/** What tells whether a SQLite store may have changed since it was last read (cache/versions.ts). */
export interface ChangeSignals {
  /** Moves when another connection, of any process, commits to the store. */
  dataVersion(): number;
  /** Moves on every write through any connection of this process: it shows at once, where dataVersion needs a new look. */
  writesInProcess(): number;
}

/** The store's change signals; undefined on PostgreSQL. */
export function changeSignals(db: Db): ChangeSignals | undefined {
  const sqlite = handles.get(db);
  if (!sqlite) return undefined;
  // Prepared once: pragma() would prepare the statement on every call.
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  return { dataVersion: () => dataVersion.get() as number, writesInProcess: () => writesInProcess };
}

/**
 * Runs `work` holding the store's write lock, in one transaction, on SQLite: Kysely's migrator
 * takes no lock there, so two processes starting on one new file would both create the tables,
 * and a crash could leave a migration half done. Elsewhere `work` runs as it is.
 */
export async function holdingSqliteWriteLock<T>(db: Db, work: () => Promise<T>): Promise<T> {
  const sqlite = handles.get(db);
  if (!sqlite) return work();
  // The other process waits for it, up to the busy timeout, then finds nothing left to do.
  sqlite.exec('BEGIN IMMEDIATE');
  try {
    const result = await work();
    sqlite.exec('COMMIT');
    return result;
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    throw error;
  }
}

/** What the SQLite file's own checks find wrong (integrity_check and foreign_key_check); undefined on PostgreSQL. */
export function sqliteFileChecks(db: Db): { integrity: string[]; orphans: { table: string; rowid: number; parent: string }[] } | undefined {
  const sqlite = handles.get(db);
  if (!sqlite) return undefined;
  const integrity = (sqlite.pragma('integrity_check', { simple: false }) as { integrity_check: string }[]).map((r) => r.integrity_check).filter((r) => r !== 'ok');
  const orphans = sqlite.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
  return { integrity, orphans };
}

/**
 * SQLite's online backup of the store into `file`. After a first small step,
 * everything left is copied in one: a step that copies the rest cannot be restarted by a write in
 * between, however busy the store.
 */
export async function sqliteBackup(db: Db, file: string, progress: (done: number, total: number) => void): Promise<void> {
  const sqlite = handles.get(db);
  if (!sqlite) throw new Error('not a SQLite store');
  await sqlite.backup(file, {
    progress: ({ totalPages, remainingPages }) => {
      progress(totalPages - remainingPages, totalPages);
      return Math.max(remainingPages, 1);
    },
  });
}

/**
 * What the file systems of the stores say when SQLite reports an I/O error or cannot open a file,
 * which it does without the system's reason: a disk with no byte left, or one that refuses writes
 * (EROFS, as a file system that turned itself read-only does); undefined when neither.
 */
export function sqliteDiskFault(): 'disk_full' | 'read_only' | undefined {
  for (const folder of folders) {
    try {
      if (statfsSync(folder).bavail === 0) return 'disk_full';
      accessSync(folder, constants.W_OK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EROFS') return 'read_only';
    }
  }
  return undefined;
}

/**
 * Whether the file system of a file store still takes writes (no EROFS): true for an in-memory
 * store or on PostgreSQL. Linux's ext4, once it turned itself read-only after an error, answers a
 * sync 0 without writing anything, so a commit synced then is not on disk although SQLite says it is.
 */
export function sqliteStillWritable(db: Db): boolean {
  const sqlite = handles.get(db);
  if (!sqlite || sqlite.memory) return true;
  try {
    accessSync(dirname(sqlite.name), constants.W_OK);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EROFS';
  }
}
