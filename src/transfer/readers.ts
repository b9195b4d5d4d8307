import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import Assembler from 'stream-json/assembler.js';
import { parser } from 'stream-json/parser.js';
import { messages } from '../catalogue/messages.js';
import { exactNumber, firstInexactNumber } from '../catalogue/numbers.js';
import type { AnyResource } from '../resources/define.js';
import { resources } from '../resources/index.js';
import { NotUtf8, readCsv, type Encoding } from './csv.js';
import { DOCUMENT } from './export.js';
import { resourceNamed } from './table.js';
import { NotAWorkbook, readWorkbook } from './workbook.js';

/** Where a record came from, for the report: the file (and a workbook's sheet), and its line, its spreadsheet row, or its position in its list. */
export interface Place {
  file: string;
  sheet?: string;
  /** An NDJSON file's line, from 1. */
  line?: number;
  /** A spreadsheet's row: the header is row 1, a cell with line breaks is one row. */
  row?: number;
  /** A JSON document's record: its list, and its position there, from 1. */
  list?: string;
  position?: number;
}

/** A place as the command line prints it: `catalogo.xlsx, Películas, row 3`, `catalogo.json, peliculas #2`. */
export function placeText(place: Place): string {
  const parts = [place.file, place.sheet, place.row !== undefined ? `row ${place.row}` : undefined, place.list !== undefined ? `${place.list} #${place.position}` : undefined];
  return `${parts.filter((p) => p !== undefined).join(', ')}${place.line !== undefined ? `:${place.line}` : ''}`;
}

/** A spreadsheet given as bytes: a CSV file named after its resource, or a workbook. */
export interface SpreadsheetFile {
  name: string;
  bytes: Buffer;
}

export type Incoming =
  /** `given`: the cells as the file wrote them, for the report, where the record holds them converted. */
  | { resource: AnyResource; record: Record<string, unknown>; place: Place; given?: Record<string, string> }
  /** Something in the file that is no record of any resource. */
  | { problem: string; place: Place }
  /** Something the reader did that the user should know, not a problem. */
  | { notice: string; place: Place };

export interface ReadOptions {
  /** How CSV bytes are read: UTF-8, else Windows-1252 (undefined), or only the one named. */
  encoding?: Encoding;
}

/** A file (or folder) the command line was given that cannot be read as an import. */
export class UnreadableInput extends Error {}

const byName = new Map(resources.map((r) => [r.name.toLowerCase(), r]));
/** A JSON list's or NDJSON line's resource, by its path name. */
const listNamed = (name: unknown) => (typeof name === 'string' ? byName.get(name.toLowerCase()) : undefined);
const SPREADSHEETS = ['.csv', '.xlsx'];

/**
 * The records of the files given, each with its place: a JSON document or NDJSON as `export`
 * writes them, CSV files named after their resource, workbooks, or folders of CSV files.
 * Spreadsheets are read in the order their resources refer to each other, whatever order they
 * were named in. Records come in batches: one await per batch, not per record, is what keeps a
 * large import fast.
 */
export async function* readImport(paths: string[], bytesRead: (n: number) => void = () => {}, options: ReadOptions = {}): AsyncGenerator<Incoming[]> {
  const files = paths.flatMap((path) => (statOf(path).isDirectory() ? csvFilesIn(path) : [path]));
  const ext = (file: string) => extname(file).toLowerCase();
  const unreadable = files.find((f) => !['.json', '.ndjson', '.jsonl', ...SPREADSHEETS].includes(ext(f)));
  if (unreadable !== undefined) throw new UnreadableInput(`${unreadable}: not a .json, .ndjson, .csv or .xlsx file`);
  for (const file of files) {
    if (ext(file) === '.json') yield* readDocument(file, bytesRead);
    else if (ext(file) === '.ndjson' || ext(file) === '.jsonl') yield* readNdjson(file, bytesRead);
  }
  const sheets = files.filter((f) => SPREADSHEETS.includes(ext(f)));
  yield* readSpreadsheets(sheets.map((name) => ({ name, bytes: readFileSync(name) })), options);
  bytesRead(sheets.reduce((total, f) => total + statSync(f).size, 0));
}

/**
 * CSV files and workbooks given as bytes (the command line's, or an upload's), in the order
 * their resources refer to each other. A file that cannot be read as what its name says is
 * UnreadableInput; what is wrong inside one is a problem at its place.
 */
export async function* readSpreadsheets(files: SpreadsheetFile[], options: ReadOptions = {}): AsyncGenerator<Incoming[]> {
  for (const { name } of files) {
    if (!SPREADSHEETS.includes(extname(name).toLowerCase())) throw new UnreadableInput(messages.transfer.notSpreadsheet(name));
  }
  const workbooks = files.filter((f) => extname(f.name).toLowerCase() === '.xlsx');
  const csv = files.filter((f) => extname(f.name).toLowerCase() === '.csv');
  const order = (file: SpreadsheetFile) => resources.indexOf(csvResource(file.name));
  for (const { name, bytes } of workbooks) {
    try {
      yield* batches(await readWorkbook(name, bytes));
    } catch (error) {
      if (error instanceof NotAWorkbook) throw new UnreadableInput(error.message);
      throw error;
    }
  }
  for (const { name, bytes } of csv.sort((a, b) => order(a) - order(b))) {
    let read: ReturnType<typeof readCsv>;
    try {
      read = readCsv(name, bytes, csvResource(name), options.encoding);
    } catch (error) {
      if (error instanceof NotUtf8) throw new UnreadableInput(`${name}: ${error.message}`);
      throw error;
    }
    if (read.notice) yield [{ notice: read.notice, place: { file: name } }];
    yield* batches(read.items);
  }
}

function* batches(items: Incoming[]): Generator<Incoming[]> {
  for (let i = 0; i < items.length; i += BATCH) yield items.slice(i, i + BATCH);
}

function statOf(path: string) {
  try {
    return statSync(path);
  } catch {
    throw new UnreadableInput(`${path}: no such file or folder`);
  }
}

function csvFilesIn(folder: string): string[] {
  const found = readdirSync(folder).filter((f) => extname(f).toLowerCase() === '.csv').map((f) => join(folder, f));
  if (found.length === 0) throw new UnreadableInput(`${folder}: no .csv files in this folder`);
  return found;
}

function csvResource(file: string): AnyResource {
  const resource = resourceNamed(basename(file, extname(file)));
  if (!resource) throw new UnreadableInput(messages.transfer.csvName(file, resources.map((r) => `${r.name}.csv`)));
  return resource;
}

function counted(file: string, bytesRead: (n: number) => void): Readable {
  const stream = createReadStream(file);
  stream.on('data', (chunk) => bytesRead(chunk.length));
  return stream;
}

/** `{"formato":"cartelera","version":1,…,"peliculas":[…],…}`, read a page of records at a time. */
async function* readDocument(file: string, bytesRead: (n: number) => void): AsyncGenerator<Incoming[]> {
  // Numbers stay text until exactNumber has judged them: a rounded number must be refused, as the API does.
  const tokens = counted(file, bytesRead).pipe(parser.asStream({ packValues: true, streamValues: false }));
  let depth = 0;
  let key: string | undefined;
  let list: { resource?: AnyResource; name: string; position: number } | undefined;
  let value: Assembler | undefined;
  const header: Record<string, unknown> = {};
  function take(token: parser.Token, out: Incoming[]): void {
    if (!value) {
      if (depth === 0) {
        if (token.name !== 'startObject') throw new UnreadableInput(`${file}: not a cartelera document (an object was expected)`);
        depth = 1;
        return;
      }
      if (!list) {
        if (token.name === 'keyValue') {
          key = token.value;
          return;
        }
        if (token.name === 'endObject') {
          depth = 0;
          return;
        }
        if (token.name === 'startArray' && key !== undefined && !(key in header)) {
          const resource = listNamed(key);
          if (resource?.name !== key) out.push({ problem: `unknown list '${key}' (expected ${resources.map((r) => r.name).join(', ')})`, place: { file } });
          list = { resource: resource?.name === key ? resource : undefined, name: key, position: 0 };
          return;
        }
      } else if (token.name === 'endArray') {
        list = undefined;
        return;
      }
      value = new Assembler({ numberAsString: true });
    }
    value.consume(exactly(token));
    if (!value.done) return;
    const done = value.current;
    value = undefined;
    if (!list) {
      if (key !== undefined) header[key] = done;
      return;
    }
    const place = { file, list: list.name, position: ++list.position };
    if (list.resource) out.push(isRecord(done) ? { resource: list.resource, record: done, place } : { problem: 'not a JSON object', place });
  }
  try {
    yield* inBatches(tokens, take);
  } catch (error) {
    if (error instanceof UnreadableInput) throw error;
    throw new UnreadableInput(`${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (header.formato !== DOCUMENT.formato || header.version !== DOCUMENT.version) {
    throw new UnreadableInput(`${file}: not a cartelera document of version ${DOCUMENT.version} ("formato":"${DOCUMENT.formato}","version":${DOCUMENT.version})`);
  }
}

/**
 * A number token as its value when that is exact, or as its text, which validation refuses as it
 * refuses the API's inexact numbers. (With numberAsString, the assembler keeps what it is given.)
 */
function exactly(token: parser.Token): parser.Token {
  if (token.name !== 'numberValue') return token;
  return { name: 'numberValue', value: (exactNumber(token.value) ?? token.value) as string };
}

/** One `{"recurso":…,"registro":{…}}` a line; blank lines are skipped. */
async function* readNdjson(file: string, bytesRead: (n: number) => void): AsyncGenerator<Incoming[]> {
  let line = 0;
  let batch: Incoming[] = [];
  for await (const text of createInterface({ input: counted(file, bytesRead), crlfDelay: Infinity })) {
    line++;
    if (text.trim() !== '') batch.push(ndjsonEntry(text, { file, line }));
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

function ndjsonEntry(text: string, place: Place): Incoming {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    return { problem: 'not valid JSON', place };
  }
  const resource = isRecord(entry) ? listNamed(entry.recurso) : undefined;
  if (!isRecord(entry) || !resource || !isRecord(entry.registro)) {
    return { problem: `not a {"recurso":…,"registro":{…}} line naming one of ${resources.map((r) => r.name).join(', ')}`, place };
  }
  // As the API does: a number the parse rounded is refused, naming its field.
  const inexact = firstInexactNumber(text);
  if (inexact?.key !== undefined && inexact.key in entry.registro) entry.registro[inexact.key] = inexact.literal;
  return { resource, record: entry.registro, place };
}

const BATCH = 1000;

/**
 * What `take` makes of each item `source` emits, in batches: items are handled as they arrive, and
 * the source waits while a full batch is not yet taken.
 */
async function* inBatches<T>(source: Readable, take: (item: T, out: Incoming[]) => void): AsyncGenerator<Incoming[]> {
  let out: Incoming[] = [];
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const poke = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  source.on('data', (item: T) => {
    try {
      take(item, out);
    } catch (error) {
      failure ??= error;
      source.destroy();
    }
    if (out.length >= BATCH || failure !== undefined) {
      source.pause();
      poke();
    }
  });
  source.once('end', () => {
    ended = true;
    poke();
  });
  source.once('error', (error) => {
    failure ??= error;
    poke();
  });
  try {
    for (;;) {
      if (failure !== undefined) throw failure;
      if (out.length >= BATCH || (ended && out.length > 0)) {
        const batch = out;
        out = [];
        yield batch;
        source.resume();
      } else if (ended) {
        return;
      } else {
        await new Promise<void>((resolve) => (wake = resolve));
      }
    }
  } finally {
    source.destroy();
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
