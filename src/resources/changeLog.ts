import { CompiledQuery } from 'kysely';
import { comparable } from '../catalogue/comparable.js';
import type { Operacion } from '../catalogue/fields.js';
import { dialectOf } from '../db/dialect.js';
import { insertReturningKey, type LoggedChange } from '../db/prepared.js';
import type { CambiosTable, Db } from '../db/schema.js';
import type { AnyResource } from './define.js';

/**
 * The change log's recorder: every write of a record (writes.ts) stores its change here, in the
 * write's own transaction. Reading the log, undo, retention and the live feed are in changes/.
 */


/** Who writes: the write key's name, the command line's --quien, or null when writes need no key. */
export type Quien = string | null;

/** What a change says beside the record itself. */
export interface ChangeContext {
  quien: Quien;
  /** The `baja` whose deletion cascaded to this one. */
  causa?: number | null;
  /** The change an undo undid. */
  deshace?: number | null;
  /**
   * Where changes go instead of one insert each: an import collects them and stores them many
   * rows a statement (ChangeBatch), before its transaction commits. Such changes have no id yet.
   */
  batch?: ChangeBatch;
}

type ChangeValues = Omit<CambiosTable, 'id'>;

/** Changes held for one multi-row insert each `size`, in the transaction they belong to. */
export class ChangeBatch {
  private held: ChangeValues[] = [];

  constructor(
    private readonly db: Db,
    private readonly size = 200,
  ) {}

  async add(change: ChangeValues): Promise<void> {
    this.held.push(change);
    if (this.held.length >= this.size) await this.flush();
  }

  /** Stores what is held, in one statement; call it before the transaction commits. */
  async flush(): Promise<void> {
    const rows = this.held;
    this.held = [];
    if (rows.length === 0) return;
    const values = rows.flatMap((row) => COLUMNS.map((column) => row[column]));
    await this.db.executeQuery(CompiledQuery.raw(batchInsert(dialectOf(this.db), rows.length), values));
  }
}

const COLUMNS = ['recurso', 'clave', 'operacion', 'antes', 'despues', 'campos', 'quien', 'quien_clave', 'cuando', 'causa', 'deshace'] as const satisfies readonly (keyof ChangeValues)[];

/** The SQL of a multi-row insert of `rows` changes, built once per size and dialect (as db/prepared.ts does for single rows). */
const batchInserts = new Map<string, string>();
function batchInsert(dialect: 'sqlite' | 'postgres', rows: number): string {
  const shape = `${dialect} ${rows}`;
  let text = batchInserts.get(shape);
  if (text === undefined) {
    let n = 0;
    const placeholder = () => (dialect === 'postgres' ? `$${++n}` : '?');
    const tuples = Array.from({ length: rows }, () => `(${COLUMNS.map(placeholder).join(', ')})`);
    text = `insert into cambios (${COLUMNS.join(', ')}) values ${tuples.join(', ')}`;
    batchInserts.set(shape, text);
  }
  return text;
}

/** The record as the API answers it, as JSON text (resource.representation), or null. */
type Representation = string | null;

/**
 * Stores one change of one record, in the transaction `db` is: `antes` and `despues` as the API
 * answers the record before and after. A modification that changes no field records nothing
 * (undefined). Its id is the change's number (undefined too when it goes to a batch).
 */
export async function recordChange(
  db: Db, resource: AnyResource, clave: number, antes: Representation, despues: Representation, context: ChangeContext,
): Promise<number | undefined> {
  const change = changeOf(resource, antes, despues, context);
  if (change === undefined) return undefined;
  const values: ChangeValues = { ...change, clave, despues };
  if (context.batch) {
    await context.batch.add(values);
    return undefined;
  }
  return Number(await insertReturningKey(db, 'cambios', values, 'id'));
}

/**
 * What the log stores of a change besides the record's key and its `despues` (which a write stored
 * in the same statement fills in: db/prepared.ts, insertLogged): undefined for a modification that
 * changes no field. A `despues` left undefined is a new record's.
 */
export function changeOf(resource: AnyResource, antes: Representation, despues: Representation | undefined, context: ChangeContext): LoggedChange | undefined {
  const operacion: Operacion = antes === null ? 'alta' : despues === null ? 'baja' : 'modificacion';
  const campos = operacion === 'modificacion' ? changedFields(resource, antes, despues ?? null) : undefined;
  if (campos?.length === 0) return undefined;
  return { ...changeAbout(resource, operacion, context), antes, campos: campos ? JSON.stringify(campos) : allFieldsOf(resource) };
}

/** What the log stores of a change besides the record before and after it and the fields it changed. */
export function changeAbout(resource: AnyResource, operacion: Operacion, context: ChangeContext): Omit<LoggedChange, 'antes' | 'campos'> {
  return {
    recurso: resource.name,
    operacion,
    quien: context.quien,
    quien_clave: comparableQuien(context.quien),
    cuando: now(),
    causa: context.causa ?? null,
    deshace: context.deshace ?? null,
  };
}

/**
 * Sets what change `id` says of the record to the record as the API answers it, where a write
 * stored with its change in one statement foresaw it otherwise (resources/writes.ts checks each).
 */
export async function correctChange(db: Db, id: number, said: Partial<Pick<CambiosTable, 'antes' | 'despues' | 'campos'>>): Promise<void> {
  await db.updateTable('cambios').set(said).where('id', '=', id).execute();
}

/** The instant of a write as `cuando` holds it, made once per millisecond (an import logs thousands in one). */
let lastNow = { at: Number.NaN, text: '' };
function now(): string {
  const at = Date.now();
  if (at !== lastNow.at) lastNow = { at, text: new Date(at).toISOString().replace('Z', '+00:00') };
  return lastNow.text;
}

/** A creation's or a deletion's `campos`: every field, as JSON, worked out once per resource. */
const allFields = new WeakMap<AnyResource, string>();
function allFieldsOf(resource: AnyResource): string {
  let text = allFields.get(resource);
  if (text === undefined) {
    text = JSON.stringify(changedFields(resource, null, null));
    allFields.set(resource, text);
  }
  return text;
}

/** `quien_clave`: the comparable form of `quien`, the last one kept (one import or request writes many changes with one). */
let lastQuien: { quien: string; comparable: string } | undefined;
function comparableQuien(quien: Quien): string | null {
  if (quien === null) return null;
  if (lastQuien?.quien !== quien) lastQuien = { quien, comparable: comparable(quien) };
  return lastQuien.comparable;
}

/** The fields whose value differs, in the resource's order (the key first); all of them for a creation or a deletion. */
export function changedFields(resource: AnyResource, antes: Representation, despues: Representation): string[] {
  const names = [resource.key.name, ...resource.fieldNames];
  if (antes === null || despues === null) return names;
  const before = JSON.parse(antes) as Record<string, unknown>;
  const after = JSON.parse(despues) as Record<string, unknown>;
  return names.filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]));
}
