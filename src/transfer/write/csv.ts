import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Db } from '../../db/schema.js';
import { withStaffSheets, type Selection, type SheetCell, type StaffSheet } from './sheets.js';

/** The selected resource's staff CSV (below), whole, in memory: a download's answer. */
export async function exportStaffCsv(db: Db, selection: Selection): Promise<{ bytes: Buffer; records: number }> {
  const chunks: Buffer[] = [];
  const out = new PassThrough().on('data', (chunk: Buffer) => chunks.push(chunk));
  let records = 0;
  await withStaffSheets(db, selection, async (sheet) => void (records += await writeStaffCsv(sheet, out)));
  return { bytes: Buffer.concat(chunks), records };
}

/**
 * One staff sheet as the CSV a spreadsheet program opens with Spanish settings: a UTF-8 byte order
 * mark, `;` between cells, CRLF between rows, the labels as headers, dates as `dd/mm/aaaa hh:mm`
 * (a whole day as `dd/mm/aaaa`), references by name. A cell holding `;`, a quote or a line break is
 * quoted, its line breaks kept as they are. Answers how many records it wrote.
 */
export async function writeStaffCsv(sheet: StaffSheet, out: Writable, progress: (rows: number) => void = () => {}): Promise<number> {
  const csv = stringify({ delimiter: ';', record_delimiter: 'windows', bom: true });
  csv.pipe(out, { end: false });
  let written = 0;
  const write = async (cells: (string | number)[]) => {
    if (!csv.write(cells)) await once(csv, 'drain');
  };
  await write(sheet.columns.map(({ label }) => label));
  for await (const rows of sheet.pages) {
    for (const row of rows) await write(row.map(csvCell));
    written += rows.length;
    progress(rows.length);
  }
  csv.end();
  await once(csv, 'end');
  return written;
}

function csvCell(cell: SheetCell): string | number {
  if (cell === null) return '';
  return typeof cell === 'object' ? shownFecha(cell.fecha, cell.timed) : cell;
}

/**
 * `2026-11-14T20:30:00.000+00:00` as a person writes it: `14/11/2026 20:30`; a whole day as
 * `14/11/2026`; with its seconds when it has some. A fraction of a second, which no such form holds,
 * keeps the API's own form. `timed`: never the day alone (a showtime at midnight is `14/11/2026 00:00`).
 */
export function shownFecha(fecha: string, timed = false): string {
  const [, y, m, d, time, seconds, fraction] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}):(\d{2})\.(\d{3})/.exec(fecha) ?? [];
  if (fraction !== '000') return fecha;
  const day = `${d}/${m}/${y}`;
  if (time === '00:00' && seconds === '00' && !timed) return day;
  return `${day} ${time}${seconds === '00' ? '' : `:${seconds}`}`;
}
