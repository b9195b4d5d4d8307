import { Worker } from 'node:worker_threads';
import { nextTurn } from '../../db/listing.js';
import type { Db } from '../../db/schema.js';
import { checkedRow, withStaffSheets, type Selection, type SheetCell } from './sheets.js';
import { workbookOf, type PlainSheet } from './workbook.js';
import type { WorkbookMessage } from './workbookWorker.js';

/**
 * The selection (sheets.ts) as an .xlsx workbook: a sheet per resource named by its Spanish label,
 * headers as the admin's labels, dates as date cells showing the wall clock, references by name,
 * which `import --on-conflict update` reads back. The workbook is built in memory; past
 * IN_PROCESS cells, in a worker thread, since its build is one synchronous step that would hold the
 * event loop (about a second for 20,000 rows).
 */
export async function exportWorkbook(db: Db, selection: Selection = {}): Promise<{ bytes: Buffer; records: number }> {
  const sheets: PlainSheet[] = [];
  let records = 0;
  await withStaffSheets(db, selection, async (sheet) => {
    const rows: SheetCell[][] = [];
    for await (const page of sheet.pages) {
      // Its place in the sheet: the header is the first row.
      for (const row of page) rows.push(checkedRow(sheet, row, rows.length + 2));
      records += page.length;
    }
    sheets.push({ name: sheet.name, columns: sheet.columns, rows });
  });
  const cells = sheets.reduce((sum, sheet) => sum + sheet.rows.length * sheet.columns.length, 0);
  return { bytes: cells <= IN_PROCESS ? await workbookOf(sheets) : await inWorker(sheets), records };
}

/** Cells a workbook built on the event loop holds at most: some tens of milliseconds of building. */
const IN_PROCESS = 5000;
/** Rows per message to the worker: each is copied on the event loop. */
const ROWS_PER_MESSAGE = 1000;

/** `sheets` built into a workbook by a worker thread of its own (workbookWorker.ts). */
async function inWorker(sheets: PlainSheet[]): Promise<Buffer> {
  const worker = new Worker(new URL('./workbookWorker.js', import.meta.url));
  const built = new Promise<Buffer>((resolve, reject) => {
    worker.once('message', (bytes: Uint8Array) => resolve(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the workbook's worker ended (${code}) before answering`)));
  });
  // Awaited below, once everything is sent; a failure meanwhile waits there.
  built.catch(() => {});
  try {
    const send = (message: WorkbookMessage) => worker.postMessage(message);
    for (const { rows, ...sheet } of sheets) {
      send({ sheet });
      for (let i = 0; i < rows.length; i += ROWS_PER_MESSAGE) {
        send({ rows: rows.slice(i, i + ROWS_PER_MESSAGE) });
        await nextTurn();
      }
    }
    send({ end: true });
    return await built;
  } finally {
    await worker.terminate();
  }
}
