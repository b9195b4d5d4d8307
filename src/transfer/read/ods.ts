import { SaxesParser, type SaxesTagNS } from 'saxes';
import { messages } from '../../catalogue/messages.js';
import { isEmptyRow, workbookRecords } from './table.js';
import type { Cell, Incoming, Row } from './types.js';
import { DAY_ZERO } from './values.js';
import { MOST_UNPACKED, unpackedSize, unpackingParts, walksOver } from './zip.js';

const MIMETYPE = 'application/vnd.oasis.opendocument.spreadsheet';
const TABLE = 'urn:oasis:names:tc:opendocument:xmlns:table:1.0';
const OFFICE = 'urn:oasis:names:tc:opendocument:xmlns:office:1.0';
const TEXT = 'urn:oasis:names:tc:opendocument:xmlns:text:1.0';
const CALCEXT = 'urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0';

/** A sheet's size in LibreOffice and Excel: a repeat count past it is the rest of the sheet, empty. */
const MOST_COLUMNS = 16_384;
const MOST_ROWS = 1_048_576;

/**
 * An OpenDocument spreadsheet's records (a workbook's rules: table.ts), a batch at a time as content.xml
 * unpacks, or the one problem that it cannot be read as one. Its rows are never held as a list:
 * a first pass checks the whole archive and notes each sheet's name and whether it holds
 * anything; then the sheets that name a resource are read in the order resources refer to each
 * other, each row handed on as it is parsed (in one more pass when the workbook keeps that order,
 * as exports do; else one per run of sheets in order). A run of repeated empty cells or rows
 * (LibreOffice writes the rest of a styled sheet as one row repeated a million times) only moves
 * the count on. Cells are read as for .xlsx: text as written (its paragraphs as lines), numbers
 * as the file writes them, dates as the wall clock they show, times as a time of day zero.
 * `bytesRead` is told of the archive's bytes over all the passes: each pass an equal share.
 */
export async function* readOds(file: string, bytes: Buffer, bytesRead: (n: number) => void = () => {}): AsyncGenerator<Incoming[]> {
  const size = unpackedSize(bytes);
  if (size === undefined) return yield [{ problem: messages.transfer.notOds, place: { file } }];
  if (size > MOST_UNPACKED) return yield [{ problem: messages.spreadsheet.workbookTooLarge(MOST_UNPACKED), place: { file } }];
  const sheets: { name: string; filled: boolean }[] = [];
  // The check, then (as far as is known before it ends) the records in one more walk.
  const progress = walksOver(bytes.length, bytesRead, 2);
  let mimetype = '';
  try {
    progress.walk(unpacking(bytes, {
      sheet: (name) => void sheets.push({ name, filled: false }),
      row: (index, row) => {
        const sheet = sheets[index];
        if (sheet && !sheet.filled && !isEmptyRow(row)) sheet.filled = true;
      },
    }, (text) => (mimetype += text)));
  } catch {
    return yield [{ problem: messages.transfer.notOds, place: { file } }];
  }
  if (mimetype.trim() !== MIMETYPE) return yield [{ problem: messages.transfer.notOds, place: { file } }];
  yield* workbookRecords(file, sheets.map((sheet, index) => ({ ...sheet, index })), (_, events) => unpacking(bytes, events), progress);
}

/** What content.xml's reading tells as it goes: a table begins (its name), a row of table `index` is read, a table ends. */
interface ContentEvents {
  sheet?: (name: string) => void;
  row?: (index: number, row: Row) => void;
  end?: (index: number) => void;
}

/** The archive pushed a piece at a time, content.xml parsed as it unpacks; yields each piece's size once it is parsed. */
function* unpacking(bytes: Uint8Array, events: ContentEvents, mimetype?: (text: string) => void): Generator<number> {
  let content: ContentReader | undefined;
  yield* unpackingParts(bytes, (name) => {
    if (name === 'mimetype' && mimetype) return { write: mimetype, close: () => {} };
    if (name === 'content.xml') return (content = new ContentReader(events));
    return undefined;
  });
  if (!content?.closed) throw new Error('no content.xml, or one that ends early');
}

/** content.xml, parsed as it comes: each table's rows that hold anything, told as they are read. */
class ContentReader {
  private readonly parser = new SaxesParser({ xmlns: true });
  closed = false;
  /** The table being read (its index, from 0), and how many have begun. */
  private sheet: number | undefined;
  private sheets = 0;
  /** Rows of the sheet so far (repeats counted), and the row being read. */
  private rowsSoFar = 0;
  private row: { cells: Cell[]; repeat: number; column: number } | undefined;
  /** The cell being read: its repeat count, its value from attributes, and its text. */
  private cell: { repeat: number; value: Cell | undefined; text: string; paragraphs: number } | undefined;
  /** Inside a text:p (text counts), and inside an office:annotation (a comment: it does not). */
  private inParagraph = 0;
  private inAnnotation = 0;

  constructor(private readonly events: ContentEvents) {
    this.parser.on('opentag', (tag) => this.open(tag));
    this.parser.on('closetag', (tag) => this.close_(tag));
    this.parser.on('text', (text) => this.text(text));
  }

  write(text: string): void {
    this.parser.write(text);
  }

  close(): void {
    this.parser.close();
    this.closed = true;
  }

  private open(tag: SaxesTagNS): void {
    if (tag.uri === OFFICE && tag.local === 'annotation') this.inAnnotation++;
    if (this.inAnnotation > 0) return;
    if (tag.uri === TABLE) {
      if (tag.local === 'table' && this.sheet === undefined) {
        this.sheet = this.sheets++;
        this.rowsSoFar = 0;
        this.events.sheet?.(attribute(tag, TABLE, 'name') ?? '');
      } else if (tag.local === 'table-row' && this.sheet !== undefined) {
        this.row = { cells: [], repeat: count(attribute(tag, TABLE, 'number-rows-repeated')), column: 0 };
      } else if ((tag.local === 'table-cell' || tag.local === 'covered-table-cell') && this.row) {
        this.cell = { repeat: count(attribute(tag, TABLE, 'number-columns-repeated')), value: valueOf(tag), text: '', paragraphs: 0 };
      }
    } else if (tag.uri === TEXT && this.cell) {
      if (tag.local === 'p' || tag.local === 'h') {
        if (this.cell.paragraphs++ > 0) this.cell.text += '\n';
        this.inParagraph++;
      } else if (tag.local === 's') this.cell.text += ' '.repeat(count(attribute(tag, TEXT, 'c')));
      else if (tag.local === 'tab') this.cell.text += '\t';
      else if (tag.local === 'line-break') this.cell.text += '\n';
    }
  }

  private close_(tag: SaxesTagNS): void {
    if (tag.uri === OFFICE && tag.local === 'annotation') {
      this.inAnnotation--;
      return;
    }
    if (this.inAnnotation > 0) return;
    if (tag.uri === TEXT && (tag.local === 'p' || tag.local === 'h') && this.cell) this.inParagraph--;
    if (tag.uri !== TABLE) return;
    if ((tag.local === 'table-cell' || tag.local === 'covered-table-cell') && this.cell && this.row) {
      const { repeat, value, text } = this.cell;
      this.cell = undefined;
      const cell = value !== undefined ? value : text === '' ? null : text;
      const row = this.row;
      if (cell === null) row.column += repeat;
      else {
        for (let i = 0; i < repeat && row.column < MOST_COLUMNS; i++) row.cells[row.column++] = cell;
      }
    } else if (tag.local === 'table-row' && this.row && this.sheet !== undefined) {
      const { cells, repeat } = this.row;
      this.row = undefined;
      if (cells.length > 0) {
        const dense = Array.from(cells, (cell) => cell ?? null);
        for (let i = 0; i < repeat && this.rowsSoFar + i < MOST_ROWS; i++) this.events.row?.(this.sheet, { number: this.rowsSoFar + i + 1, cells: dense } satisfies Row);
      }
      this.rowsSoFar += repeat;
    } else if (tag.local === 'table' && this.sheet !== undefined) {
      this.events.end?.(this.sheet);
      this.sheet = undefined;
    }
  }

  private text(text: string): void {
    if (this.cell && this.inParagraph > 0 && this.inAnnotation === 0) this.cell.text += text;
  }
}

function attribute(tag: SaxesTagNS, uri: string, local: string): string | undefined {
  for (const a of Object.values(tag.attributes)) if (a.uri === uri && a.local === local) return a.value;
  return undefined;
}

/** A repeat or space count: a positive integer, 1 when absent. */
function count(value: string | undefined): number {
  const n = Number(value ?? 1);
  return Number.isSafeInteger(n) && n > 0 ? n : 1;
}

/**
 * A cell's value as its attributes give it; undefined for text (its paragraphs give it) and for an
 * empty cell. A formula that failed (#DIV/0!) is an empty cell, as in an .xlsx, not the 0 LibreOffice writes for it.
 */
function valueOf(tag: SaxesTagNS): Cell | undefined {
  if (attribute(tag, CALCEXT, 'value-type') === 'error') return null;
  const type = attribute(tag, OFFICE, 'value-type');
  if (type === 'float' || type === 'percentage' || type === 'currency') return attribute(tag, OFFICE, 'value') ?? null;
  if (type === 'boolean') return attribute(tag, OFFICE, 'boolean-value') === 'true';
  if (type === 'date') return dateOf(attribute(tag, OFFICE, 'date-value'));
  if (type === 'time') return timeOf(attribute(tag, OFFICE, 'time-value'));
  if (type === 'string') return attribute(tag, OFFICE, 'string-value');
  return undefined;
}

/** `2026-12-25T21:30:00` (the wall clock the sheet shows) or `2026-12-25` as a date cell whose UTC fields hold it. */
function dateOf(value: string | undefined): Cell {
  const date = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d+)?)?$/.test(value ?? '') ? new Date(value?.includes('T') ? `${value}Z` : `${value}T00:00:00Z`) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : (value ?? null);
}

/** `PT01H52M00S` as a time of the spreadsheet's day zero (30/12/1899), as .xlsx holds a time cell. */
function timeOf(value: string | undefined): Cell {
  const parts = /^PT(\d+)H(\d+)M(\d+(?:\.\d+)?)S$/.exec(value ?? '');
  if (!parts) return value ?? null;
  const ms = Math.round(((Number(parts[1]) * 60 + Number(parts[2])) * 60 + Number(parts[3])) * 1000);
  return new Date(DAY_ZERO + ms);
}

