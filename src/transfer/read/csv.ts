import { parse } from 'csv-parse/sync';
import { messages } from '../../catalogue/messages.js';
import type { AnyResource } from '../../resources/define.js';
import { readTable } from './table.js';
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
  const { text, notice } = decode(bytes, encoding);
  let rows: string[][];
  try {
    rows = parse(text, { delimiter: separatorOf(text), relax_column_count: true, skip_empty_lines: false, bom: true }) as string[][];
  } catch (error) {
    return { items: [{ problem: messages.spreadsheet.invalidCsv(error instanceof Error ? error.message : String(error)), place: { file } }], notice };
  }
  return { items: readTable(rows, resource, { file }), notice };
}

/** UTF-8 (a BOM is dropped), or, when the bytes are not UTF-8, Windows-1252, which says so. */
function decode(bytes: Buffer, forced: Encoding | undefined): { text: string; notice?: string } {
  if (forced === 'windows-1252') return { text: new TextDecoder('windows-1252').decode(bytes) };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    if (forced === 'utf-8') throw new NotUtf8();
    return { text: new TextDecoder('windows-1252').decode(bytes), notice: messages.spreadsheet.readAsWindows1252 };
  }
}

/** A file that --encoding utf-8 said is UTF-8 and is not. */
export class NotUtf8 extends Error {
  constructor() {
    super('not valid UTF-8 (--encoding utf-8); save it as "CSV UTF-8", or leave --encoding out to read it as Windows-1252');
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
