import { SaxesParser } from 'saxes';
import type { PartReader } from './zip.js';

// An .xlsx workbook's parts other than its sheets, read as read-excel-file reads them (its rules,
// not the letter of ECMA-376, wherever the two differ: its cells are what imports have given).

/** What a part's XML tells as it is parsed: an element opens (its name without prefix, its attributes by name without prefix), closes, or holds text. */
export interface XmlEvents {
  open?: (name: string, attributes: Record<string, string>) => void;
  close?: (name: string) => void;
  text?: (text: string) => void;
}

/**
 * A part's XML parsed as it comes (by saxes, as .ods is), names without their namespace prefix
 * (`x:row` is `row`). Throws on XML that is not well formed.
 */
export function xmlReader(events: XmlEvents): PartReader & { closed: boolean } {
  const parser = new SaxesParser();
  const { open, close, text } = events;
  if (open) {
    parser.on('opentag', (tag) => {
      const attributes = tag.attributes as Record<string, string>;
      open(local(tag.name), Object.keys(attributes).some((name) => name.includes(':')) ? withoutPrefixes(attributes) : attributes);
    });
  }
  if (close) parser.on('closetag', (tag) => close(local(tag.name)));
  if (text) parser.on('text', text);
  parser.on('error', (error) => {
    throw error;
  });
  const carriageReturns = keepingCarriageReturns();
  const reader = {
    closed: false,
    write: (chunk: string) => carriageReturns.pass(chunk, (text) => void parser.write(text)),
    close: () => {
      parser.write(carriageReturns.rest());
      parser.close();
      reader.closed = true;
    },
  };
  return reader;
}

const local = (name: string) => name.slice(name.indexOf(':') + 1);

const withoutPrefixes = (attributes: Record<string, string>) => Object.fromEntries(Object.entries(attributes).map(([name, value]) => [local(name), value]));

/**
 * XML reads a line break written `\r\n` as `\n` (its end-of-line rule), where read-excel-file kept
 * the `\r`, and exports write a cell's `\r\n` as it is: so a `\r` in text that holds more than
 * white space is passed on as the reference `&#13;`, which the parser keeps. Text is passed on up to
 * its last `<`, so that each run of text is seen whole; a piece without `\r` is passed on as it is.
 */
function keepingCarriageReturns() {
  let held = '';
  const markup = (text: string, at: number) => text.lastIndexOf('<', at) > text.lastIndexOf('>', at);
  const keep = (text: string): string => {
    if (!text.includes('\r')) return text;
    return text.replace(/\r/g, (cr, at: number) => {
      if (markup(text, at)) return cr;
      const end = text.indexOf('<', at);
      const run = text.slice(text.lastIndexOf('>', at) + 1, end < 0 ? undefined : end);
      return /\S/.test(run) ? '&#13;' : cr;
    });
  };
  return {
    pass(chunk: string, write: (text: string) => void): void {
      const cut = chunk.lastIndexOf('<');
      if (cut < 0) {
        held += chunk;
        return;
      }
      // The run of text before the cut is whole: the `<` that ends it is held.
      if (held.includes('\r') || chunk.includes('\r')) write(keep(held + chunk.slice(0, cut) + '<').slice(0, -1));
      else {
        // Apart, not joined: a large piece is not copied.
        write(held);
        write(chunk.slice(0, cut));
      }
      held = chunk.slice(cut);
    },
    rest: (): string => keep(held),
  };
}

/** `_x000D_` and the like (ECMA-376's escape for characters XML cannot hold) as the characters they stand for; `_x005F_` escapes an `_`. */
export function unescaped(text: string): string {
  if (!text.includes('_x')) return text;
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The sheets `xl/workbook.xml` names, in its order (their relation ids), and whether its dates count from 1904. */
export interface WorkbookInfo {
  sheets: { name: string; relation: string | undefined }[];
  epoch1904: boolean;
}

export function workbookReader(info: WorkbookInfo): PartReader & { closed: boolean } {
  let properties = false;
  return xmlReader({
    open(name, attributes) {
      // Only the first workbookPr counts (SheetJS and read-excel-file agree); `true` is the schema's other way of writing 1.
      if (name === 'workbookPr' && !properties) {
        properties = true;
        info.epoch1904 = attributes.date1904 === '1' || attributes.date1904 === 'true';
      } else if (name === 'sheet' && attributes.name) info.sheets.push({ name: unescaped(attributes.name), relation: attributes.id });
    },
  });
}

/** Where `xl/_rels/workbook.xml.rels` puts the parts: the sheets by relation id, the shared strings and the styles. */
export interface PartPaths {
  sheets: Map<string, string>;
  sharedStrings?: string;
  styles?: string;
}

const RELATIONSHIPS = ['http://schemas.openxmlformats.org/officeDocument/2006/relationships/', 'http://purl.oclc.org/ooxml/officeDocument/relationships/'];

export function relationsReader(paths: PartPaths): PartReader & { closed: boolean } {
  return xmlReader({
    open(name, { Id, Type, Target }) {
      if (name !== 'Relationship' || Type === undefined || Target === undefined) return;
      const base = RELATIONSHIPS.find((url) => Type.startsWith(url));
      if (base === undefined) return;
      // A target is relative to xl/, or, for some writers, absolute within the archive.
      const path = Target.startsWith('/') ? Target.slice(1) : `xl/${Target}`;
      const kind = Type.slice(base.length);
      if (kind === 'worksheet' && Id !== undefined) paths.sheets.set(Id, path);
      else if (kind === 'sharedStrings') paths.sharedStrings = path;
      else if (kind === 'styles') paths.styles = path;
    },
  });
}

/**
 * `xl/sharedStrings.xml`'s strings, added to `strings` as they are parsed: the only part held, as
 * cells name its strings by their place in it. A string's rich-text runs are joined; its phonetic
 * runs (`rPh`, a reading of East Asian text) are left out.
 */
export function sharedStringsReader(strings: string[]): PartReader & { closed: boolean } {
  let item: { text: string; inText: boolean; inRun: boolean; inPhonetic: boolean } | undefined;
  return xmlReader({
    open(name) {
      if (name === 'si') item = { text: '', inText: false, inRun: false, inPhonetic: false };
      else if (!item) return;
      else if (name === 't') {
        item.inText = true;
        // Outside a run a `t` is the whole string.
        if (!item.inRun && !item.inPhonetic) item.text = '';
      } else if (name === 'r') item.inRun = true;
      else if (name === 'rPh') item.inPhonetic = true;
    },
    close(name) {
      if (name === 'si' && item) {
        // A copy: the parser's text is a slice of the piece it came in, which it would keep whole.
        strings.push(Buffer.from(unescaped(item.text)).toString());
        item = undefined;
      } else if (!item) return;
      else if (name === 't') item.inText = false;
      else if (name === 'r') item.inRun = false;
      else if (name === 'rPh') item.inPhonetic = false;
    },
    text(text) {
      if (item?.inText && !item.inPhonetic) item.text += text;
    },
  });
}

/** A cell style (an `xf` of `cellXfs`, by its place): its number format, by id, with its code when the styles define one. */
export interface CellStyle {
  format?: { id: number; code?: string };
}

/**
 * `xl/styles.xml`'s cell styles, added to `styles`: a style's number format is its own, else that
 * of the base style it names (`xfId`, from `cellStyleXfs`); a format of id 100 or more has the code
 * `numFmts` gives it (Excel 2007 let 100 to 163 be redefined).
 */
export function stylesReader(styles: CellStyle[]): PartReader & { closed: boolean } {
  const codes = new Map<number, string | undefined>();
  const bases: CellStyle[] = [];
  let list: 'bases' | 'cells' | undefined;
  const styleOf = (numFmtId: string | undefined, withCodes: boolean): CellStyle => {
    if (!numFmtId) return {};
    const id = Number(numFmtId);
    return { format: withCodes && codes.has(id) ? { id, code: codes.get(id) } : { id } };
  };
  return xmlReader({
    open(name, attributes) {
      if (name === 'numFmt') {
        const id = Number(attributes.numFmtId);
        codes.set(id, id >= 100 ? attributes.formatCode : undefined);
      } else if (name === 'cellStyleXfs') list = 'bases';
      else if (name === 'cellXfs') list = 'cells';
      else if (name === 'xf' && list === 'bases') bases.push(styleOf(attributes.numFmtId, false));
      else if (name === 'xf' && list === 'cells') {
        const own = styleOf(attributes.numFmtId, true);
        // A base style 0 is not inherited (read-excel-file's rule).
        const base = Number(attributes.xfId) ? bases[Number(attributes.xfId)] : undefined;
        styles.push({ ...base, ...own });
      }
    },
    close(name) {
      if (name === 'cellStyleXfs' || name === 'cellXfs') list = undefined;
    },
  });
}

/** Built-in number formats that show dates or times: locale-independent (14–22, 45–47), Chinese, Japanese and Korean (27–36, 50–58), Thai (71–81). */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81]);

/** The tokens of a date or time format (read-excel-file's list): a format made of these alone shows a date. */
const DATE_TOKENS = new Set(['s', 'ss', 'm', 'mm', 'h', 'hh', 'am', 'pm', 'a', 'p', 'd', 'dd', 'ddd', 'dddd', 'aaa', 'aaaa', 'aaaaa', 'mmm', 'mmmm', 'mmmmm', 'y', 'yy', 'yyyy', 'e', 'ee', 'eeee']);

/** Whether a cell of this style holding a number holds a date: its format is a built-in date format, or a code made of date tokens alone. */
export function showsDate(style: CellStyle, known: Map<number, boolean>): boolean {
  const format = style.format;
  if (!format) return false;
  if (DATE_FORMAT_IDS.has(format.id)) return true;
  if (!format.code) return false;
  let dated = known.get(format.id);
  if (dated === undefined) known.set(format.id, (dated = isDateCode(format.code)));
  return dated;
}

/**
 * A format code that shows a date (`dd/mm/yyyy hh:mm`, `[$-409]mmmm\ yyyy;@`) rather than a number
 * (`#,##0.00`, `0%`): in any of its sections, once quoted and escaped text, fractions of a second,
 * elapsed-time brackets and prefixes (`[Red]`, `[$-409]`) are set aside, every word left is a date
 * token, and no digit placeholder is.
 */
function isDateCode(code: string): boolean {
  const sections = code.toLowerCase().replace(/;@$/, '').replace(/\\./g, ' ').split(';');
  return sections.some((section) => {
    const bare = section
      .replace(/"[^"]*"/g, ' ')
      .replace(/(\[?[smhd]{1,2}\]?)[.,]00?0?/g, '$1')
      .replace(/\[([smhd]{1,2})\]/g, '$1')
      .replace(/\[[^\]]*\]/g, '');
    const tokens = bare.split(/[^a-z0#?%]+/).filter((token) => token !== '');
    return tokens.length > 0 && tokens.every((token) => DATE_TOKENS.has(token));
  });
}
