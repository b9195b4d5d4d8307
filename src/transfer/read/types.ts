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

/** A spreadsheet (a CSV file named after its resource, or a workbook): its bytes as an upload gives them, or its path on disk, read as it is parsed. */
export type SpreadsheetFile = { name: string; bytes: Buffer } | { name: string; path: string };

/** A problem the reader found: a cell it cannot read, or a column the header lacks. */
export interface ReadProblem {
  sentence: string;
  /** The field the cell or column is of. */
  field?: string;
  /** The column as the sheet names it (`Duración (minutos)`), or the field's label when the sheet lacks it. */
  label?: string;
  /** The cell as the sheet shows it. */
  value?: string;
}

/** A record as a file gives it. */
export interface Read {
  resource: AnyResource;
  record: Record<string, unknown>;
  place: Place;
  /** A spreadsheet's cells as the file wrote them, by field, for the report, where the record holds them converted. */
  given?: Record<string, string>;
  /** A spreadsheet's columns as its header names them, by field: what the report calls them. */
  columns?: Record<string, string>;
  /** Cells of the row the reader could not read: reported with the row's other problems, and left out of the record. */
  problems?: ReadProblem[];
  /** Fields whose column the sheet lacks, already reported once for the sheet: no row repeats it. */
  absent?: string[];
}

export type Incoming =
  | Read
  /** Something in the file that is no record of any resource: a file, a sheet or a header that cannot be read. */
  | ({ problem: string; place: Place } & Omit<ReadProblem, 'sentence'>)
  /** Something the reader did that the user should know, not a problem. */
  | { notice: string; place: Place };

/** One row of a sheet or CSV file: its number as the spreadsheet numbers it (from 1), and its cells. */
export interface Row {
  number: number;
  cells: Cell[];
}

/** A spreadsheet's cell: text (all of a CSV's), or a workbook's number, boolean or date. */
export type Cell = string | number | boolean | Date | null;

export type Encoding = 'utf-8' | 'windows-1252';

export interface ReadOptions {
  /** How CSV bytes are read: UTF-8, else Windows-1252 (undefined), or only the one named. */
  encoding?: Encoding;
}

/** A file (or folder) the command line was given that cannot be read as an import. */
export class UnreadableInput extends Error {}

/**
 * Records a reader hands on at once: one await per batch, not per record, is what keeps a large
 * import fast; and few enough that a batch is stored before V8 moves it to the old generation,
 * which grows to several times what is live before it is collected (bench/analysis.md, the import).
 */
export const BATCH = 200;
