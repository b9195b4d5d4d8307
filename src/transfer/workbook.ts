import writeXlsxFile, { type Cell as WrittenCell, type Sheet } from 'write-excel-file/node';
import { fieldLabels, labelsOfResource } from '../catalogue/labels.js';
import { messages } from '../catalogue/messages.js';
import { allRows } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import type { AnyResource } from '../resources/define.js';
import { resources } from '../resources/index.js';
import { inSnapshot } from './snapshot.js';

/** The most rows a sheet holds, the header included. */
const SHEET_ROWS = 1_048_576;

/** A resource with more records than a sheet holds: the workbook would drop some. */
export class TooManyRows extends Error {}

/**
 * The whole catalogue as a workbook, from one consistent view of the store: a sheet per resource
 * named by its Spanish label, headers as the admin's labels, dates as date cells showing the wall
 * clock, and references by what people know them by (a category's name, an item's title), which
 * `import --on-conflict update` reads back. The workbook is built in memory.
 */
export async function exportWorkbook(db: Db): Promise<{ bytes: Buffer; records: number }> {
  const sheets: Sheet<Buffer>[] = [];
  let records = 0;
  const shownAs = new Map<AnyResource, Map<number, string>>();
  await inSnapshot(db, async (trx) => {
    for (const resource of resources) {
      const columns = Object.keys(resource.schemas.item.properties);
      const labels = (fieldLabels as Record<string, Record<string, string>>)[resource.name] ?? {};
      const data: WrittenCell[][] = [columns.map((field) => ({ value: labels[field] ?? field, fontWeight: 'bold' as const }))];
      const unique = new Map<number, string>();
      for await (const rows of allRows(trx, resource.table, resource.key.name)) {
        for (const row of rows) {
          const record = JSON.parse(resource.representation(row)) as Record<string, unknown>;
          unique.set(record[resource.key.name] as number, resource.uniqueValue(record));
          data.push(columns.map((field) => cellOf(resource, field, record, shownAs)));
          if (data.length > SHEET_ROWS) throw new TooManyRows(messages.spreadsheet.tooManyRows(resource.name, SHEET_ROWS - 1));
        }
        records += rows.length;
      }
      shownAs.set(resource, unique);
      sheets.push({ data, sheet: labelsOfResource(resource.name)[1], stickyRowsCount: 1, columns: columns.map((field) => ({ width: widthOf(resource, field) })) });
    }
  });
  return { bytes: await writeXlsxFile(sheets).toBuffer(), records };
}

/** A field's cell: numbers as numbers, `fecha` as a date cell, a reference by its target's title or name. */
function cellOf(resource: AnyResource, field: string, record: Record<string, unknown>, shownAs: Map<AnyResource, Map<number, string>>): WrittenCell {
  const value = record[field];
  if (value === null || value === undefined) return null;
  const reference = resource.references?.[field];
  const target = reference?.byLookup ? reference.to(record) : undefined;
  if (target && typeof value === 'number') return shownAs.get(target)?.get(value) ?? value;
  if (resource.kinds[field]?.type === 'fecha' && typeof value === 'string') {
    const date = new Date(value);
    return { value: date, type: Date, format: dateFormat(value) };
  }
  return typeof value === 'number' || typeof value === 'string' ? value : String(value);
}

/** As much of the wall clock as the value holds: the day, the minute, or the second. */
function dateFormat(fecha: string): string {
  if (fecha.includes('T00:00:00.000')) return 'dd/mm/yyyy';
  return fecha.slice(16, 23) === ':00.000' ? 'dd/mm/yyyy hh:mm' : 'dd/mm/yyyy hh:mm:ss';
}

function widthOf(resource: AnyResource, field: string): number {
  const kind = resource.kinds[field]?.type;
  if (kind === 'text') return field === 'descripcion' || field === 'sipnosis' ? 60 : 30;
  return kind === 'fecha' ? 18 : 14;
}
