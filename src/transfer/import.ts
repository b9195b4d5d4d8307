import { fieldLabelsOf, valueLabels } from '../catalogue/labels.js';
import { messages } from '../catalogue/messages.js';
import { comparable } from '../catalogue/comparable.js';
import { Refusal, type Problem } from '../catalogue/refusal.js';
import { validated } from '../catalogue/validation.js';
import { moveSequencePastKeys } from '../db/dialect.js';
import { insertManyReturning } from '../db/prepared.js';
import { allRows, turnTaker } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import type { AnyResource } from '../resources/define.js';
import { violationOf } from '../db/errors.js';
import { inSavepoint, writeTransaction } from '../db/transaction.js';
import { changesNothing, createRecord, recordCreated, replaceRecord } from '../resources/writes.js';
import { ChangeBatch, type ChangeContext, type Quien } from '../resources/changeLog.js';
import { createImage, editImage } from '../resources/imageWrites.js';
import type { Original } from '../images/judge.js';
import { CompactIndex } from './compactIndex.js';
import { judgedFile, storedDigest, type FileLimits } from './imageFiles.js';
import { PlaceCodes } from './placeCodes.js';
import { namesOf } from './read/table.js';
import type { Incoming, Place, Read } from './read/types.js';

export type OnConflict = 'error' | 'skip' | 'update';

export interface ImportOptions {
  /** What a record whose title, name or dni is already stored does. */
  onConflict: OnConflict;
  /** Check everything, store nothing. */
  dryRun: boolean;
  /** Who imports, for the change log: a write key's name, the command line's --quien. */
  quien: Quien;
  /** The city's zone (`TIMEZONE`): a date-time with an offset is stored as its wall clock there. */
  timeZone: string;
  /** What a record's file (an image's original) is held to, as an upload is; without it, an import takes no files. */
  files?: FileLimits;
}

/**
 * One problem of one record, or of a file: where it is, what it is of, the sentence the API would
 * answer, and for a spreadsheet's cell, its column as the sheet names it, the cell as written and,
 * for a format, examples that work.
 */
export interface ImportProblem extends Problem {
  place: Place;
  resource?: string;
  label?: string;
  value?: string;
  hint?: string;
}

/** The most problems a result lists: past them, they are counted. */
export const MOST_LISTED = 1000;

export interface ImportResult {
  /** The first MOST_LISTED problems, in the order found. */
  problems: ImportProblem[];
  /** Problems found past those listed. */
  unlisted: number;
  /** What the reader did that the user should know (a file read as Windows-1252), by file. */
  notices: { place: Place; notice: string }[];
  /** Per resource: records stored anew, stored ones updated, and ones left as they were. */
  counts: Record<string, { created: number; updated: number; skipped: number }>;
}

/**
 * The records of one resource known so far: in the store, and in the file. What grows with the
 * store or the file is held outside the heap (CompactIndex), places as PlaceCodes' numbers.
 */
interface Known {
  /**
   * By unique key (see uniqueKeyOf): the stored record's key, and (column IN_FILE) where the file
   * first gave it, for those it has given so far.
   */
  byUnique: CompactIndex<string>;
  /**
   * By key (ids, dnis): 1 when a record holds it, stored or given by the file (a file's id is the
   * stored record's: a restore keeps it, an update names it); and (column IN_FILE) where the file
   * first gave it, for those it has given so far.
   */
  keys: CompactIndex<number>;
  /** Titles and names records had before this import renamed them: a sheet may still name a record so (a movie's old category name). */
  formerly: Map<string, number>;
  /** What people call a record (resource.knownAs: an artist's name), normalized → the records so called: key → as a sheet shows it. */
  byName?: Map<string, Map<number, string>>;
  resource: AnyResource;
  /** Whether a record kept its id (a restore): its sequence must then move past it. */
  restored: boolean;
  /** The highest key seen: records a check-only run does not store stand in with keys past it. */
  highest: number;
}

/**
 * Stores the records read, in one transaction: all of them, or, if any has a problem, none.
 * Every record passes the API's own rules and sentences; every problem is reported, not only
 * the first. References may name a record of the same import (by the id it has there, or by its
 * lookup value) or one already stored.
 */
export async function importCatalogue(db: Db, incoming: AsyncIterable<Incoming[]>, options: ImportOptions): Promise<ImportResult> {
  const result: ImportResult = { problems: [], unlisted: 0, notices: [], counts: {} };
  const rollback = new Error('rolled back: the import has problems');
  try {
    await writeTransaction(db, async (trx) => {
      const importer = new Importer(trx, options, result);
      // Records are checked and stored a few milliseconds at a time, the event loop free in between.
      const turn = turnTaker();
      for await (const batch of incoming) {
        for (const item of batch) {
          await turn();
          if ('problem' in item) {
            const { problem, ...about } = item;
            found(result, { ...about, sentence: problem });
          } else if ('notice' in item) result.notices.push({ place: item.place, notice: item.notice });
          else await importer.take(item);
        }
      }
      if (problemCount(result) > 0 || options.dryRun) throw rollback;
      await importer.finish();
      // The store may refuse a record of the last ones held, stored only now: then nothing is kept either.
      if (problemCount(result) > 0) throw rollback;
    });
  } catch (error) {
    if (error !== rollback) throw error;
  }
  return result;
}

/** A new record read and checked, waiting to be stored with the others of its resource. */
interface Held {
  value: Record<string, unknown>;
  place: Place;
  unique: string;
}

/** Records held at most before they are stored: as few as a reader's batch (BATCH), for the same reason. */
const HOLD = 200;

class Importer {
  private readonly known = new Map<AnyResource, Known>();
  private readonly places = new PlaceCodes();

  /**
   * New records of one resource, in the order read, stored many a statement (storeHeld)
   * when the file moves on to another resource, before an update, when HOLD are held, and at the end.
   */
  private held: { resource: AnyResource; records: Held[] } | undefined;

  /** Who writes; the import's changes are stored many a statement. */
  private readonly context: ChangeContext;

  /** Records given without a key that is their only unique value, so far. */
  private keyless = 0;

  constructor(
    private readonly db: Db,
    private readonly options: ImportOptions,
    private readonly result: ImportResult,
  ) {
    this.context = { quien: options.quien, batch: new ChangeBatch(db) };
  }

  /** Whether records are still being stored: not in a check-only run, nor after a problem (nothing will be kept). */
  private get storing() {
    return !this.options.dryRun && problemCount(this.result) === 0;
  }

  async take(read: Read): Promise<void> {
    const { resource, place } = read;
    // Records may refer to the held ones, by id or by name: those are stored first.
    if (this.held && this.held.resource !== resource) await this.storeHeld();
    // A record's file (an image's original) is judged as an upload is, and goes on beside the record.
    const { record: raw, original, problems } = await judgedFile(resource, read.record, this.options.files);
    // The API ignores fields it does not know; an import says so instead of dropping them.
    const names = namesOf(resource);
    for (const field in raw) if (!names.includes(field)) problems.push({ field, sentence: messages.unknownField(field, [...names]) });
    const { record, unresolved } = await this.resolveLookups(resource, raw, problems);
    // A reference named by a lookup value that names nothing is reported once, by the name given.
    const invalid: Problem[] = [];
    const value = this.validated(resource, record, invalid, unresolved);
    // The cells the reader could not read, and the columns it reported missing, are reported once, by the reader.
    if (read.problems) problems.push(...read.problems);
    if (invalid.length > 0) {
      const told = new Set([...(read.absent ?? []), ...(read.problems ?? []).map((p) => p.field)]);
      problems.push(...invalid.filter((p) => !told.has(p.field)));
    }
    if (value && problems.length === 0) await this.resolveIds(resource, value, problems);
    if (value && problems.length === 0) await this.store(resource, value, problems, place, original);
    if (problems.length === 0) return;
    // A cell's problem names its column as the sheet does, and quotes the cell as the file wrote it; a row's come in its columns' order.
    const order = Object.keys(read.columns ?? {});
    const column = (problem: Problem) => (problem.field === undefined ? -1 : order.indexOf(problem.field));
    for (const problem of problems.sort((a, b) => column(a) - column(b))) found(this.result, { ...withGiven(problem, read), place, resource: resource.name });
  }

  /** The record as the API's own rules make it (trimmed, integers from digits…), or its problems. */
  private validated(resource: AnyResource, record: Record<string, unknown>, problems: Problem[], unresolved: ReadonlySet<string>) {
    try {
      return validated<Record<string, unknown>>(resource.schemas.restore, record, this.options.timeZone);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      problems.push(...error.problems.filter((p) => p.field === undefined || !unresolved.has(p.field)));
      return undefined;
    }
  }

  /** After every record: the changes still held are stored, and ids kept from the file must not be handed out again. */
  async finish(): Promise<void> {
    await this.storeHeld();
    await this.context.batch?.flush();
    for (const [resource, known] of this.known) {
      if (known.restored && !resource.key.chosenByClient) await moveSequencePastKeys(this.db, resource.table, resource.key.name);
    }
  }

  /**
   * `"categoria": "Drama"` → `"categoria_id": <its id>`, the file's records first, then the store's;
   * an artist by its DNI, or by its name as a sheet shows it. A coded value may come as its label
   * (`Película` for `pelicula`).
   */
  private async resolveLookups(resource: AnyResource, raw: Record<string, unknown>, problems: Problem[]) {
    if (!needsLookups(resource, raw)) return { record: raw, unresolved: NONE };
    const unresolved = new Set<string>();
    const aliases = Object.values(resource.references ?? {}).flatMap((r) => (r.byLookup !== undefined && r.byLookup in raw ? [r.byLookup] : []));
    const record = Object.fromEntries(
      Object.entries(raw).filter(([name]) => !aliases.includes(name)).map(([name, value]) => [name, typeof value === 'string' ? codedValue(name, value) : value]),
    );
    for (const [field, reference] of Object.entries(resource.references ?? {})) {
      const alias = reference.byLookup;
      if (alias === undefined || !(alias in raw) || field in record) continue;
      const value = raw[alias];
      const target = reference.to(record);
      if (!target) continue; // validation names the tipo_evento at fault
      const known = this.known.get(target) ?? (await this.knownOf(target));
      const named = typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
      const key = named === undefined ? undefined : (known.byUnique.get(comparable(named)) ?? known.formerly.get(comparable(named)));
      const called = named === undefined || key !== undefined ? [] : [...(known.byName?.get(comparable(named)) ?? [])];
      if (key !== undefined || called.length === 1) {
        record[field] = key ?? called[0]?.[0];
        continue;
      }
      unresolved.add(field);
      if (called.length > 1) problems.push({ field: alias, sentence: messages.ambiguousByName(target.nouns, value, called.map(([, shown]) => shown)) });
      else if (target.knownAs && named !== undefined && !/^\d+$/.test(named.trim())) problems.push({ field: alias, sentence: messages.missingByName(target.nouns, value) });
      else problems.push({ field: alias, sentence: messages.missingByLookup(target.nouns, value) });
    }
    return { record, unresolved };
  }

  /** References by id: to the id a record of this import was stored under, or to a stored record. */
  private async resolveIds(resource: AnyResource, value: Record<string, unknown>, problems: Problem[]) {
    for (const [field, reference] of Object.entries(resource.references ?? {})) {
      const target = reference.to(value);
      const id = value[field];
      if (!target || typeof id !== 'number') continue;
      const known = this.known.get(target) ?? (await this.knownOf(target));
      if (!known.keys.has(id)) problems.push({ field, sentence: messages.missingReference(target.nouns, id) });
    }
  }

  private async store(resource: AnyResource, value: Record<string, unknown>, problems: Problem[], place: Place, original?: Original) {
    const known = this.known.get(resource) ?? (await this.knownOf(resource));
    const counts = (this.result.counts[resource.name] ??= { created: 0, updated: 0, skipped: 0 });
    const keyName = resource.key.name;
    const fileKey = value[keyName] as number | undefined;
    // A record whose one unique value is a key the store hands out (an image's id), given without it, is nobody's repeat.
    const unique = fileKey === undefined && resource.unique.every((field) => field === keyName) ? `\u0000${++this.keyless}` : uniqueKeyOf(resource, value);
    const duplicate = () => problems.push({ field: uniqueField(resource), sentence: messages.duplicate(resource.nouns, resource.uniqueValue(value)) });
    const first = known.byUnique.get(unique, IN_FILE);
    if (first !== undefined) return void problems.push({ field: uniqueField(resource), sentence: repeated(resource.uniqueValue(value), this.places.place(first), place) });
    known.byUnique.set(unique, this.places.code(place), IN_FILE);
    const firstWithKey = fileKey === undefined ? undefined : known.keys.get(fileKey, IN_FILE);
    const keyLabel = fieldLabelsOf(resource.name)[keyName] ?? keyName;
    if (firstWithKey !== undefined) return void problems.push({ field: keyName, sentence: repeated(`${keyLabel} ${fileKey}`, this.places.place(firstWithKey), place) });
    if (fileKey !== undefined) known.keys.set(fileKey, this.places.code(place), IN_FILE);

    // A row that carries its key is that record, whatever its title says; one without is matched by its title or name.
    const holder = known.byUnique.get(unique);
    const existing = fileKey === undefined ? holder : known.keys.has(fileKey) ? fileKey : undefined;
    // A title or name is one record's: another's is refused, as the API refuses it.
    if (holder !== undefined && holder !== existing) return void duplicate();
    if (existing !== undefined) {
      if (this.options.onConflict === 'error') {
        return void (holder === existing ? duplicate() : problems.push({ field: keyName, sentence: messages.idTaken(resource.nouns, existing) }));
      }
      if (this.options.onConflict === 'skip') return void counts.skipped++;
      // A stored record's file never changes (an image's): another file is a problem, not an update.
      if (original && original.digest !== (await storedDigest(this.db, existing))) return void problems.push({ field: resource.file, sentence: messages.image.otherFile(existing) });
      const stored = await resource.queries(this.db).get(existing);
      const replacement = { ...keptLineEndings(resource, stored, value), [keyName]: existing };
      // A record the file gives as it is stored is left alone: "updated" counts real changes only.
      if (stored && changesNothing(resource, stored, replacement)) return void counts.skipped++;
      await this.storeHeld();
      if (this.storing) {
        await this.write(problems, () => (original ? editImage(this.db, existing, replacement, true, this.context) : replaceRecord(this.db, resource, existing, replacement, this.context)));
      }
      // Its new title or name is the record's from here on.
      if (stored) this.forget(known, stored);
      this.know(known, unique, existing, replacement);
      counts.updated++;
      return;
    }
    if (fileKey !== undefined) known.restored = true;
    counts.created++;
    if (!this.storing) return void this.know(known, unique, fileKey ?? standIn(known, unique), value);
    // A key the file gives is known now; one the store hands out, once the record is stored.
    if (fileKey !== undefined) this.know(known, unique, fileKey, value);
    if (original) {
      // Stored at once with its file, which is never held with others' (each may be up to IMAGE_MAX_BYTES).
      const created = await this.write(problems, () => createImage(this.db, value, original, this.context));
      if (created && fileKey === undefined) this.know(known, unique, created[keyName] as number, value);
      return;
    }
    this.held ??= { resource, records: [] };
    this.held.records.push({ value, place, unique });
    if (this.held.records.length >= HOLD) await this.storeHeld();
  }

  private know(known: Known, unique: string, key: number, record: Record<string, unknown>): void {
    known.highest = Math.max(known.highest, key);
    known.keys.set(key, 1);
    known.byUnique.set(unique, key);
    if (!known.byName) return;
    const withKey = { ...record, [known.resource.key.name]: key };
    for (const name of known.resource.knownAs?.(withKey) ?? []) {
      const called = known.byName.get(comparable(name)) ?? new Map<number, string>();
      known.byName.set(comparable(name), called.set(key, known.resource.shownAs(withKey)));
    }
  }

  /** A record's title, name and what people call it, once it has others (its former title or name still names it, after its current ones). */
  private forget(known: Known, record: Record<string, unknown>): void {
    const key = record[known.resource.key.name] as number;
    const unique = uniqueKeyOf(known.resource, record);
    if (known.byUnique.get(unique) === key) {
      known.byUnique.delete(unique);
      known.formerly.set(unique, key);
    }
    for (const name of known.byName ? (known.resource.knownAs?.(record) ?? []) : []) known.byName?.get(comparable(name))?.delete(key);
  }

  /**
   * Stores the held records, many a statement, and logs their creation. If the store refuses the
   * statement, each record is stored alone instead, so that the one it refuses is named with its place.
   */
  private async storeHeld(): Promise<void> {
    const held = this.held;
    this.held = undefined;
    if (!held) return;
    const { resource, records } = held;
    const known = this.known.get(resource) ?? (await this.knownOf(resource));
    if (!this.storing) return records.forEach(({ value, unique }) => this.know(known, unique, standIn(known, unique), value));
    // Stored as made here, the store answering only what it adds (the key, what it works out) and what matches each row to its record.
    const rows = records.map(({ value }) => resource.newRow(value));
    let stored: Record<string, unknown>[];
    try {
      stored = await inSavepoint(this.db, () => insertManyReturning(this.db, resource.table, rows as never[], answeredOf(resource)));
    } catch (error) {
      if (violationOf(error) === undefined) throw error;
      for (const { value, place, unique } of records) {
        const problems: Problem[] = [];
        const created = this.storing ? await this.write(problems, () => createRecord(this.db, resource, value, this.context)) : undefined;
        for (const problem of problems) found(this.result, { ...problem, place, resource: resource.name });
        this.know(known, unique, created ? (created[resource.key.name] as number) : standIn(known, unique), value);
      }
      return;
    }
    const answers = inOrderOf(resource, records, stored);
    for (let i = 0; i < records.length; i++) {
      const { value, unique } = records[i] as Held;
      this.know(known, unique, await recordCreated(this.db, resource, { ...rows[i], ...answers[i] }, this.context), value);
    }
  }

  /** A write the checks above let through that the store refuses all the same: its sentence. */
  private async write<T>(problems: Problem[], write: () => Promise<T>): Promise<T | undefined> {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  }

  /** What the store holds of a resource, read once, when the import first needs it. */
  private async knownOf(resource: AnyResource): Promise<Known> {
    let known = this.known.get(resource);
    if (!known) {
      known = { resource, byUnique: new CompactIndex(2), keys: new CompactIndex(2), formerly: new Map(), restored: false, highest: 0 };
      if (resource.knownAs) known.byName = new Map();
      for await (const rows of allRows(this.db, resource.table, resource.key.name)) {
        for (const row of rows) this.know(known, uniqueKeyOf(resource, row), row[resource.key.name] as number, row);
      }
      this.known.set(resource, known);
    }
    return known;
  }
}

const NONE: ReadonlySet<string> = new Set();

/** Known's second column: where the file first gave a title or key (the first, the default, is what the store holds or will). */
const IN_FILE = 1;

/** Whether a record names a reference by its lookup value, or holds a field whose values are coded (their labels are taken too). */
function needsLookups(resource: AnyResource, raw: Record<string, unknown>): boolean {
  for (const field in raw) if (Object.hasOwn(valueLabels, field)) return true;
  for (const field in resource.references ?? {}) {
    const alias = resource.references?.[field]?.byLookup;
    if (alias !== undefined && alias in raw) return true;
  }
  return false;
}

/**
 * The rows the store answered for `records`, one for each, in their order. Neither store promises
 * the order of an insert's returned rows, but both hand out keys in the order of its values: a
 * row is matched by its key where the file gave one, else by the order of keys, checked by its
 * unique value as given; should that not hold, by the unique value's comparable form (the dearer match).
 */
function inOrderOf(resource: AnyResource, records: Held[], stored: Record<string, unknown>[]): Record<string, unknown>[] {
  const keyName = resource.key.name;
  const given = new Set(records.flatMap(({ value }) => (value[keyName] === undefined ? [] : [Number(value[keyName])])));
  const byGivenKey = new Map(stored.flatMap((row) => (given.has(Number(row[keyName])) ? [[Number(row[keyName]), row] as const] : [])));
  const handedOut = stored.filter((row) => !given.has(Number(row[keyName]))).sort((a, b) => Number(a[keyName]) - Number(b[keyName]));
  let next = 0;
  const rows = records.map(({ value }) => (value[keyName] === undefined ? handedOut[next++] : byGivenKey.get(Number(value[keyName]))));
  const same = (row: Record<string, unknown> | undefined, value: Record<string, unknown>) => row !== undefined && resource.uniqueValue(row) === resource.uniqueValue(value);
  if (rows.length === stored.length && records.every(({ value }, i) => same(rows[i], value))) return rows as Record<string, unknown>[];
  const byUnique = new Map(stored.map((row) => [uniqueKeyOf(resource, row), row]));
  return records.map(({ value, unique }) => {
    const row = value[keyName] === undefined ? byUnique.get(unique) : byGivenKey.get(Number(value[keyName]));
    if (!row) throw new Error(`the store answered no row for ${resource.name} ${unique}`);
    return row;
  });
}

/**
 * What the store answers for each new record an import stores many a statement: its key, its
 * unique fields (which match it to its record) and the fields the store works out (an image's url).
 */
function answeredOf(resource: AnyResource): string[] {
  return [...new Set([resource.key.name, ...resource.unique, ...(resource.readOnly ?? [])])];
}

/** A coded value given as its label (`Película`), as the code the API takes (`pelicula`); anything else as it is. */
function codedValue(field: string, value: string): string {
  const labels = Object.entries((valueLabels as Record<string, Record<string, string>>)[field] ?? {});
  return labels.find(([, label]) => comparable(label) === comparable(value))?.[0] ?? value;
}

/**
 * The record to store in place of `stored`, its texts that differ only in line endings (`\r\n`,
 * `\r`, `\n`: what a spreadsheet program's saving changes) kept as they are stored.
 */
function keptLineEndings(resource: AnyResource, stored: Record<string, unknown> | undefined, value: Record<string, unknown>): Record<string, unknown> {
  if (!stored) return value;
  const lines = (text: string) => text.replace(/\r\n?/g, '\n');
  const kept = resource.textFields.filter((field) => {
    const [given, current] = [value[field], stored[field]];
    return typeof given === 'string' && typeof current === 'string' && given !== current && lines(given) === lines(current);
  });
  return { ...value, ...Object.fromEntries(kept.map((field) => [field, stored[field]])) };
}

/**
 * The key a record that is not stored (a check-only run, or one after a problem) stands in with,
 * so that later records can refer to it: the key it already has, else one past the highest.
 */
function standIn(known: Known, unique: string): number {
  return known.byUnique.get(unique) ?? known.highest + 1;
}

/** Records with the same one cannot both be stored: the comparable form of what "Ya existe…" names. */
function uniqueKeyOf(resource: AnyResource, record: Record<string, unknown>): string {
  return comparable(resource.uniqueValue(record));
}

/** The field a duplicate is reported on: the title, name or dni (none for a participation's three). */
function uniqueField(resource: AnyResource): string | undefined {
  return resource.unique.length === 1 ? resource.unique[0] : undefined;
}

/** A value given twice in the import: where it first came (a spreadsheet's row, a list's position from 1, a line), and in which file when another. */
function repeated(value: string, first: Place, place: Place): string {
  const m = messages.spreadsheet;
  if (first.file !== place.file || first.sheet !== place.sheet) {
    const at = first.row !== undefined ? m.row(first.row) : first.position !== undefined ? m.position(first.position) : first.line !== undefined ? m.line(first.line) : undefined;
    return m.repeatedElsewhere(value, [first.file, first.sheet, at].filter(Boolean).join(', '));
  }
  if (first.row !== undefined) return m.repeated(value, first.row);
  if (first.position !== undefined) return m.repeatedAt(value, first.position);
  return m.repeatedOnLine(value, first.line ?? 0);
}

/** A problem found: listed among the first MOST_LISTED, else counted. */
function found(result: ImportResult, problem: ImportProblem): void {
  if (result.problems.length < MOST_LISTED) result.problems.push(problem);
  else result.unlisted++;
}

/** Every problem found, listed or not. */
export const problemCount = (result: ImportResult) => result.problems.length + result.unlisted;

/**
 * A problem of a spreadsheet's cell carries its column as the sheet names it, which its sentence
 * uses in place of the field's name (`El campo 'Sinopsis'`), the cell as written, and for a
 * format, examples that work.
 */
function withGiven(problem: Problem, read: Read): Problem & { label?: string; value?: string; hint?: string } {
  const { field } = problem;
  const label = field === undefined ? undefined : read.columns?.[field];
  const value = field === undefined ? undefined : read.given?.[field];
  if (field === undefined || (label === undefined && value === undefined)) return problem;
  const subject = messages.validation.subject('body', field);
  const sentence = label === undefined ? problem.sentence : problem.sentence.replace(subject, messages.validation.subject('body', label));
  const hint = value === undefined ? undefined : messages.spreadsheet.examples[field];
  return { ...problem, sentence, ...(label !== undefined && { label }), ...(value !== undefined && { value }), ...(hint !== undefined && { hint }) };
}

/** A problem as one text: its sentence, the value given, and the examples. */
export function problemText(problem: ImportProblem): string {
  return [problem.sentence, problem.value !== undefined ? messages.spreadsheet.given(problem.value) : undefined, problem.hint].filter(Boolean).join(' ');
}
