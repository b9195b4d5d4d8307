import { fieldLabels, labelsOfResource } from '../../catalogue/labels.js';
import { normalizeKey } from '../../catalogue/keys.js';
import { messages } from '../../catalogue/messages.js';
import type { AnyResource } from '../../resources/define.js';
import { resources } from '../../resources/index.js';
import type { Cell, Incoming, Place } from './types.js';
import { shownDate, spreadsheetValue, wallClockOf } from './values.js';

/**
 * A spreadsheet's table, CSV file or workbook sheet alike, as records of `resource`: the first row
 * names the columns (by field name or by the admin's label), empty rows are skipped, rows are
 * numbered as the spreadsheet numbers them (the header is row 1). Nothing is dropped: a row with
 * more cells than the header, or headers that name no field, are problems.
 */
export function readTable(rows: Cell[][], resource: AnyResource, where: Omit<Place, 'row'>): Incoming[] {
  const [header = [], ...body] = rows;
  const titles = header.map((cell) => textOf(cell));
  const columns = titles.map((title) => fieldNamed(resource, title));
  const unknown = titles.filter((title, i) => columns[i] === undefined && title.trim() !== '');
  if (unknown.length > 0) {
    const expected = Object.entries(labelsOf(resource)).map(([field, label]) => `${field} (${label})`);
    return [{ problem: messages.spreadsheet.unknownHeaders(unknown, expected), place: { ...where, row: 1 } }];
  }
  const items: Incoming[] = [];
  body.forEach((cells, i) => {
    const row = i + 2;
    if (cells.every(isEmpty)) return;
    const place = { ...where, row };
    if (cells.slice(titles.length).some((cell) => !isEmpty(cell))) {
      items.push({ problem: messages.spreadsheet.extraCells(row, cells.length, titles.length), place });
      return;
    }
    // A date cell where no date belongs (a title the spreadsheet took for a date) is neither stored as shown nor as its serial number.
    const misplaced = cells.findIndex((cell, c) => cell instanceof Date && resource.kinds[columns[c] ?? '']?.type !== 'fecha');
    if (misplaced >= 0) {
      items.push({ problem: messages.spreadsheet.dateInText(columns[misplaced] ?? '', textOf(cells[misplaced] ?? null)), place });
      return;
    }
    const record: Record<string, unknown> = {};
    const given: Record<string, string> = {};
    cells.forEach((cell, c) => {
      const field = columns[c];
      if (field === undefined || isEmpty(cell)) return;
      record[field] = cell instanceof Date ? wallClockOf(cell) : spreadsheetValue(resource.kinds[field], field, textOf(cell));
      given[field] = textOf(cell);
    });
    items.push({ resource, record, place, given });
  });
  return items;
}

const isEmpty = (cell: Cell) => cell === null || (typeof cell === 'string' && cell.trim() === '');

function textOf(cell: Cell): string {
  if (cell === null) return '';
  if (cell instanceof Date) return shownDate(cell);
  return String(cell);
}

/** A header compared as people write it: no case, accents, spaces, or what follows a parenthesis. */
const headerKey = (text: string) => normalizeKey(text.replace(/\(.*$/, '')).replace(/[\s_.:]/g, '');

/** The names a record of `resource` may hold: its key, its fields, and its references' lookup aliases. */
export function namesOf(resource: AnyResource): string[] {
  const aliases = Object.values(resource.references ?? {}).flatMap((r) => (r.byLookup ? [r.byLookup] : []));
  return [resource.key.name, ...resource.fieldNames, ...aliases];
}

/** Each field's label, and each lookup alias's (the label of the reference it stands for). */
export function labelsOf(resource: AnyResource): Record<string, string> {
  const declared: Record<string, string> = (fieldLabels as Record<string, Record<string, string>>)[resource.name] ?? {};
  const labels = Object.fromEntries([resource.key.name, ...resource.fieldNames].map((name) => [name, declared[name] ?? name]));
  // A reference may be named by its lookup value (`categoria`: the category's name) instead of its id.
  const aliases = Object.entries(resource.references ?? {}).flatMap(([field, ref]) => (ref.byLookup ? [[ref.byLookup, labels[field] ?? ref.byLookup]] : []));
  return { ...labels, ...Object.fromEntries(aliases) };
}

/** The field a header names, by its name or its label; undefined when it names none. */
function fieldNamed(resource: AnyResource, header: string): string | undefined {
  const key = headerKey(header);
  const byName = namesOf(resource).find((name) => headerKey(name) === key);
  if (byName) return byName;
  // The label of a reference names its lookup alias: "Categoría" holds the category's name.
  const byLabel = Object.entries(labelsOf(resource)).filter(([, label]) => headerKey(label) === key).map(([field]) => field);
  return byLabel.find((field) => !(field in (resource.references ?? {}))) ?? byLabel[0];
}

/** The resource a CSV file or a workbook's sheet is named after: its path name or its Spanish label. */
export function resourceNamed(name: string): AnyResource | undefined {
  const key = headerKey(name);
  return resources.find((r) => headerKey(r.name) === key || labelsOfResource(r.name).some((label) => headerKey(label) === key));
}
