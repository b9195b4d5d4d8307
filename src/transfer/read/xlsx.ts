import { unzipSync } from 'fflate';
import { messages } from '../../catalogue/messages.js';
import { isEmptyRow, workbookRecords, type SheetEvents } from './table.js';
import type { Incoming } from './types.js';
import { relationsReader, sharedStringsReader, stylesReader, workbookReader, type CellStyle, type PartPaths, type WorkbookInfo } from './xlsxParts.js';
import { sheetReader, type SheetContext } from './xlsxSheet.js';
import { MOST_UNPACKED, unpackedSize, unpackingParts, walksOver, type PartReader, type Walks } from './zip.js';

/**
 * An .xlsx workbook's records (a workbook's rules: table.ts), a batch at a time as its sheets unpack,
 * or the one problem that it cannot be read as one. Its rows are never held as a list; what is
 * held is its shared strings (cells name them by their place), its styles and its sheets' names.
 * A first pass reads the shared strings and styles, a second checks every sheet (so a damaged
 * workbook is one problem, before any record) and notes whether it holds anything; then the sheets
 * that name a resource are read in the order resources refer to each other, each row handed on as
 * it is parsed (in one more pass when the archive keeps that order, as exports do; else one per run
 * of sheets in order). Cells are read-excel-file's (xlsxSheet.ts): text untrimmed, numbers as the
 * file writes them, dates as the wall clock they show. `bytesRead` is told of the archive's bytes
 * over all the passes: each pass an equal share.
 */
export async function* readXlsx(file: string, bytes: Buffer, bytesRead: (n: number) => void = () => {}): AsyncGenerator<Incoming[]> {
  const size = unpackedSize(bytes);
  if (size === undefined) return yield [{ problem: messages.transfer.notWorkbook, place: { file } }];
  if (size > MOST_UNPACKED) return yield [{ problem: messages.spreadsheet.workbookTooLarge(MOST_UNPACKED), place: { file } }];
  // The strings and styles, the check, then (as far as is known before the check ends) the records in one more pass.
  const progress = walksOver(bytes.length, bytesRead, 3);
  let workbook: XlsxWorkbook;
  try {
    workbook = openXlsx(bytes, progress);
  } catch {
    return yield [{ problem: messages.transfer.notWorkbook, place: { file } }];
  }
  yield* workbookRecords(file, workbook.sheets, workbook.read, progress);
}

/** An .xlsx workbook opened and checked: its sheets in its order, each with its part's place in the archive (-1 for a sheet with no worksheet part: a chart's), and a way to read some of them. */
export interface XlsxWorkbook {
  sheets: { name: string; index: number; filled: boolean }[];
  /** The sheets whose parts are at `indexes` read in one pass, in the archive's order; yields each piece's size. */
  read(indexes: Set<number>, events: SheetEvents): Generator<number>;
}

/**
 * An .xlsx workbook's structure read and every sheet checked, telling `progress` of its two passes;
 * throws when it is no workbook: a part missing or not well-formed, a sheet that cannot be read.
 */
export function openXlsx(bytes: Uint8Array, progress: Walks = walksOver(bytes.length, () => {}, 2)): XlsxWorkbook {
  const info: WorkbookInfo = { sheets: [], epoch1904: false };
  const paths: PartPaths = { sheets: new Map() };
  readWhole(bytes, new Map([['xl/workbook.xml', workbookReader(info)], ['xl/_rels/workbook.xml.rels', relationsReader(paths)]]));
  const context: SheetContext = { strings: [], styles: [], epoch1904: info.epoch1904, dates: new Map() };
  const styles: CellStyle[] = [];
  const parts = new Map([[paths.sharedStrings ?? 'xl/sharedStrings.xml', sharedStringsReader(context.strings)], [paths.styles ?? 'xl/styles.xml', stylesReader(styles)]]);
  walk(bytes, parts, progress);
  context.styles = styles;
  // Each sheet's part, and its place among the archive's parts, which the check's pass finds.
  const sheetParts = info.sheets.map((sheet) => (sheet.relation === undefined ? undefined : paths.sheets.get(sheet.relation)));
  const places = new Map<string, number>();
  const widths: number[] = [];
  const sheets = info.sheets.map((sheet) => ({ name: sheet.name, index: -1, filled: false }));
  let place = 0;
  const pieces = unpackingParts(bytes, (name) => {
    places.set(name, place++);
    const at = sheetParts.indexOf(name);
    const sheet = sheets[at];
    if (!sheet) return undefined;
    const reader = sheetReader(context, (row) => {
      if (!sheet.filled && !isEmptyRow(row)) sheet.filled = true;
    });
    return { write: reader.write, close: () => (reader.close(), (widths[at] = reader.width)) };
  });
  progress.walk(pieces);
  sheetParts.forEach((part, at) => {
    if (part === undefined) return;
    const index = places.get(part);
    const sheet = sheets[at];
    if (index === undefined || !sheet) throw new Error(`no ${part} in the archive`);
    sheet.index = index;
  });
  return {
    sheets,
    *read(indexes, events) {
      let place = 0;
      yield* unpackingParts(bytes, () => {
        const index = place++;
        if (!indexes.has(index)) return undefined;
        const reader = sheetReader(context, (row) => events.row(index, row), widths[sheets.findIndex((sheet) => sheet.index === index)]);
        return { write: reader.write, close: () => (reader.close(), events.end(index)) };
      });
    },
  };
}

/** Small parts unpacked whole and read; throws when one is not in the archive. */
function readWhole(bytes: Uint8Array, readers: Map<string, PartReader>): void {
  const parts = new Map(Object.entries(unzipSync(bytes, { filter: (part) => readers.has(part.name) })));
  for (const [name, reader] of readers) {
    const part = parts.get(name);
    if (!part) throw new Error(`no ${name} in the archive`);
    reader.write(new TextDecoder('utf-8', { fatal: true }).decode(part));
    reader.close();
  }
}

/** Parts read in one pass, as they unpack, each by its reader; a part that is not in the archive is left unread (read-excel-file's reading of a workbook without shared strings or styles). The pass ends once they are read. */
function walk(bytes: Uint8Array, readers: Map<string, PartReader>, progress: Walks): void {
  const left = new Set(readers.keys());
  const pieces = unpackingParts(bytes, (name) => {
    const reader = readers.get(name);
    return reader && { write: reader.write, close: () => (reader.close(), left.delete(name)) };
  });
  progress.walk(pieces, () => left.size === 0);
}
