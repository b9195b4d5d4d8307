import { CsvError, parse } from 'csv-parse/sync';
import { messages } from '../../catalogue/messages.js';
import type { AnyResource } from '../../resources/define.js';
import { numbered, readTable } from './table.js';
import type { Encoding, Incoming } from './types.js';

/** What a CSV file gave: its records and problems, and how its bytes were read. */
export interface CsvFile {
  items: Incoming[];
  /** Said to the user, not a problem: the file was not UTF-8 and was read as Windows-1252. */
  notice?: string;
}

const SEPARATORS = [';', ',', '\t'] as const;

/**
 * A spreadsheet's CSV, read as the spreadsheet meant it: the separator its header line uses (and
 * that one alone), UTF-8 or else Windows-1252, then the table's rules (table.ts): headers by field
 * name or by the admin's label, empty rows skipped, rows numbered as the spreadsheet numbers them.
 */
export function readCsv(file: string, bytes: Buffer, resource: AnyResource, encoding?: Encoding): CsvFile {
  const decoded = decode(bytes, encoding);
  if (decoded === undefined) return { items: [{ problem: messages.spreadsheet.notUtf8, place: { file } }] };
  const { text, notice } = decoded;
  const options = { delimiter: separatorOf(text), relax_column_count: true, skip_empty_lines: false, bom: true };
  let rows: string[][];
  try {
    rows = parse(text, options) as string[][];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // The header, when it can be read, names the column of the error.
    let header: string[] = [];
    try {
      header = (parse(text, { ...options, to: 1 }) as string[][])[0] ?? [];
    } catch {
      // the error is in the header itself
    }
    const column = typeof error.column === 'number' ? header[error.column] : undefined;
    return { items: [{ ...syntaxError(error, column?.trim() || undefined), place: { file, row: (Number(error.records) || 0) + 1 } }], notice };
  }
  return { items: readTable(numbered(rows), resource, { file }), notice };
}

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

/** UTF-8 (a BOM is dropped), or, when the bytes are not UTF-8, Windows-1252, which says so; undefined when only UTF-8 would do. */
function decode(bytes: Buffer, forced: Encoding | undefined): { text: string; notice?: string } | undefined {
  if (forced === 'windows-1252') return { text: new TextDecoder('windows-1252').decode(bytes) };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    if (forced === 'utf-8') return undefined;
    return { text: new TextDecoder('windows-1252').decode(bytes), notice: messages.spreadsheet.readAsWindows1252 };
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
