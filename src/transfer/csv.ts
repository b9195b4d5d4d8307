import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { fieldLabels } from '../catalogue/labels.js';
import { normalizeKey } from '../catalogue/keys.js';
import { messages } from '../catalogue/messages.js';
import type { AnyResource } from '../resources/define.js';
import type { Incoming } from './readers.js';
import { spreadsheetValue } from './spreadsheetValues.js';

export type Encoding = 'utf-8' | 'windows-1252';

/** What a CSV file gave: its records and problems, and how its bytes were read. */
export interface CsvFile {
  items: Incoming[];
  /** Said to the user, not a problem: the file was not UTF-8 and was read as Windows-1252. */
  notice?: string;
}

const SEPARATORS = [';', ',', '\t'] as const;

/**
 * A spreadsheet's CSV, read as the spreadsheet meant it: the separator its header line uses (and
 * that one alone), UTF-8 or else Windows-1252, headers by field name or by the admin's label, empty
 * rows skipped, rows numbered as the spreadsheet numbers them (the header is row 1). Nothing is
 * dropped: a row with more cells than the header is a problem.
 */
export function readCsvFile(file: string, resource: AnyResource, encoding?: Encoding): CsvFile {
  const { text, notice } = decode(readFileSync(file), encoding);
  const separator = separatorOf(text);
  let rows: string[][];
  try {
    rows = parse(text, { delimiter: separator, relax_column_count: true, skip_empty_lines: false, bom: true }) as string[][];
  } catch (error) {
    return { items: [{ problem: `not valid CSV (${error instanceof Error ? error.message : String(error)})`, place: { file } }], notice };
  }
  const [header = [], ...body] = rows;
  const columns = header.map((cell) => fieldNamed(resource, cell));
  const unknown = header.filter((cell, i) => columns[i] === undefined && cell.trim() !== '');
  if (unknown.length > 0) {
    const expected = Object.entries(labelsOf(resource)).map(([field, label]) => `${field} (${label})`);
    return { items: [{ problem: messages.spreadsheet.unknownHeaders(unknown, expected), place: { file, row: 1 } }], notice };
  }
  const items: Incoming[] = [];
  body.forEach((cells, i) => {
    const row = i + 2;
    if (cells.every((cell) => cell.trim() === '')) return;
    const place = { file, row };
    const extra = cells.slice(header.length).filter((cell) => cell.trim() !== '');
    if (extra.length > 0) {
      items.push({ problem: messages.spreadsheet.extraCells(row, cells.length, header.length), place });
      return;
    }
    const record: Record<string, unknown> = {};
    const given: Record<string, string> = {};
    cells.forEach((cell, c) => {
      const field = columns[c];
      if (field === undefined || cell.trim() === '') return;
      record[field] = spreadsheetValue(resource.kinds[field], field, cell);
      given[field] = cell;
    });
    items.push({ resource, record, place, given });
  });
  return { items, notice };
}

/** UTF-8 (a BOM is dropped), or, when the bytes are not UTF-8, Windows-1252, which says so. */
function decode(bytes: Buffer, forced: Encoding | undefined): { text: string; notice?: string } {
  if (forced === 'windows-1252') return { text: new TextDecoder('windows-1252').decode(bytes) };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    if (forced === 'utf-8') throw new NotUtf8();
    return { text: new TextDecoder('windows-1252').decode(bytes), notice: 'not UTF-8: read as Windows-1252 (as Excel saves "CSV"); --encoding utf-8 refuses such a file instead' };
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

/** A header compared as people write it: no case, accents, spaces, or what follows a parenthesis. */
const headerKey = (text: string) => normalizeKey(text.replace(/\(.*$/, '')).replace(/[\s_.:]/g, '');

function labelsOf(resource: AnyResource): Record<string, string> {
  const labels: Record<string, string> = (fieldLabels as Record<string, Record<string, string>>)[resource.name] ?? {};
  // A reference may be named by its lookup value (`categoria`: the category's name) instead of its id.
  const aliases = Object.entries(resource.references ?? {}).flatMap(([field, ref]) => (ref.byLookup ? [[ref.byLookup, labels[field] ?? ref.byLookup]] : []));
  return { ...labels, ...Object.fromEntries(aliases) };
}

/** The field a header names, by its name or its label; undefined when it names none. */
function fieldNamed(resource: AnyResource, header: string): string | undefined {
  const key = headerKey(header);
  const names = [resource.key.name, ...resource.fieldNames, ...Object.values(resource.references ?? {}).flatMap((r) => (r.byLookup ? [r.byLookup] : []))];
  const byName = names.find((name) => headerKey(name) === key);
  if (byName) return byName;
  const labels = labelsOf(resource);
  // The label of a reference names its lookup alias: "Categoría" holds the category's name.
  const byLabel = Object.entries(labels).filter(([, label]) => headerKey(label) === key).map(([field]) => field);
  return byLabel.find((field) => !(field in (resource.references ?? {}))) ?? byLabel[0];
}
