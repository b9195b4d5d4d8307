import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { messages } from '../../catalogue/messages.js';
import type { AnyResource } from '../../resources/define.js';
import { resources } from '../../resources/index.js';
import { resourceOfTable, withFiles } from './table.js';
import { UnreadableInput, type Incoming, type ReadOptions, type SpreadsheetFile } from './types.js';

export { placeText, UnreadableInput, type Encoding, type Incoming, type Place, type ReadOptions, type SpreadsheetFile } from './types.js';

/**
 * The spreadsheets' readers, by extension; CSV files, which are named after their resource, are
 * read apart. Each reader (and its parser) is loaded when a file of its format comes: an import
 * carries only what its files need.
 */
const WORKBOOKS: Record<string, (file: string, bytes: Buffer, bytesRead: (n: number) => void) => AsyncIterable<Incoming[]>> = {
  '.xlsx': async function* (file, bytes, bytesRead) {
    yield* (await import('./xlsx.js')).readXlsx(file, bytes, bytesRead);
  },
  '.ods': async function* (file, bytes, bytesRead) {
    yield* (await import('./ods.js')).readOds(file, bytes, bytesRead);
  },
};
const SPREADSHEETS = ['.csv', ...Object.keys(WORKBOOKS)];

/**
 * The records of the files given, each with its place: a JSON document or NDJSON as `export`
 * writes them, CSV files named after their resource, workbooks, or folders of these spreadsheets.
 * Spreadsheets are read in the order their resources refer to each other, whatever order they
 * were named in. Records come in batches: one await per batch, not per record, is what keeps a
 * large import fast.
 */
export async function* readImport(paths: string[], bytesRead: (n: number) => void = () => {}, options: ReadOptions = {}): AsyncGenerator<Incoming[]> {
  const files = paths.flatMap((path) => (statOf(path).isDirectory() ? spreadsheetsIn(path) : [path]));
  const ext = (file: string) => extname(file).toLowerCase();
  const unreadable = files.find((f) => !['.json', '.ndjson', '.jsonl', ...SPREADSHEETS].includes(ext(f)));
  if (unreadable !== undefined) throw new UnreadableInput(`${unreadable}: not a .json, .ndjson, .csv, .xlsx or .ods file`);
  for (const file of files) {
    if (ext(file) === '.json') yield* (await import('./json.js')).readDocument(file, bytesRead);
    else if (ext(file) === '.ndjson' || ext(file) === '.jsonl') yield* (await import('./json.js')).readNdjson(file, bytesRead);
  }
  yield* readSpreadsheets(files.filter((f) => SPREADSHEETS.includes(ext(f))).map((name) => ({ name, path: name })), options, bytesRead);
}

/**
 * CSV files and workbooks, on disk (the command line's) or as bytes (an upload's), in the order
 * their resources refer to each other; `bytesRead` is told of the bytes as they are read. What is
 * wrong with a file (an empty one, a PDF named .xlsx, a CSV file named after no resource) is a
 * problem of that file, as a row's are of its row.
 */
export async function* readSpreadsheets(files: SpreadsheetFile[], options: ReadOptions = {}, bytesRead: (n: number) => void = () => {}): AsyncGenerator<Incoming[]> {
  const ext = (file: SpreadsheetFile) => extname(file.name).toLowerCase();
  const ignored = (file: SpreadsheetFile) => ext(file) === '.csv' && withFiles(basename(file.name, extname(file.name)));
  const unreadable = (file: SpreadsheetFile): string | undefined => {
    if (!SPREADSHEETS.includes(ext(file))) return messages.transfer.notSpreadsheet;
    if (('bytes' in file ? file.bytes.length : statSync(file.path).size) === 0) return messages.transfer.emptyFile;
    if (ext(file) === '.csv' && !csvResource(file.name) && !ignored(file)) return messages.transfer.csvName(resources.map((r) => `${r.name}.csv`));
    return undefined;
  };
  const aboutFiles = files.flatMap((file): Incoming[] => {
    const problem = unreadable(file);
    if (problem === undefined && ignored(file)) return [{ notice: messages.spreadsheet.imagesIgnored(`el archivo ${basename(file.name)}`), place: { file: file.name } }];
    return problem === undefined ? [] : [{ problem, place: { file: file.name } }];
  });
  if (aboutFiles.length > 0) yield aboutFiles;
  const readable = files.filter((file) => unreadable(file) === undefined);
  for (const file of readable) {
    const read = WORKBOOKS[ext(file)];
    if (!read) continue;
    yield* read(file.name, 'bytes' in file ? file.bytes : readFileSync(file.path), bytesRead);
  }
  const csv = readable.flatMap((file) => {
    const resource = ext(file) === '.csv' ? csvResource(file.name) : undefined;
    return resource ? [{ ...file, resource }] : [];
  });
  if (csv.length === 0) return;
  const { piecesOf, readCsv } = await import('./csv.js');
  for (const file of csv.sort((a, b) => resources.indexOf(a.resource) - resources.indexOf(b.resource))) {
    const source = 'bytes' in file ? { pieces: () => piecesOf(file.bytes) } : { path: file.path };
    yield* readCsv(file.name, source, file.resource, options.encoding, bytesRead);
  }
}

function statOf(path: string) {
  try {
    return statSync(path);
  } catch {
    throw new UnreadableInput(`${path}: no such file or folder`);
  }
}

/** A folder's spreadsheets: its CSV files and workbooks (.xlsx, .ods), in name order. */
function spreadsheetsIn(folder: string): string[] {
  const found = readdirSync(folder).filter((f) => SPREADSHEETS.includes(extname(f).toLowerCase())).sort().map((f) => join(folder, f));
  if (found.length === 0) throw new UnreadableInput(`${folder}: no .csv, .xlsx or .ods files in this folder`);
  return found;
}

/** The resource a CSV file is named after: `peliculas.csv`, `Películas.csv`. */
function csvResource(file: string): AnyResource | undefined {
  return resourceOfTable(basename(file, extname(file)));
}
