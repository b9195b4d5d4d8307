import writeXlsxFile, { type Cell, type Sheet } from 'write-excel-file/node';
import type { Db } from '../../db/schema.js';
import { checkedRow, withStaffSheets, type Column, type Selection, type SheetCell } from './sheets.js';

/**
 * The selection (sheets.ts) as an .xlsx workbook: a sheet per resource named by its Spanish label,
 * headers as the admin's labels, dates as date cells showing the wall clock, references by name,
 * which `import --on-conflict update` reads back. The workbook is built in memory.
 */
export async function exportWorkbook(db: Db, selection: Selection = {}): Promise<{ bytes: Buffer; records: number }> {
  const sheets: Sheet<Buffer>[] = [];
  let records = 0;
  await withStaffSheets(db, selection, async (sheet) => {
    const { name, columns, pages } = sheet;
    const data: Cell[][] = [columns.map(({ label }) => ({ value: label, fontWeight: 'bold' as const }))];
    for await (const rows of pages) {
      for (const row of rows) data.push(checkedRow(sheet, row, data.length + 1).map(xlsxCell));
      records += rows.length;
    }
    sheets.push({ data, sheet: name, stickyRowsCount: 1, columns: columns.map((column) => ({ width: widthOf(column) })) });
  });
  return { bytes: await writeXlsxFile(sheets).toBuffer(), records };
}

function xlsxCell(cell: SheetCell): Cell {
  if (cell === null || typeof cell !== 'object') return cell;
  return { value: new Date(cell.fecha), type: Date, format: dateFormat(cell.fecha) };
}

/** As much of the wall clock as the value holds: the day, the minute, or the second. */
export function dateFormat(fecha: string): 'dd/mm/yyyy' | 'dd/mm/yyyy hh:mm' | 'dd/mm/yyyy hh:mm:ss' {
  if (fecha.includes('T00:00:00.000')) return 'dd/mm/yyyy';
  return fecha.slice(16, 23) === ':00.000' ? 'dd/mm/yyyy hh:mm' : 'dd/mm/yyyy hh:mm:ss';
}

/** A column's width in characters. */
export function widthOf(column: Column): number {
  return { 'long text': 60, text: 30, fecha: 18, number: 14 }[column.kind];
}
