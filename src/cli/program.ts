import { existsSync, mkdirSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { userInfo } from 'node:os';
import { basename, dirname, extname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { Command, CommanderError, Option } from 'commander';
import { messages } from '../catalogue/messages.js';
import { wallClockAt } from '../catalogue/zone.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { countRows } from '../db/bulk.js';
import { openDatabase, STORE_DEFAULTS } from '../db/connect.js';
import { storeFaultOf, type StoreFault } from '../db/errors.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Db } from '../db/schema.js';
import type { AnyResource } from '../resources/define.js';
import { artistas, categorias, eventosUrbanos, funciones, lugares, obras, participaciones, peliculas, transferred } from '../resources/index.js';
import type { ExportFormat } from '../transfer/export.js';
import { importCatalogue, problemCount, problemText, type ImportResult, type OnConflict } from '../transfer/import.js';
import { placeText, readImport, UnreadableInput, type Encoding, type Incoming } from '../transfer/read/index.js';
import type { Selection } from '../transfer/write/sheets.js';
import { withProgress } from './progress.js';

/**
 * What only some commands use (the exports' writers, copy, check, backup, the demo catalogue) is
 * loaded by the command that uses it: every module loaded costs each command's memory, an import's
 * peak included (bench/analysis.md, the import).
 */
const backup = () => import('../transfer/backup.js');
const check = () => import('../transfer/check.js');
const copy = () => import('../transfer/copy.js');
const exporting = () => import('../transfer/export.js');
const sheets = () => import('../transfer/write/sheets.js');
const wholeFile = () => import('../transfer/wholeFile.js');

/**
 * `cartelera`: the service and the catalogue's data from the command line. The store is the one
 * DATABASE_URL names, as for the service. Exit codes: 0 done, 1 the data, the store or a setting
 * had problems (nothing stored), 2 wrong usage. Messages go to stderr, in English; the catalogue's own sentences (a
 * record's problems) are the API's Spanish ones.
 */
class Failure extends Error {
  constructor(message: string, readonly exitCode: 1 | 2) {
    super(message);
  }
}

const program = new Command('cartelera')
  .description('The cartelera catalogue service, and its data: export, import, backup, copy, check, migrate.')
  .showHelpAfterError("(run 'cartelera --help' for usage)")
  .exitOverride();

/**
 * A path the user typed, from the folder they ran the command in: under `npm run cartelera`, npm
 * runs it in the project's folder and names the user's in INIT_CWD.
 */
function userPath(path: string): string {
  const from = process.env.npm_lifecycle_event !== undefined && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd();
  return resolve(from, path);
}

/** A file about to be written: its folder is made when missing, and a failure names the path. */
function newFileAt(path: string): string {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw new Failure(`${path}: cannot make its folder (${error instanceof Error ? error.message : String(error)})`, 1);
  }
  return path;
}

program
  .command('serve')
  .description('start the service (as npm start does): PORT, HOST, DATABASE_URL… as in docs/configuration.md')
  .action(async () => {
    await import('../service.js');
  });

program
  .command('seed')
  .description('load the demo catalogue; records already there are left as they are')
  .addOption(quienOption())
  .action((options: { quien: string }) => withStore({ create: true }, async (db, config) => {
    await migrateToLatest(db);
    report('seed', await importCatalogue(db, demoRecords(await import('./demo.js'), config.TIMEZONE), { onConflict: 'skip', dryRun: false, quien: options.quien, timeZone: config.TIMEZONE }));
  }));

program
  .command('export')
  .description('write the whole catalogue, or one resource: a JSON document (default), NDJSON, a workbook (.xlsx or .ods), staff CSV files')
  .option('--out <file>', 'where to write (for csv, a .csv file, or a folder of them); standard output when absent')
  .addOption(new Option('--format <format>', 'json, ndjson, xlsx, ods or csv (default: from --out\'s extension, else json)').choices(['json', 'ndjson', 'xlsx', 'ods', 'csv']))
  .option('--recurso <name>', `one resource alone: ${transferred.map((r) => r.name).join(', ')}`)
  .action((options: { out?: string; format?: Format; recurso?: string }) => {
    const path = options.out === undefined ? undefined : userPath(options.out);
    const format = exportFormat(options.out, options.format);
    const resource = options.recurso === undefined ? undefined : resourceArgument(options.recurso);
    // One CSV file holds one resource: --recurso names it, or the file's name does (peliculas.csv).
    const oneCsv = format === 'csv' && (path === undefined || extname(path).toLowerCase() === '.csv');
    const csvResource = oneCsv ? (resource ?? (path ? transferred.find((r) => r.name.toLowerCase() === basename(path, extname(path)).toLowerCase()) : undefined)) : undefined;
    if (oneCsv && !csvResource) throw new Failure(`export: a CSV file holds one resource: name it with --recurso (${transferred.map((r) => r.name).join(', ')}), or write a folder of them with --format csv --out <folder>`, 2);
    return withStore({}, async (db) => {
      await requireMigrated(db);
      const [{ exportCatalogue, exportCsv }, { writeWholeFile }] = await Promise.all([exporting(), wholeFile()]);
      const only = resource ?? csvResource;
      const total = only ? await countRows(db, only.table) : await recordCount(db);
      await withProgress('export', total, 'records', async (advance) => {
        if (format === 'csv' && !oneCsv && path) return exportCsv(db, { folder: path, resource }, advance);
        if (format === 'xlsx' || format === 'ods') return writeSpreadsheet(db, format, { resource }, path, advance);
        // A file is written whole or not at all: never a truncated one under the name asked for.
        const to = (fill: (out: Writable) => Promise<unknown>) => (path ? writeWholeFile(newFileAt(path), async (out) => void (await fill(out))) : fill(process.stdout));
        if (csvResource) await to((out) => exportCsv(db, { out, resource: csvResource }, advance));
        else if (format !== 'csv') await to((out) => exportCatalogue(db, format, out, advance, resource ? [resource] : transferred));
      });
    });
  });

program
  .command('import')
  .description('store the records of export files (JSON, NDJSON), workbooks (.xlsx, .ods) or CSV files named after their resource, all or nothing')
  .argument('<files...>', 'files, or folders of spreadsheets (CSV files, workbooks)')
  .option('--dry-run', 'check every record and report, storing nothing', false)
  .addOption(new Option('--on-conflict <what>', 'a title, name or dni already stored: error, skip or update').choices(['error', 'skip', 'update']).default('error'))
  .option('--create', 'make the SQLite store when its file does not exist', false)
  .addOption(new Option('--encoding <encoding>', 'how CSV files are written (default: UTF-8, else Windows-1252)').choices(['utf-8', 'windows-1252']))
  .addOption(quienOption())
  .action((names: string[], options: { dryRun: boolean; onConflict: OnConflict; create: boolean; encoding?: Encoding; quien: string }) => withStore(options, async (db, config) => {
    const files = names.map(userPath);
    await migrateToLatest(db);
    const bytes = files.reduce((sum, f) => sum + sizeOf(f), 0);
    const result = await withProgress('import', bytes, 'bytes', (advance) => {
      let read = 0;
      return importCatalogue(db, readImport(files, (n) => advance((read += n)), { encoding: options.encoding }), {
        ...options, timeZone: config.TIMEZONE, files: { maxBytes: config.IMAGE_MAX_BYTES, maxPixels: config.IMAGE_MAX_PIXELS },
      });
    });
    report(options.dryRun ? 'import (dry run, nothing stored)' : 'import', result);
  }));

program
  .command('backup')
  .description('a consistent copy of a SQLite store, made while the service goes on serving')
  .argument('<file>', 'the new file (its folder is made when missing)')
  .action((name: string) => withStore({}, async (db) => {
    const file = userPath(name);
    const { backupStore } = await backup();
    await withProgress('backup', 1, 'pages', (advance) => backupStore(db, newFileAt(file), advance));
    console.error(`backup: ${file} written; serve it with DATABASE_URL=sqlite:${file}`);
  }));

program
  .command('copy')
  .description('copy the whole catalogue to another store (SQLite to PostgreSQL, or back), ids kept')
  .requiredOption('--to <url>', 'the target store, a DATABASE_URL')
  .option('--replace', 'empty a target that holds records first', false)
  .action((options: { to: string; replace: boolean }) => withStore({}, async (source) => {
    await requireMigrated(source);
    const { copyCatalogue, FILES } = await copy();
    const target = open(options.to, 'target', true);
    try {
      await migrateToLatest(target);
      const total = await recordCount(source);
      const sums = await withProgress('copy', total, 'records', (advance) => copyCatalogue(source, target, options, advance));
      for (const name of [...transferred.map((r) => r.name), FILES]) {
        const [from, to] = [sums.source[name], sums.target[name]];
        if (from?.count !== to?.count || from?.sha256 !== to?.sha256) throw new Failure(`copy: ${name} differs between source and target after the copy`, 1);
        console.error(`copy: ${name} ${to?.count ?? 0} ${name === FILES ? 'files' : 'records'}, sha256 ${to?.sha256 ?? ''}`);
      }
      console.error('copy: done; every table matches its source');
    } finally {
      await target.destroy();
    }
  }));

program
  .command('check')
  .description("the store's migrations, records per resource, and an integrity check")
  .action(() => withStore({}, async (db) => {
    const { migrations, counts, problems } = await (await check()).checkStore(db);
    const applied = migrations.filter((m) => m.appliedAt).at(-1)?.name ?? 'none';
    console.log(`migration: ${applied} (${migrations.filter((m) => m.appliedAt).length} of ${migrations.length} applied)`);
    for (const [name, count] of Object.entries(counts)) console.log(`${name}: ${count}`);
    for (const problem of problems) console.log(`problem: ${problem}`);
    if (problems.length > 0) throw new Failure(`check: ${problems.length} problem${problems.length === 1 ? '' : 's'}`, 1);
    console.log('integrity: ok');
  }));

program
  .command('migrate')
  .description('apply the migrations the store lacks, and exit')
  .option('--status', 'list every migration and whether it is applied; change nothing', false)
  .action((options: { status: boolean }) => withStore({ create: options.status ? undefined : true }, async (db) => {
    if (options.status) {
      for (const m of await (await check()).migrationStates(db)) console.log(`${m.name}  ${m.appliedAt ? `applied ${m.appliedAt.toISOString()}` : 'pending'}`);
      return;
    }
    const applied = await migrateToLatest(db);
    console.error(applied.length > 0 ? `migrate: applied ${applied.join(', ')}` : 'migrate: nothing to apply');
  }));

/**
 * The store `url` names, said on stderr (without a password) so that a mistyped one shows. A
 * SQLite file that does not exist is made only where `create` says so: elsewhere a typo would
 * silently give an empty store. `false` is a command that makes one when given --create;
 * `undefined`, one that never does.
 */
function open(url: string, role: 'store' | 'target', create: boolean | undefined): Db {
  const file = url.startsWith('sqlite:') && url !== 'sqlite::memory:' ? resolve(url.slice('sqlite:'.length)) : undefined;
  const shown = file !== undefined ? `sqlite:${file}` : withoutPassword(url);
  if (file !== undefined && create !== true && !existsSync(file)) {
    const remedy = create === false ? 'pass --create to make it' : 'name one that exists, or make it with cartelera migrate (or import --create)';
    throw new Failure(`${role} ${shown} does not exist (a mistyped DATABASE_URL?); ${remedy}`, 1);
  }
  console.error(`cartelera: ${role} ${shown}`);
  try {
    return openDatabase(url, { ...STORE_DEFAULTS, sqlitePageCacheKb: PAGE_CACHE_KB, sqliteUndoInMemory: true });
  } catch (error) {
    // A store on a full or read-only disk cannot even be opened (SQLite makes its -wal and -shm files): said as any write's fault.
    if (storeFaultOf(error) === 'disk_full' || storeFaultOf(error) === 'read_only') throw error;
    throw new Failure(error instanceof Error ? error.message : String(error), 2);
  }
}

/**
 * A command's SQLite pages kept in memory: SQLite's own default, 2 MB, not better-sqlite3's 16 MB,
 * which an import's one long transaction fills; the OS's page cache holds them as well. The
 * 100,000-record JSON import peaked about 20 MB lower with it, and took no longer.
 */
const PAGE_CACHE_KB = 2000;

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** `--quien NAME`: who writes, for the change log; the operating system's user name by default. */
function quienOption(): Option {
  return new Option('--quien <name>', "who is writing, as the change log records it (default: the system's user name)").default(systemUser());
}

function systemUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'desconocido';
  }
}

/** A workbook (.xlsx or .ods) of the selection, to `path` or standard output. */
async function writeSpreadsheet(db: Db, format: 'xlsx' | 'ods', selection: Selection, path: string | undefined, advance: (written: number) => void): Promise<void> {
  const [{ NotInASheet }, { writeWholeFile }] = await Promise.all([sheets(), wholeFile()]);
  const write = format === 'ods' ? (await import('../transfer/write/ods.js')).exportOds : (await import('../transfer/write/xlsx.js')).exportWorkbook;
  let workbook;
  try {
    workbook = await write(db, selection);
  } catch (error) {
    if (error instanceof NotInASheet) throw new Failure(`export: ${error.message}`, 1);
    throw error;
  }
  const bytes = workbook.bytes;
  const fill = async (out: Writable) => {
    if (!out.write(bytes)) await once(out, 'drain');
  };
  await (path ? writeWholeFile(newFileAt(path), fill) : fill(process.stdout));
  advance(workbook.records);
}

type Format = ExportFormat | 'xlsx' | 'ods' | 'csv';

/** The export's format: the one given, else the one --out's extension names, else JSON. */
function exportFormat(out: string | undefined, given: Format | undefined): Format {
  const ext = out === undefined ? '' : extname(out).toLowerCase();
  const byExtension: Record<string, Format> = { '.json': 'json', '.ndjson': 'ndjson', '.jsonl': 'ndjson', '.xlsx': 'xlsx', '.ods': 'ods', '.csv': 'csv' };
  const named = byExtension[ext];
  if (given !== undefined && named !== undefined && given !== named) throw new Failure(`export: --format ${given} does not match --out ${out}`, 2);
  return given ?? named ?? 'json';
}

/** `--recurso`: a resource's path name, in any case. */
function resourceArgument(name: string): AnyResource {
  const resource = transferred.find((r) => r.name.toLowerCase() === name.toLowerCase());
  if (!resource) throw new Failure(`export: --recurso ${name} names no resource (${transferred.map((r) => r.name).join(', ')})`, 2);
  return resource;
}

/** `options.create`: as open() takes it. */
async function withStore(options: { create?: boolean }, work: (db: Db, config: Config) => Promise<void>): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // One line per setting, as the service says them.
    throw new Failure(error.problems.join('\ncartelera: '), 1);
  }
  const db = open(config.DATABASE_URL, 'store', options.create);
  try {
    await work(db, config);
  } finally {
    await db.destroy();
  }
}

async function requireMigrated(db: Db): Promise<void> {
  const pending = (await (await check()).migrationStates(db)).filter((m) => !m.appliedAt);
  if (pending.length > 0) throw new Failure(`the store lacks ${pending.length} migration(s); run cartelera migrate (or start the service) first`, 1);
}

async function recordCount(db: Db): Promise<number> {
  let total = 0;
  for (const r of transferred) total += await countRows(db, r.table);
  return total;
}

function sizeOf(path: string): number {
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.size : 0;
  } catch {
    return 0;
  }
}

/** The import's problems, one a line on stderr (exit 1), or what it stored. */
function report(label: string, result: ImportResult): void {
  for (const n of result.notices) console.error(`${placeText(n.place)}: ${n.notice}`);
  for (const p of result.problems) {
    const where = `${placeText(p.place)}${p.label !== undefined ? `, ${p.label}` : ''}`;
    console.error(`${where}: ${[p.resource, p.field].filter(Boolean).join('.')}${p.resource || p.field ? ': ' : ''}${problemText(p)}`);
  }
  if (result.unlisted > 0) console.error(messages.transfer.unlisted(result.unlisted));
  const problems = problemCount(result);
  if (problems > 0) throw new Failure(`${label}: ${problems} problem${problems === 1 ? '' : 's'}; nothing stored`, 1);
  const lines = Object.entries(result.counts).map(([name, c]) => `${name}: ${c.created} new, ${c.updated} updated, ${c.skipped} already there`);
  console.error(`${label}: ${lines.join('; ') || 'no records'}`);
}

type Demo = typeof import('./demo.js');

async function* demoRecords(demo: Demo, zone: string): AsyncGenerator<Incoming[]> {
  yield [...demoRecordList(demo, zone)];
}

/** The demo catalogue; its showtimes start today in `zone`, the city's. */
function* demoRecordList(demo: Demo, zone: string): Generator<Incoming> {
  const counted = new Map<string, number>();
  const place = (list: string) => {
    counted.set(list, (counted.get(list) ?? 0) + 1);
    return { file: 'demo', list, position: counted.get(list) };
  };
  for (const nombre of demo.categorias) yield { resource: categorias, record: { nombre }, place: place(categorias.name) };
  for (const record of demo.peliculas) yield { resource: peliculas, record: { ...record }, place: place(peliculas.name) };
  for (const record of demo.obras) yield { resource: obras, record: { ...record }, place: place(obras.name) };
  for (const record of demo.eventosUrbanos) yield { resource: eventosUrbanos, record: { ...record }, place: place(eventosUrbanos.name) };
  for (const record of demo.artistas) yield { resource: artistas, record: { ...record }, place: place(artistas.name) };
  for (const { dni, tipo_evento, titulo } of demo.participaciones) {
    yield { resource: participaciones, record: { artistas_dni: dni, tipo_evento, evento: titulo }, place: place(participaciones.name) };
  }
  for (const record of demo.lugares) yield { resource: lugares, record: { ...record }, place: place(lugares.name) };
  const today = new Date(wallClockAt(zone, Date.now())).toISOString().slice(0, 10);
  for (const record of demo.funciones(today)) yield { resource: funciones, record: { ...record }, place: place(funciones.name) };
}

// A reader that stops early (`| head`) is not a failure of the export.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

/** Why the store refused a command's work, in one sentence (a command's work is one transaction: nothing of it was stored). */
const FAULT_SENTENCES: Record<StoreFault, string> = {
  disk_full: "the store's disk is full; free some space and run the command again",
  read_only: 'the store is read-only: its file system refuses writes',
  unavailable: 'the database is unavailable (down, restarting or unreachable); run the command again once it is up',
};

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  const fault = storeFaultOf(error);
  console.error(`cartelera: ${fault ? FAULT_SENTENCES[fault] : error instanceof Error ? error.message : String(error)}`);
  const code = error instanceof Failure ? error.exitCode : error instanceof UnreadableInput ? 2 : 1;
  // A long report to a pipe is written as the pipe takes it: exit once all of it is out.
  process.stderr.write('', () => process.exit(code));
}
