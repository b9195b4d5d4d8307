import { unzipSync } from 'fflate';
import readXlsxFile from 'read-excel-file/node';
import { labelsOfResource } from '../../catalogue/labels.js';
import { messages } from '../../catalogue/messages.js';
import type { AnyResource } from '../../resources/define.js';
import { resources } from '../../resources/index.js';
import { readTable, resourceNamed } from './table.js';
import type { Cell, Incoming } from './types.js';

/** A workbook that cannot be read as one: not an .xlsx file, or a damaged one. */
export class NotAWorkbook extends Error {}

/**
 * A workbook's records: one sheet per resource, named by its path (`peliculas`) or its Spanish
 * label (`Películas`), read in the order resources refer to each other and with the same header,
 * value and report rules as CSV. Cells keep what the file holds: text untrimmed, numbers as the
 * file writes them (validation judges them as the API does), dates as the wall clock they show.
 */
export async function readWorkbook(file: string, bytes: Buffer): Promise<Incoming[]> {
  let sheets: { sheet: string; data: Cell[][] }[];
  if (unpackedSize(file, bytes) > MOST_UNPACKED) throw new NotAWorkbook(messages.spreadsheet.workbookTooLarge(file, MOST_UNPACKED));
  try {
    sheets = (await readXlsxFile(bytes, { trim: false, parseNumber: (text) => text })) as { sheet: string; data: Cell[][] }[];
  } catch {
    throw new NotAWorkbook(messages.transfer.notWorkbook(file));
  }
  const named = sheets.map((s) => ({ ...s, resource: resourceNamed(s.sheet) }));
  const unknown = named.filter((s) => !s.resource && s.data.some((row) => row.some((cell) => cell !== null && cell !== '')));
  const items: Incoming[] = unknown.map((s) => ({
    problem: messages.spreadsheet.unknownSheet(s.sheet, resources.map((r) => `${labelsOfResource(r.name)[1]} (${r.name})`)),
    place: { file, sheet: s.sheet },
  }));
  const order = (resource: AnyResource | undefined) => (resource ? resources.indexOf(resource) : -1);
  for (const { sheet, data, resource } of named.filter((s) => s.resource).sort((a, b) => order(a.resource) - order(b.resource))) {
    if (resource) items.push(...readTable(data, resource, { file, sheet }));
  }
  return items;
}

/** The most bytes a workbook's parts may unpack to: a catalogue of 100,000 movies takes about a tenth. */
const MOST_UNPACKED = 256 * 1024 * 1024;

/**
 * What a workbook (a zip archive) says its parts unpack to, read from its directory without
 * unpacking anything: a small file that would fill memory is refused before it is read.
 */
function unpackedSize(file: string, bytes: Buffer): number {
  let total = 0;
  try {
    unzipSync(bytes, { filter: (part) => ((total += part.originalSize), false) });
  } catch {
    throw new NotAWorkbook(messages.transfer.notWorkbook(file));
  }
  return total;
}
