import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { messages } from '../../catalogue/messages.js';
import { readSheets } from './table.js';
import type { Cell, Incoming, Row, Sheet } from './types.js';
import { MOST_UNPACKED, unpackedSize } from './zip.js';

const MIMETYPE = 'application/vnd.oasis.opendocument.spreadsheet';
const TABLE = 'urn:oasis:names:tc:opendocument:xmlns:table:1.0';
const OFFICE = 'urn:oasis:names:tc:opendocument:xmlns:office:1.0';
const TEXT = 'urn:oasis:names:tc:opendocument:xmlns:text:1.0';
const CALCEXT = 'urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0';

/** A sheet's size in LibreOffice and Excel: a repeat count past it is the rest of the sheet, empty. */
const MOST_COLUMNS = 16_384;
const MOST_ROWS = 1_048_576;

/**
 * An OpenDocument spreadsheet's records (readSheets), or the one problem that it cannot be read as
 * one. content.xml is unpacked and parsed a piece at a time; a run of repeated empty cells or rows
 * (LibreOffice writes the rest of a styled sheet as one row repeated a million times) only moves
 * the count on. Cells are read as for .xlsx: text as written (its paragraphs as lines), numbers as
 * the file writes them, dates as the wall clock they show, times as a time of day zero.
 */
export function readOds(file: string, bytes: Buffer): Incoming[] {
  const size = unpackedSize(bytes);
  if (size === undefined) return [{ problem: messages.transfer.notOds, place: { file } }];
  if (size > MOST_UNPACKED) return [{ problem: messages.spreadsheet.workbookTooLarge(MOST_UNPACKED), place: { file } }];
  let read: { mimetype: string; sheets: Sheet[] | undefined };
  try {
    read = unpack(bytes);
  } catch {
    return [{ problem: messages.transfer.notOds, place: { file } }];
  }
  if (read.mimetype !== MIMETYPE || read.sheets === undefined) return [{ problem: messages.transfer.notOds, place: { file } }];
  return readSheets(file, read.sheets);
}

/** The archive's mimetype and, parsed as it unpacks, its content.xml's sheets. */
function unpack(bytes: Uint8Array): { mimetype: string; sheets: Sheet[] | undefined } {
  let mimetype = '';
  let content: ContentReader | undefined;
  let unpacked = 0;
  const unzip = new Unzip((entry) => {
    if (entry.name === 'mimetype') {
      entry.ondata = (error, chunk) => {
        if (error) throw error;
        mimetype += new TextDecoder().decode(chunk);
      };
      entry.start();
    } else if (entry.name === 'content.xml') {
      const reader = new ContentReader();
      content = reader;
      const text = new TextDecoder('utf-8', { fatal: true });
      entry.ondata = (error, chunk, final) => {
        if (error) throw error;
        // The directory's sizes may lie: what is really unpacked counts too.
        if ((unpacked += chunk.length) > MOST_UNPACKED) throw new Error('content.xml unpacks past the most allowed');
        reader.write(text.decode(chunk, { stream: !final }));
        if (final) reader.close();
      };
      entry.start();
    }
  });
  unzip.register(UnzipPassThrough);
  unzip.register(UnzipInflate);
  const PIECE = 64 * 1024;
  for (let at = 0; at < bytes.length; at += PIECE) unzip.push(bytes.subarray(at, at + PIECE), at + PIECE >= bytes.length);
  return { mimetype: mimetype.trim(), sheets: content?.sheets() };
}

/** content.xml, parsed as it comes: each table a sheet of rows that hold anything. */
class ContentReader {
  private readonly parser = new SaxesParser({ xmlns: true });
  private readonly done: Sheet[] = [];
  private closed = false;
  private sheet: Sheet | undefined;
  /** Rows of the sheet so far (repeats counted), and the row being read. */
  private rowsSoFar = 0;
  private row: { cells: Cell[]; repeat: number; column: number } | undefined;
  /** The cell being read: its repeat count, its value from attributes, and its text. */
  private cell: { repeat: number; value: Cell | undefined; text: string; paragraphs: number } | undefined;
  /** Inside a text:p (text counts), and inside an office:annotation (a comment: it does not). */
  private inParagraph = 0;
  private inAnnotation = 0;

  constructor() {
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

  sheets(): Sheet[] | undefined {
    return this.closed ? this.done : undefined;
  }

  private open(tag: SaxesTagNS): void {
    if (tag.uri === OFFICE && tag.local === 'annotation') this.inAnnotation++;
    if (this.inAnnotation > 0) return;
    if (tag.uri === TABLE) {
      if (tag.local === 'table' && !this.sheet) {
        this.sheet = { name: attribute(tag, TABLE, 'name') ?? '', rows: [] };
        this.rowsSoFar = 0;
      } else if (tag.local === 'table-row' && this.sheet) {
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
    } else if (tag.local === 'table-row' && this.row && this.sheet) {
      const { cells, repeat } = this.row;
      this.row = undefined;
      if (cells.length > 0) {
        const dense = Array.from(cells, (cell) => cell ?? null);
        for (let i = 0; i < repeat && this.rowsSoFar + i < MOST_ROWS; i++) this.sheet.rows.push({ number: this.rowsSoFar + i + 1, cells: dense } satisfies Row);
      }
      this.rowsSoFar += repeat;
    } else if (tag.local === 'table' && this.sheet) {
      this.done.push(this.sheet);
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

const DAY_ZERO = Date.UTC(1899, 11, 30);
