import writeXlsxFile, { type Cell, type Sheet } from 'write-excel-file/node';
import type { Column, SheetCell } from './sheets.js';

/** A sheet's name, columns and rows as plain data: what a worker thread can be sent (workbookWorker.ts). */
export interface PlainSheet {
  name: string;
  columns: Column[];
  rows: SheetCell[][];
}

/**
 * The .xlsx bytes of `sheets`: a sheet each, headers in bold, dates as date cells showing the wall
 * clock. One synchronous build: a large workbook is built in a worker thread (xlsx.ts).
 */
export function workbookOf(sheets: PlainSheet[]): Promise<Buffer> {
  const built: Sheet<Buffer>[] = sheets.map(({ name, columns, rows }) => ({
    data: [columns.map(({ label }) => ({ value: label, fontWeight: 'bold' as const })), ...rows.map((row) => row.map(xlsxCell))],
    sheet: name,
    stickyRowsCount: 1,
    columns: columns.map((column) => ({ width: widthOf(column) })),
  }));
  return writeXlsxFile(built).toBuffer();
}

function xlsxCell(cell: SheetCell): Cell {
  if (cell === null || typeof cell !== 'object') return cell;
  return { value: new Date(cell.fecha), type: Date, format: dateFormat(cell.fecha, cell.timed) };
}

/** As much of the wall clock as the value holds: the day, the minute, or the second; `timed`, never the day alone (a showtime at midnight). */
export function dateFormat(fecha: string, timed = false): 'dd/mm/yyyy' | 'dd/mm/yyyy hh:mm' | 'dd/mm/yyyy hh:mm:ss' {
  if (fecha.includes('T00:00:00.000') && !timed) return 'dd/mm/yyyy';
  return fecha.slice(16, 23) === ':00.000' ? 'dd/mm/yyyy hh:mm' : 'dd/mm/yyyy hh:mm:ss';
}

/** A column's width in characters. */
export function widthOf(column: Column): number {
  return { 'long text': 60, text: 30, fecha: 18, number: 14 }[column.kind];
}
