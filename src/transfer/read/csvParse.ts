import { createReadStream } from 'node:fs';
import { CsvError, parse, type Options, type Parser } from 'csv-parse';
import { parse as parseWhole } from 'csv-parse/sync';
import type { Encoding } from './types.js';

/**
 * A CSV file's bytes to its records: the part of reading a CSV that knows no resource, run on the
 * thread that reads the file (csv.ts) or in a worker thread of its own (csvWorker.ts).
 */

const SEPARATORS = [';', ',', '\t'] as const;

/** Bytes handed to the CSV parser at a time: each is one step of the event loop's at most. */
const PIECE = 64 * 1024;

/** A CSV file's bytes in pieces, from its start: each call reads it again (an upload's bytes, or a file on disk). */
export type Pieces = () => AsyncIterable<Buffer> | Iterable<Buffer>;

/**
 * What parsing a CSV file gives, in order: that it is read as Windows-1252 (not being UTF-8), or that it is
 * not UTF-8 where only UTF-8 would do; records as they are parsed, with the bytes read for them;
 * and at a syntax error, the error and the header line's cells, which the parse ends with.
 */
export type Parsed =
  | { windows1252: true }
  | { notUtf8: true }
  | { records: string[][]; bytes: number }
  | { failure: SyntaxFailure; header: string[] };

/** What a syntax error says: csv-parse's code, the records read before it, and the column it is in. */
export interface SyntaxFailure {
  code: string;
  records: number;
  column?: number;
}

/** The file parsed here, piece by piece (see Parsed). */
export async function* parsedPieces(bytes: Pieces, encoding?: Encoding): AsyncGenerator<Parsed> {
  let read = 0;
  const source = await decoding(bytes, encoding, (n) => (read += n));
  if (source === undefined) return yield { notUtf8: true };
  if (source.windows1252) yield { windows1252: true };
  // Records are taken as the parser reaches them (on_record), not from its stream, which drops
  // those it holds when an error ends it: the rows before a syntax error are read too.
  const parsed: string[][] = [];
  let failure: unknown;
  let parser: Parser | undefined;
  let start = '';
  let options: Options = {};
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
    yield { records: parsed.splice(0), bytes: read };
    read = 0;
    if (failure === undefined) continue;
    if (!(failure instanceof CsvError)) throw failure;
    const column = typeof failure.column === 'number' ? failure.column : undefined;
    return yield { failure: { code: failure.code, records: Number(failure.records) || 0, ...(column !== undefined && { column }) }, header: headerOf(start, options) };
  }
}

/** What a CSV worker is given. */
export interface CsvWork {
  path: string;
  encoding: Encoding | undefined;
}

/** What a CSV worker sends: what its parse gives, then `end`; or why it failed. */
export type CsvMessage = Parsed | { end: true } | { error: { message: string; code?: string } };

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

/**
 * UTF-8 bytes as they are (the parser reads them, a BOM dropped), or, when the bytes are not UTF-8,
 * their text as Windows-1252, which says so; undefined when only UTF-8 would do. Whether they are
 * UTF-8 is found by reading them once, a piece at a time, before the parse; the parse's reading is
 * the one counted.
 */
async function decoding(bytes: Pieces, forced: Encoding | undefined, bytesRead: (n: number) => void): Promise<{ pieces: () => AsyncIterable<Buffer | string>; windows1252?: true } | undefined> {
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
  return { pieces: windows1252, windows1252: true };
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
