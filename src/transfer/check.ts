import { Migrator, sql } from 'kysely';
import { comparable } from '../catalogue/comparable.js';
import { countRows } from '../db/bulk.js';
import { sqliteFileChecks } from '../db/sqlite.js';
import { migrationProvider } from '../db/migrate.js';
import { allRows, nextTurn } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import { createHash } from 'node:crypto';
import { loggedResources as resources } from '../resources/index.js';
import { inSnapshot } from '../db/snapshot.js';

export interface MigrationState {
  name: string;
  /** When it was applied; undefined while pending. */
  appliedAt?: Date;
}

/** Every migration the code knows, oldest first, and whether the store has it. */
export async function migrationStates(db: Db): Promise<MigrationState[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  return (await migrator.getMigrations()).map((m) => ({ name: m.name, appliedAt: m.executedAt }));
}

/**
 * The change log against the records: for every record with a history, its last change's
 * `despues` is the record as the API answers it (null, a `baja`, when there is none). Records
 * older than the log, or whose history was pruned, have none, and are not judged. Read a page of
 * record keys at a time, the event loop free in between.
 */
async function logProblems(db: Db): Promise<string[]> {
  const wrong: { id: number; problem: string }[] = [];
  for (const resource of resources) {
    const key = resource.key.name;
    for (let after = -1; ; ) {
      const { rows: last } = await sql<{ clave: number | string; despues: string | null; id: number | string }>`
        select c.clave, c.despues, c.id from cambios c
        join (select clave, max(id) as id from cambios where recurso = ${resource.name} and clave > ${after} group by clave order by clave limit ${PAGE}) l on c.id = l.id
        order by c.clave`.execute(db);
      if (last.length === 0) break;
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(resource.table)} where ${sql.ref(key)} in (${sql.join(last.map((c) => Number(c.clave)))})`.execute(db);
      const stored = new Map(rows.map((row) => [Number(row[key]), resource.representation(row)]));
      for (const change of last) {
        const record = stored.get(Number(change.clave)) ?? null;
        if (record !== change.despues) wrong.push({ id: Number(change.id), problem: `${resource.name} ${change.clave}: the change log's last change (${change.id}) does not leave it as it is stored` });
      }
      if (last.length < PAGE) break;
      after = Number(last[last.length - 1]?.clave);
      await nextTurn();
    }
  }
  // Named in the order of the changes, oldest first.
  const named = wrong.sort((a, b) => a.id - b.id).slice(0, NAMED).map((w) => w.problem);
  if (wrong.length > NAMED) named.push(`…and ${wrong.length - NAMED} more records that differ from their last change`);
  return named;
}

/** Every image's original is there and matches the SHA-256 stored with it, read a page at a time. */
async function imageFileProblems(db: Db): Promise<string[]> {
  const wrong: string[] = [];
  const { rows: missing } = await sql<{ id: number }>`select id from imagenes i where not exists (select 1 from imagen_archivos a where a.imagen_id = i.id) order by id`.execute(db);
  wrong.push(...missing.map((m) => `imagenes ${m.id}: its file is missing`));
  // A few files a page: each may be up to IMAGE_MAX_BYTES.
  for await (const files of allRows(db, 'imagen_archivos', 'imagen_id', 8)) {
    for (const file of files) {
      const datos = file.datos as Uint8Array;
      if (createHash('sha256').update(datos).digest('hex') !== file.digest) wrong.push(`imagenes ${String(file.imagen_id)}: its file does not match its SHA-256`);
    }
  }
  const named = wrong.slice(0, NAMED);
  if (wrong.length > NAMED) named.push(`…and ${wrong.length - NAMED} more image files missing or damaged`);
  return named;
}

/** Records judged against the change log at a time. */
const PAGE = 500;

export interface CheckReport {
  migrations: MigrationState[];
  counts: Record<string, number>;
  /** One sentence per problem found; none when the store is sound. */
  problems: string[];
}

/** At most this many rows of one kind of problem are named; the rest are counted. */
const NAMED = 5;

/**
 * The store's health: its migrations, its records per resource, and an integrity check (SQLite's
 * own integrity and foreign-key checks; on PostgreSQL, that every constraint is validated; on
 * both, that every normalized key column still matches its text and every kept row count its table).
 */
export async function checkStore(db: Db): Promise<CheckReport> {
  const migrations = await migrationStates(db);
  const problems = migrations.filter((m) => !m.appliedAt).map((m) => `migration ${m.name} is not applied (cartelera migrate applies it)`);
  if (problems.length > 0) return { migrations, counts: {}, problems };
  return inSnapshot(db, async (trx) => {
    const counts: Record<string, number> = {};
    for (const resource of resources) counts[resource.name] = await countRows(trx, resource.table);
    // The row counts pages answer with (migration 0004) must be the tables' own.
    const kept = await trx.selectFrom('versiones').select(['tabla', (eb) => eb.fn.sum<number | string>('filas').as('filas')]).groupBy('tabla').execute();
    for (const resource of resources) {
      const filas = Number(kept.find((row) => row.tabla === resource.table)?.filas);
      if (filas !== counts[resource.name]) problems.push(`versiones says ${resource.table} holds ${filas} rows; it holds ${counts[resource.name]}`);
    }
    const sqlite = sqliteFileChecks(db);
    if (sqlite) {
      problems.push(...sqlite.integrity.map((line) => `SQLite integrity check: ${line}`));
      const { orphans } = sqlite;
      problems.push(...orphans.slice(0, NAMED).map((o) => `${o.table} row ${o.rowid} names a missing ${o.parent} record`));
      if (orphans.length > NAMED) problems.push(`…and ${orphans.length - NAMED} more rows naming missing records`);
    } else {
      const { rows } = await sql<{ conname: string }>`select conname from pg_constraint where connamespace = current_schema()::regnamespace and not convalidated`.execute(trx);
      problems.push(...rows.map((r) => `constraint ${r.conname} is not validated`));
    }
    for (const resource of resources) {
      const wrong: string[] = [];
      for await (const rows of allRows(trx, resource.table, resource.key.name)) {
        for (const row of rows) {
          for (const [field, value] of Object.entries(row)) {
            const stored = row[`${field}_clave`];
            if (typeof value === 'string' && stored !== undefined && stored !== comparable(value)) wrong.push(`${resource.name} ${String(row[resource.key.name])}: ${field}_clave does not match ${field}`);
          }
        }
      }
      problems.push(...wrong.slice(0, NAMED));
      if (wrong.length > NAMED) problems.push(`…and ${wrong.length - NAMED} more normalized keys of ${resource.name} that do not match their text`);
    }
    problems.push(...(await imageFileProblems(trx)));
    counts.cambios = await countRows(trx, 'cambios');
    problems.push(...(await logProblems(trx)));
    return { migrations, counts, problems };
  });
}
