import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { messages } from '../../catalogue/messages.js';
import type { AnyResource } from '../../resources/define.js';
import { isEmptyRow, tableOf } from './table.js';
import { parsedPieces, piecesOnDisk, type CsvMessage, type CsvWork, type Parsed, type Pieces, type SyntaxFailure } from './csvParse.js';
import { BATCH, type Encoding, type Incoming } from './types.js';

export { piecesOf } from './csvParse.js';

/**
 * A spreadsheet's CSV, read as the spreadsheet meant it: the separator its header line uses (and
 * that one alone), UTF-8 or else Windows-1252, then the table's rules (table.ts): headers by field
 * name or by the admin's label, empty rows skipped, rows numbered as the spreadsheet numbers them.
 * Read in pieces, a batch of records at a time, never whole: memory does not grow with the file,
 * and no step holds the event loop long. A large file on disk is parsed in a worker thread
 * (csvWorker.ts) while its records are checked and stored here.
 */
export async function* readCsv(file: string, source: CsvSource, resource: AnyResource, encoding?: Encoding, bytesRead: (n: number) => void = () => {}): AsyncGenerator<Incoming[]> {
  const inWorker = 'path' in source && statSync(source.path).size >= IN_WORKER;
  const parsing = 'path' in source ? (inWorker ? parsedInWorker(source.path, encoding) : parsedPieces(piecesOnDisk(source.path), encoding)) : parsedPieces(source.pieces, encoding);
  let table: ReturnType<typeof tableOf> | undefined;
  let header: string[] = [];
  let batch: Incoming[] = [];
  let number = 0;
  for await (const parsed of parsing) {
    if ('notUtf8' in parsed) return yield [{ problem: messages.spreadsheet.notUtf8, place: { file } }];
    if ('windows1252' in parsed) {
      yield [{ notice: messages.spreadsheet.readAsWindows1252, place: { file } }];
      continue;
    }
    if ('records' in parsed) {
      bytesRead(parsed.bytes);
      for (const cells of parsed.records) {
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
      continue;
    }
    // The header, when it can be read, names the column of the error.
    const { failure } = parsed;
    if (!table) header = parsed.header;
    const column = failure.column === undefined ? undefined : header[failure.column];
    return yield [...batch, { ...syntaxError(failure, column?.trim() || undefined), place: { file, row: failure.records + 1 } }];
  }
  yield [...batch, ...(table?.end() ?? [])];
}

/** A CSV file's bytes: on disk, or in pieces (an upload's). */
export type CsvSource = { path: string } | { pieces: Pieces };

/**
 * Files on disk this large or larger are parsed in a worker thread: parsing took about a fifth of
 * a large import's time on the event loop; for a small file, starting the thread costs more than it saves.
 */
const IN_WORKER = 1024 * 1024;

/** Pieces a worker parses ahead of the records taken here: enough to keep it busy, few enough to hold little. */
const AHEAD = 4;

/**
 * The file parsed in a worker thread (csvWorker.ts), which runs parsedPieces and sends what it
 * gives, up to AHEAD of what is taken here. A failure there (the file gone) is thrown here as it
 * would have been thrown by parsing here, with its message and code.
 */
async function* parsedInWorker(path: string, encoding?: Encoding): AsyncGenerator<Parsed> {
  const worker = new Worker(new URL('./csvWorker.js', import.meta.url), { name: 'csv-parse', workerData: { path, encoding } satisfies CsvWork });
  const arrived: CsvMessage[] = [];
  let wake: (() => void) | undefined;
  const arrive = (message: CsvMessage) => {
    arrived.push(message);
    wake?.();
  };
  worker.on('message', arrive);
  worker.on('error', (error) => arrive({ error: { message: error.message } }));
  // Ended without saying so: it sends `end` or its error first, and is stopped here after either.
  worker.on('exit', (code) => arrive({ error: { message: `the CSV parser's thread stopped (${code}) before the end of ${path}` } }));
  try {
    worker.postMessage(AHEAD);
    for (;;) {
      while (arrived.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const message = arrived.shift() as CsvMessage;
      if ('end' in message) return;
      if ('error' in message) throw Object.assign(new Error(message.error.message), message.error.code === undefined ? {} : { code: message.error.code });
      worker.postMessage(1);
      yield message;
    }
  } finally {
    await worker.terminate();
  }
}

/** csv-parse's error as a sentence naming the sheet's row: the record it was reading, counted as the sheet counts rows. */
function syntaxError(error: SyntaxFailure, label: string | undefined): { problem: string; label?: string } {
  const sentences = messages.spreadsheet.csv;
  const at = messages.spreadsheet.csvAt(error.records + 1, label);
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
    }[error.code] ?? sentences.other;
  return { problem: sentence(at), ...(label !== undefined && { label }) };
}

