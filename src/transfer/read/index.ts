import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { messages } from '../../catalogue/messages.js';
import type { AnyResource } from '../../resources/define.js';
import { resources } from '../../resources/index.js';
import { NotUtf8, readCsv } from './csv.js';
import { readDocument, readNdjson } from './json.js';
import { resourceNamed } from './table.js';
import { BATCH, UnreadableInput, type Incoming, type ReadOptions, type SpreadsheetFile } from './types.js';
import { NotAWorkbook, readWorkbook } from './xlsx.js';

export { placeText, UnreadableInput, type Encoding, type Incoming, type Place, type ReadOptions, type SpreadsheetFile } from './types.js';

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
