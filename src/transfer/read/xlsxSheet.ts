import type { Cell, Row } from './types.js';
import { DAY_ZERO } from './values.js';
import { showsDate, unescaped, xmlReader, type CellStyle } from './xlsxParts.js';
import type { PartReader } from './zip.js';

/** What a sheet's cells are read with: the shared strings, the cell styles, the date system, and which number formats were found to show dates. */
export interface SheetContext {
  strings: string[];
  styles: CellStyle[];
  epoch1904: boolean;
  dates: Map<number, boolean>;
}

/** A sheet part that cannot be read as one: the workbook is no workbook. */
export class BrokenSheet extends Error {}

/**
 * A sheet part (`xl/worksheets/sheet1.xml`) parsed as it comes, each row that holds a cell handed
 * to `row` as its end tag is read, numbered as the sheet numbers it: its `r`, else its first
 * cell's row, else the row after the last. Its cells are read-excel-file's (what imports have given):
 * a cell's `r` places it (the empty cells a gap leaves are null), text untrimmed (empty text is an
 * empty cell), numbers as the file writes them, booleans, dates of a date format or of type `d`,
 * the cached value of a formula, and a formula's error as an empty cell. A row or cell out of
 * order, a cell that cannot be read (a shared string, style or type that is not there, a boolean
 * other than 0 or 1), or a sheet without `sheetData`, throws BrokenSheet.
 */
export function sheetReader(context: SheetContext, row: (row: Row) => void, width = 0): PartReader & { closed: boolean; width: number } {
  let inData = false;
  let open: { number: number | undefined; cells: Cell[] } | undefined;
  let last = 0;
  const cursor = { row: 0, column: 0 };
  let cell: { r?: string; t?: string; s?: string; v?: string; inline?: string; inV: boolean; inString: boolean; inText: boolean; inRun: boolean; inPhonetic: boolean } | undefined;
  const reader = xmlReader({
    open(name, attributes) {
      if (name === 'sheetData') inData = true;
      else if (!inData) return;
      else if (name === 'row') {
        const number = Number(attributes.r);
        open = { number: attributes.r && number ? number : undefined, cells: [] };
      } else if (name === 'c') cell = { r: attributes.r, t: attributes.t, s: attributes.s, inV: false, inString: false, inText: false, inRun: false, inPhonetic: false };
      else if (!cell) return;
      else if (name === 'v') {
        cell.inV = true;
        cell.v = '';
      } else if (name === 'is') {
        cell.inString = true;
        cell.inline = '';
      } else if (name === 't') {
        cell.inText = true;
        // Outside a run a `t` is the whole string.
        if (cell.inString && !cell.inRun && !cell.inPhonetic) cell.inline = '';
      } else if (name === 'r') cell.inRun = true;
      else if (name === 'rPh') cell.inPhonetic = true;
    },
    close(name) {
      if (!inData) return;
      if (name === 'row' && open) {
        const { number, cells } = open;
        open = undefined;
        if (number) {
          if (number <= last) throw new BrokenSheet(`row ${number} after row ${last}`);
          while (number > last + 1) last++;
        }
        last++;
        if (cells.length === 0) return;
        // As wide as the sheet, when that is known: the header's empty cells are columns too.
        while (cells.length < width) cells.push(null);
        row({ number: last, cells });
      } else if (name === 'c' && cell) {
        const { t, s, v, inline } = cell;
        const [r, column] = addressOf(cell.r);
        cell = undefined;
        if (r < cursor.row || (r === cursor.row && column <= cursor.column)) throw new BrokenSheet(`cell ${r}:${column} after ${cursor.row}:${cursor.column}`);
        cursor.row = r;
        cursor.column = column;
        if (open) open.number ||= r;
        const value = valueOf(t, s, v, inline, context);
        if (value === null) return;
        if (!open) throw new BrokenSheet('a cell outside a row');
        while (column > open.cells.length + 1) open.cells.push(null);
        open.cells.push(value);
        sheet.width = Math.max(sheet.width, column);
      } else if (!cell) return;
      else if (name === 'v') {
        cell.inV = false;
        if (cell.t === 'str') cell.v = unescaped(cell.v ?? '');
      } else if (name === 'is') {
        cell.inString = false;
        cell.inline = unescaped(cell.inline ?? '');
      } else if (name === 't') cell.inText = false;
      else if (name === 'r') cell.inRun = false;
      else if (name === 'rPh') cell.inPhonetic = false;
    },
    text(text) {
      if (!cell) return;
      if (cell.inV) cell.v += text;
      else if (cell.inString && cell.inText && !cell.inPhonetic) cell.inline += text;
    },
  });
  const sheet = {
    closed: false,
    /** The last column that holds a cell, so far. */
    width: 0,
    write: reader.write,
    close() {
      reader.close();
      if (!inData) throw new BrokenSheet('no sheetData');
      sheet.closed = true;
    },
  };
  return sheet;
}

/** `C5` as its row and column, from 1: [5, 3]. */
function addressOf(address: string | undefined): [number, number] {
  let column = 0;
  for (let i = 0; i < (address?.length ?? 0); i++) {
    const code = address?.charCodeAt(i) ?? 0;
    if (code >= 48 && code <= 57) {
      const row = Number(address?.slice(i));
      if (Number.isNaN(row)) break;
      return [row, column];
    }
    column = column * 26 + code - 64;
  }
  throw new BrokenSheet(`no cell address in "${address}"`);
}

/** A cell's value from its type (`t`), style (`s`), `v` and inline string; null for an empty one. */
function valueOf(t: string | undefined, s: string | undefined, v: string | undefined, inline: string | undefined, context: SheetContext): Cell {
  switch (t || 'n') {
    case 'str':
      return v || null;
    case 'inlineStr':
      return inline || null;
    case 's': {
      if (!v) return null;
      const text = context.strings[Number(v)];
      if (text === undefined) throw new BrokenSheet(`no shared string ${v}`);
      return text || null;
    }
    case 'b':
      if (!v) return null;
      if (v === '1' || v === '0') return v === '1';
      throw new BrokenSheet(`a boolean of ${v}`);
    case 'e':
      return null;
    case 'd': {
      if (!v) return null;
      const date = new Date(v);
      if (Number.isNaN(date.getTime())) throw new BrokenSheet(`a date of ${v}`);
      return date;
    }
    case 'n': {
      if (!v) return null;
      if (!s) return v;
      const style = context.styles[Number(s)];
      if (style === undefined) throw new BrokenSheet(`no style ${s}`);
      if (!showsDate(style, context.dates)) return v;
      const serial = Number(v);
      if (Number.isNaN(serial)) throw new BrokenSheet(`a date of ${v}`);
      return new Date(Math.floor((serial + (context.epoch1904 ? EPOCH_1904 : 0) - UNIX_EPOCH) * DAY));
    }
    default:
      throw new BrokenSheet(`a cell of type ${t}`);
  }
}

const DAY = 86_400_000;
/** The Unix epoch as a serial date (25,569): days from the spreadsheets' day zero, Excel's 0 January 1900 with its 29 February 1900 counted. */
const UNIX_EPOCH = -DAY_ZERO / DAY;
/** The 1904 date system's serial 0 in the 1900 system's days. */
const EPOCH_1904 = 1_462;
