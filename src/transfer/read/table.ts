import { fieldLabelsOf, labelsOfResource } from '../../catalogue/labels.js';
import { comparable } from '../../catalogue/comparable.js';
import { messages } from '../../catalogue/messages.js';
import type { AnyResource } from '../../resources/define.js';
import { resources, transferred } from '../../resources/index.js';
import { BATCH, type Cell, type Incoming, type Place, type ReadProblem, type Row } from './types.js';
import type { Walks } from './zip.js';
import { cellValue } from './values.js';

// A workbook's records, .xlsx and .ods alike: one sheet per resource, named by its path
// (`peliculas`) or its Spanish label (`Películas`), read in the order resources refer to each
// other (inResourceOrder), each a table (tableReader); a sheet that holds something and names no
// resource is a problem (aboutOtherSheets).

/** What a pass through a workbook's sheets tells: a row of the sheet at `index` (its place in the file), and a sheet's end. */
export interface SheetEvents {
  row: (index: number, row: Row) => void;
  end: (index: number) => void;
}

/**
 * A workbook's records, a batch at a time, from its sheets (each with its place in the file; -1
 * for one that holds no cells) once a pass has checked them: what aboutOtherSheets says, then the
 * sheets that name a resource, in the order resources refer to each other, each row handed on as
 * `read` parses it: one pass for each run of them that the file keeps in that order (one when it
 * keeps that order, as exports do), each pass told to `progress`.
 */
export async function* workbookRecords(file: string, sheets: { name: string; index: number; filled: boolean }[], read: (indexes: Set<number>, events: SheetEvents) => Iterable<number>, progress: Walks): AsyncGenerator<Incoming[]> {
  let out = aboutOtherSheets(file, sheets);
  const runs = runsInFileOrder(inResourceOrder(sheets.filter((sheet) => sheet.index >= 0)));
  progress.expect(runs.length);
  for (const run of runs) {
    const tables = new Map(run.map((sheet) => [sheet.index, tableReader(sheet.resource, { file, sheet: sheet.name })]));
    let pushed = 0;
    const pieces = read(new Set(tables.keys()), {
      row: (index, row) => void tables.get(index)?.row(row).forEach((item) => out.push(item)),
      end: (index) => void tables.get(index)?.end().forEach((item) => out.push(item)),
    });
    for (const piece of pieces) {
      progress.at((pushed += piece));
      if (out.length >= BATCH) {
        yield out;
        out = [];
      }
    }
    progress.walked();
  }
  progress.end();
  if (out.length > 0) yield out;
}

/** Sheets in the order given, cut where one comes before the last in the file: each run is read in one pass. */
function runsInFileOrder<S extends { index: number }>(sheets: S[]): S[][] {
  const runs: S[][] = [];
  for (const sheet of sheets) {
    const run = runs.at(-1);
    if (run && (run.at(-1)?.index ?? -1) < sheet.index) run.push(sheet);
    else runs.push([sheet]);
  }
  return runs;
}

/** The sheets that name no resource and hold something: a problem each, or a notice for one of a resource with files (images). */
export function aboutOtherSheets(file: string, sheets: { name: string; filled: boolean }[]): Incoming[] {
  return sheets
    .filter((s) => !resourceOfTable(s.name) && s.filled)
    .map((s) =>
      withFiles(s.name)
        ? { notice: messages.spreadsheet.imagesIgnored(`la hoja ${s.name}`), place: { file, sheet: s.name } }
        : { problem: messages.spreadsheet.unknownSheet(s.name, resources.map((r) => `${labelsOfResource(r.name)[1]} (${r.name})`)), place: { file, sheet: s.name } });
}

/** The sheets that name a resource, with it, in the order resources refer to each other. */
export function inResourceOrder<S extends { name: string }>(sheets: S[]): (S & { resource: AnyResource })[] {
  const named = sheets.flatMap((s) => {
    const resource = resourceOfTable(s.name);
    return resource ? [{ ...s, resource }] : [];
  });
  return named.sort((a, b) => resources.indexOf(a.resource) - resources.indexOf(b.resource));
}

/**
 * A workbook's sheet as records of `resource`, a row at a time as it is parsed: the first row that
 * holds anything names the columns (tableOf), empty rows are skipped, rows are numbered as the
 * spreadsheet numbers them.
 */
export function tableReader(resource: AnyResource, where: Omit<Place, 'row'>) {
  let table: ReturnType<typeof tableOf> | undefined;
  return {
    row(row: Row): Incoming[] {
      if (isEmptyRow(row)) return [];
      if (table) return [table.row(row)];
      table = tableOf(row, resource, where);
      return table.start;
    },
    end: (): Incoming[] => table?.end() ?? [],
  };
}

/**
 * A spreadsheet's table, CSV file or workbook sheet alike, read a row at a time after its header,
 * which names the columns (by field name or by the admin's label): what the header gives at once
 * (a required column it lacks, one problem for the table), each row's record, and at the end the
 * columns ignored, which only the rows tell when a column has no title. Nothing is dropped
 * silently: every cell a row cannot give is a problem of that row, beside its other ones, and a
 * row with more cells than the header (shifted by an unquoted separator) is one problem.
 */
export function tableOf(header: Row, resource: AnyResource, where: Omit<Place, 'row'>) {
  const titles = header.cells.map((cell) => textOf(cell).trim());
  const columns = titles.map((title) => fieldNamed(resource, title));
  // A column with no title is ignored too, and named by its letter, when any row has something in it.
  const used = new Set<number>();
  const named: Record<string, string> = Object.fromEntries(columns.flatMap((field, i) => (field === undefined ? [] : [[field, titles[i] ?? field]])));
  const absent = missingColumns(resource, Object.keys(named));
  const labels = labelsOf(resource);
  const start: Incoming[] = absent.map((field) => {
    const label = labels[field] ?? field;
    return { problem: messages.spreadsheet.missingColumn(label), field, label, place: { ...where, row: header.number } };
  });
  const row = ({ number, cells }: Row): Incoming => {
    const place = { ...where, row: number };
    cells.forEach((cell, i) => {
      if (titles[i] === '' && !isEmpty(cell)) used.add(i);
    });
    // More cells than columns: a separator in an unquoted text shifted them, and what they say is no field's.
    if (cells.slice(titles.length).some((cell) => !isEmpty(cell))) return { problem: messages.spreadsheet.extraCells(number, cells.length, titles.length), place };
    const problems: ReadProblem[] = [];
    const record: Record<string, unknown> = {};
    const given: Record<string, string> = {};
    cells.forEach((cell, c) => {
      const field = columns[c];
      if (field === undefined || cell === null || isEmpty(cell)) return;
      const read = cellValue(resource.kinds[field], field, cell);
      const label = named[field] ?? field;
      if ('refused' in read) {
        given[field] = read.shown;
        problems.push({ field, label, value: read.shown, sentence: messages.spreadsheet[read.refused](label, read.shown) });
        return;
      }
      record[field] = read.value;
      given[field] = read.shown;
    });
    return { resource, record, place, given, columns: named, ...(problems.length > 0 && { problems }), ...(absent.length > 0 && { absent }) };
  };
  const end = (): Incoming[] => {
    const ignored = header.cells.flatMap((_, i) => (columns[i] !== undefined ? [] : titles[i] ? [titles[i]] : used.has(i) ? [messages.spreadsheet.untitled(letterOf(i))] : []));
    return ignored.length > 0 ? [{ notice: messages.spreadsheet.ignoredColumns(ignored), place: where }] : [];
  };
  return { start, row, end };
}

/** Whether a row holds nothing: it is skipped. */
export const isEmptyRow = (row: Row) => row.cells.every(isEmpty);

/** A column's letter as spreadsheets show it: A, …, Z, AA, AB… */
function letterOf(index: number): string {
  const letter = String.fromCharCode(65 + (index % 26));
  return index < 26 ? letter : letterOf(Math.floor(index / 26) - 1) + letter;
}

const isEmpty = (cell: Cell) => cell === null || (typeof cell === 'string' && cell.trim() === '');

function textOf(cell: Cell): string {
  if (cell === null) return '';
  return cell instanceof Date ? cell.toISOString() : String(cell);
}

/** The required fields no column gives: neither by name nor, for a reference, by its lookup alias. */
function missingColumns(resource: AnyResource, given: string[]): string[] {
  const required = (resource.schemas.restore.required ?? []) as string[];
  const aliasOf = (field: string) => resource.references?.[field]?.byLookup;
  return required.filter((field) => !given.includes(field) && !given.includes(aliasOf(field) ?? field));
}

/** A header compared as people write it: no case, accents, spaces, or what follows a parenthesis. */
const comparableHeader = (text: string) => comparable(text.replace(/\(.*$/, '')).replace(/[\s_.:]/g, '');

/** The names a record of `resource` may hold: its key, its fields, and its references' lookup aliases (worked out once per resource: an import asks per record). */
export function namesOf(resource: AnyResource): readonly string[] {
  let names = namesByResource.get(resource);
  if (names === undefined) {
    const aliases = Object.values(resource.references ?? {}).flatMap((r) => (r.byLookup ? [r.byLookup] : []));
    namesByResource.set(resource, (names = [resource.key.name, ...resource.fieldNames, ...aliases]));
  }
  return names;
}
const namesByResource = new WeakMap<AnyResource, readonly string[]>();

/** Each field's label, and each lookup alias's (the label of the reference it stands for). */
export function labelsOf(resource: AnyResource): Record<string, string> {
  const declared = fieldLabelsOf(resource.name);
  const labels = Object.fromEntries([resource.key.name, ...resource.fieldNames].map((name) => [name, declared[name] ?? name]));
  // A reference may be named by its lookup value (`categoria`: the category's name) instead of its id.
  const aliases = Object.entries(resource.references ?? {}).flatMap(([field, ref]) => (ref.byLookup ? [[ref.byLookup, labels[field] ?? ref.byLookup]] : []));
  return { ...labels, ...Object.fromEntries(aliases) };
}

/** The field a header names, by its name or its label; undefined when it names none. */
function fieldNamed(resource: AnyResource, header: string): string | undefined {
  const wanted = comparableHeader(header);
  const byName = namesOf(resource).find((name) => comparableHeader(name) === wanted);
  if (byName) return byName;
  // The label of a reference names its lookup alias: "Categoría" holds the category's name.
  const byLabel = Object.entries(labelsOf(resource)).filter(([, label]) => comparableHeader(label) === wanted).map(([field]) => field);
  return byLabel.find((field) => !(field in (resource.references ?? {}))) ?? byLabel[0];
}

/** The resource a CSV file or a workbook's sheet is named after: its path name or its Spanish label. */
export function resourceOfTable(name: string, among: readonly AnyResource[] = resources): AnyResource | undefined {
  const wanted = comparableHeader(name);
  return among.find((r) => comparableHeader(r.name) === wanted || labelsOfResource(r.name).some((label) => comparableHeader(label) === wanted));
}

/**
 * Whether a sheet or CSV file is named after a resource whose records carry files (images): exports
 * list them, and an import leaves them alone, saying so, since a sheet cannot hold the files.
 */
export const withFiles = (name: string): boolean => resourceOfTable(name, transferred)?.file !== undefined;
