import readXlsxFile from 'read-excel-file/node';
import { messages } from '../../catalogue/messages.js';
import { numbered, readSheets } from './table.js';
import type { Cell, Incoming } from './types.js';
import { MOST_UNPACKED, unpackedSize } from './zip.js';

/**
 * An .xlsx workbook's records (readSheets), or the one problem that it cannot be read as one.
 * Cells keep what the file holds: text untrimmed, numbers as the file writes them (validation
 * judges them as the API does), dates as the wall clock they show.
 */
export async function readXlsx(file: string, bytes: Buffer): Promise<Incoming[]> {
  const size = unpackedSize(bytes);
  if (size === undefined) return [{ problem: messages.transfer.notWorkbook, place: { file } }];
  if (size > MOST_UNPACKED) return [{ problem: messages.spreadsheet.workbookTooLarge(MOST_UNPACKED), place: { file } }];
  let sheets: { sheet: string; data: Cell[][] }[];
  try {
    sheets = (await readXlsxFile(bytes, { trim: false, parseNumber: (text) => text })) as { sheet: string; data: Cell[][] }[];
  } catch {
    return [{ problem: messages.transfer.notWorkbook, place: { file } }];
  }
  return readSheets(file, sheets.map((s) => ({ name: s.sheet, rows: numbered(s.data) })));
}
