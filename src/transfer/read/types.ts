import type { AnyResource } from '../../resources/define.js';

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

/** A spreadsheet's cell: text (all of a CSV's), or a workbook's number, boolean or date. */
export type Cell = string | number | boolean | Date | null;

export type Encoding = 'utf-8' | 'windows-1252';

export interface ReadOptions {
  /** How CSV bytes are read: UTF-8, else Windows-1252 (undefined), or only the one named. */
  encoding?: Encoding;
}

/** A file (or folder) the command line was given that cannot be read as an import. */
export class UnreadableInput extends Error {}

/** Records a reader hands on at once: one await per batch, not per record, is what keeps a large import fast. */
export const BATCH = 1000;
