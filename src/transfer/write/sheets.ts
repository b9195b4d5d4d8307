import { TIPOS_EVENTO } from '../../catalogue/fields.js';
import { fieldLabelsOf, labelsOfResource, valueLabel } from '../../catalogue/labels.js';
import { messages } from '../../catalogue/messages.js';
import { allRows, listPages, type ListQuery } from '../../db/listing.js';
import type { Db } from '../../db/schema.js';
import type { AnyResource, Reference } from '../../resources/define.js';
import { transferred } from '../../resources/index.js';
import { inSnapshot } from '../../db/snapshot.js';

/** A sheet's cell: text, a number, a `fecha` as the API answers it (the event's wall clock), or nothing. */
export type SheetCell = string | number | { fecha: string; timed?: boolean } | null;

export interface Column {
  field: string;
  /** The header: the admin's label. */
  label: string;
  /** What the column holds, for its width and its cells' format. */
  kind: 'number' | 'fecha' | 'text' | 'long text';
}

/** One resource as staff read it: named and headed in Spanish, references by name, coded values by label. */
export interface StaffSheet {
  resource: AnyResource;
  /** The resource's Spanish name, many: `Películas`. */
  name: string;
  columns: Column[];
  /** The rows, a page at a time, to be read while the export's snapshot lasts. */
  pages: AsyncIterable<SheetCell[][]>;
}

/** Rows read and made into cells at a time: a few milliseconds of the event loop. */
const PAGE = 250;

/** What a sheet cannot hold: more rows than it has, or a character XML cannot carry. The export is refused, never written without it. */
export class NotInASheet extends Error {}

/** The most rows a sheet holds, the header included (an .xlsx's and an .ods's alike). */
const SHEET_ROWS = 1_048_576;

// Control characters other than tab and line breaks: XML 1.0, which .xlsx and .ods are made of, has no way to write them.
// eslint-disable-next-line no-control-regex -- these control characters are what it looks for
const UNWRITABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/u;

/** A row of `sheet` as a sheet can hold it, or NotInASheet saying why not: `rows` counts the sheet's rows with this one, the header included. */
export function checkedRow(sheet: StaffSheet, row: SheetCell[], rows: number): SheetCell[] {
  if (rows > SHEET_ROWS) throw new NotInASheet(messages.spreadsheet.tooManyRows(sheet.resource.name, SHEET_ROWS - 1));
  row.forEach((cell, c) => {
    const found = typeof cell === 'string' ? UNWRITABLE.exec(cell)?.[0] : undefined;
    if (found === undefined) return;
    const code = `U+${(found.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw new NotInASheet(messages.spreadsheet.unwritable(sheet.resource.name, String(row[0]), sheet.columns[c]?.field ?? '', code));
  });
  return row;
}

/** What an export holds: every resource, or one; and of that one, all its records or those a list's filters and sort give, in that order. */
export interface Selection {
  resource?: AnyResource;
  list?: ListQuery;
}

/**
 * The selected resources as staff sheets, one after another, from one consistent view of the
 * store: each record as the API answers it, its references shown by what people know the record
 * by (a category's name, an item's title, an artist's name and DNI), which an import reads back.
 */
export async function withStaffSheets(db: Db, selection: Selection, each: (sheet: StaffSheet) => Promise<void>): Promise<void> {
  const selected = selection.resource ? [selection.resource] : transferred;
  await inSnapshot(db, async (trx) => {
    const shown = new Map<AnyResource, Map<number, string>>();
    for (const resource of selected) {
      for (const reference of Object.values(resource.references ?? {})) {
        for (const target of targetsOf(reference)) if (!shown.has(target)) shown.set(target, await shownNames(trx, target));
      }
      const columns = columnsOf(resource);
      const cells = (row: Record<string, unknown>) => {
        const record = JSON.parse(resource.representation(row)) as Record<string, unknown>;
        return columns.map(({ field }) => cellOf(resource, field, record, shown));
      };
      async function* pages(): AsyncGenerator<SheetCell[][]> {
        const list = selection.list && selection.resource === resource ? selection.list : { conditions: [], sort: [] };
        for await (const rows of listPages(trx, { table: resource.table, key: resource.key.name, kinds: resource.kinds }, list, PAGE)) yield rows.map(cells);
      }
      await each({ resource, name: labelsOfResource(resource.name)[1], columns, pages: pages() });
    }
  });
}

/** The resources a reference may name: a participation's item is a movie, a work or an urban event, by its tipo_evento. */
function targetsOf(reference: Reference): AnyResource[] {
  const targets = TIPOS_EVENTO.map((tipo_evento) => reference.to({ tipo_evento }));
  return [...new Set(targets)].filter((target) => target !== undefined);
}

/** Each record's key and what a sheet shows for it. */
async function shownNames(db: Db, resource: AnyResource): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  for await (const rows of allRows(db, resource.table, resource.key.name)) {
    for (const row of rows) names.set(row[resource.key.name] as number, resource.shownAs(row));
  }
  return names;
}

function columnsOf(resource: AnyResource): Column[] {
  const labels = fieldLabelsOf(resource.name);
  return Object.keys(resource.schemas.item.properties).map((field) => {
    const type = resource.kinds[field]?.type;
    const shownByName = resource.references?.[field]?.byLookup !== undefined;
    const kind = type === 'fecha' ? 'fecha' : (type === 'integer' || type === 'number') && !shownByName ? 'number' : field === 'descripcion' || field === 'sipnosis' ? 'long text' : 'text';
    return { field, label: labels[field] ?? field, kind };
  });
}

/** A field's cell: numbers as numbers, `fecha` as a date, a reference by its target's name, a coded value by its label. */
function cellOf(resource: AnyResource, field: string, record: Record<string, unknown>, shown: Map<AnyResource, Map<number, string>>): SheetCell {
  const value = record[field];
  if (value === null || value === undefined) return null;
  const reference = resource.references?.[field];
  const target = reference?.byLookup ? reference.to(record) : undefined;
  if (target && typeof value === 'number') return shown.get(target)?.get(value) ?? value;
  const kind = resource.kinds[field];
  if (kind?.type === 'fecha' && typeof value === 'string') return kind.timed ? { fecha: value, timed: true } : { fecha: value };
  if (typeof value === 'string') return valueLabel(field, value);
  if (resource.kinds[field]?.type === 'boolean') return value === true || value === 1 ? 'sí' : 'no';
  return typeof value === 'number' ? value : String(value);
}
