import { createReadStream } from 'node:fs';
import { CsvError, parse, type Options, type Parser } from 'csv-parse';
import { parse as parseWhole } from 'csv-parse/sync';
import { messages } from '../../catalogue/messages.js';
import type { AnyResource } from '../../resources/define.js';
import { isEmptyRow, tableOf } from './table.js';
import { BATCH, type Encoding, type Incoming } from './types.js';

const SEPARATORS = [';', ',', '\t'] as const;

/** Bytes handed to the CSV parser at a time: each is one step of the event loop's at most. */
const PIECE = 64 * 1024;

/** A CSV file's bytes in pieces, from its start: each call reads it again (an upload's bytes, or a file on disk). */
export type Pieces = () => AsyncIterable<Buffer> | Iterable<Buffer>;

/**
 * A spreadsheet's CSV, read as the spreadsheet meant it: the separator its header line uses (and
 * that one alone), UTF-8 or else Windows-1252, then the table's rules (table.ts): headers by field
 * name or by the admin's label, empty rows skipped, rows numbered as the spreadsheet numbers them.
 * Read in pieces, a batch of records at a time, never whole: memory does not grow with the file,
 * and no step holds the event loop long.
 */
export async function* readCsv(file: string, bytes: Pieces, resource: AnyResource, encoding?: Encoding, bytesRead: (n: number) => void = () => {}): AsyncGenerator<Incoming[]> {
  const source = await decoding(bytes, encoding, bytesRead);
  if (source === undefined) return yield [{ problem: messages.spreadsheet.notUtf8, place: { file } }];
  if (source.notice) yield [{ notice: source.notice, place: { file } }];
  // Records are taken as the parser reaches them (on_record), not from its stream, which drops
  // those it holds when an error ends it: the rows before a syntax error are read too.
  const parsed: string[][] = [];
  let failure: unknown;
  let parser: Parser | undefined;
  let start = '';
  let options: Options = {};
  let header: string[] = [];
  let table: ReturnType<typeof tableOf> | undefined;
  let batch: Incoming[] = [];
  let number = 0;
  for await (const piece of ended(source.pieces())) {
    if (!parser) {
      // The separator is the header line's: the file's first piece holds it.
      start = typeof piece === 'string' ? piece : (piece?.toString('utf8') ?? '');
      options = { delimiter: separatorOf(start), relax_column_count: true, skip_empty_lines: false, bom: true };
      parser = parse({ ...options, on_record: (record: string[]) => {
        parsed.push(record);
        return null;
      } });
      parser.on('error', (error) => (failure = error));
    }
    if (piece === undefined) parser.end();
    else parser.write(piece);
    // The parser's end and its errors come a turn later.
    await new Promise((resolve) => setImmediate(resolve));
    for (const cells of parsed.splice(0)) {
      const row = { number: ++number, cells };
      if (isEmptyRow(row)) continue;
      if (!table) {
        header = cells;
        table = tableOf(row, resource, { file });
        batch.push(...table.start);
      } else batch.push(table.row(row));
      if (batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (failure === undefined) continue;
    if (!(failure instanceof CsvError)) throw failure;
    // The header, when it can be read, names the column of the error.
    if (!table) header = headerOf(start, options);
    const column = typeof failure.column === 'number' ? header[failure.column] : undefined;
    return yield [...batch, { ...syntaxError(failure, column?.trim() || undefined), place: { file, row: (Number(failure.records) || 0) + 1 } }];
  }
  yield [...batch, ...(table?.end() ?? [])];
}

/** The pieces, then undefined: the parser is told the end as one more step. */
async function* ended<T>(pieces: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T | undefined> {
  yield* pieces;
  yield undefined;
}

/** The first record of a file's start; none when the error is in the header itself. */
function headerOf(start: string, options: Options): string[] {
  try {
    return (parseWhole(start, { ...options, to: 1 }) as string[][])[0] ?? [];
  } catch {
    return [];
  }
}

/** An upload's bytes in pieces of PIECE bytes, without copying them. */
export function* piecesOf(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += PIECE) yield bytes.subarray(at, at + PIECE);
}

/** A file on disk in pieces of PIECE bytes, read as they are asked for. */
export const piecesOnDisk = (path: string) => () => createReadStream(path, { highWaterMark: PIECE }) as AsyncIterable<Buffer>;

/** csv-parse's error as a sentence naming the sheet's row: the record it was reading, counted as the sheet counts rows. */
function syntaxError(error: CsvError, label: string | undefined): { problem: string; label?: string } {
  const sentences = messages.spreadsheet.csv;
  const at = messages.spreadsheet.csvAt((Number(error.records) || 0) + 1, label);
  const sentence =
    {
      INVALID_OPENING_QUOTE: sentences.quoteInside,
      CSV_INVALID_OPENING_QUOTE: sentences.quoteInside,
      CSV_INVALID_CLOSING_QUOTE: sentences.textAfterQuote,
      CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: sentences.textAfterQuote,
      CSV_QUOTE_NOT_CLOSED: sentences.quoteNotClosed,
      CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: sentences.cells,
      CSV_RECORD_INCONSISTENT_COLUMNS: sentences.cells,
      CSV_MAX_RECORD_SIZE: sentences.tooLong,
    }[error.code as string] ?? sentences.other;
  return { problem: sentence(at), ...(label !== undefined && { label }) };
}

/**
 * UTF-8 bytes as they are (the parser reads them, a BOM dropped), or, when the bytes are not UTF-8,
 * their text as Windows-1252, which says so; undefined when only UTF-8 would do. Whether they are
 * UTF-8 is found by reading them once, a piece at a time, before the parse; the parse's reading is
 * the one counted.
 */
async function decoding(bytes: Pieces, forced: Encoding | undefined, bytesRead: (n: number) => void): Promise<{ pieces: () => AsyncIterable<Buffer | string>; notice?: string } | undefined> {
  const counted = async function* <T>(decode: (piece: Buffer) => T) {
    for await (const piece of bytes()) {
      bytesRead(piece.length);
      yield decode(piece);
    }
  };
  const decoder = new TextDecoder('windows-1252');
  const windows1252 = () => counted((piece) => decoder.decode(piece));
  if (forced === 'windows-1252') return { pieces: windows1252 };
  if (await isUtf8Throughout(bytes)) return { pieces: () => counted((piece) => piece) };
  if (forced === 'utf-8') return undefined;
  return { pieces: windows1252, notice: messages.spreadsheet.readAsWindows1252 };
}

async function isUtf8Throughout(bytes: Pieces): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const piece of bytes()) decoder.decode(piece, { stream: true });
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/** The separator the header line uses most, outside quotes; `,` for a one-column header. */
function separatorOf(text: string): string {
  const counts = new Map<string, number>(SEPARATORS.map((s) => [s, 0]));
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best && best[1] > 0 ? best[0] : ',';
}
