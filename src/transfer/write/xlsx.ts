import type { Worker } from 'node:worker_threads';
import type { Db } from '../../db/schema.js';
import { checkedRow, withStaffSheets, type Column, type Selection, type SheetCell } from './sheets.js';
import { workbookOf, type PlainSheet } from './workbook.js';
import { startWorker } from './worker.js';
import type { WorkbookMessage } from './workbookWorker.js';

/**
 * The selection (sheets.ts) as an .xlsx workbook: a sheet per resource named by its Spanish label,
 * headers as the admin's labels, dates as date cells showing the wall clock, references by name,
 * which `import --on-conflict update` reads back. Past IN_PROCESS cells the workbook is built in a
 * worker thread, its rows sent there a page at a time as they are read: its build is one
 * synchronous step that would hold the event loop (about two seconds for 30,000 records).
 */
export async function exportWorkbook(db: Db, selection: Selection = {}): Promise<{ bytes: Buffer; records: number }> {
  const workbook = new Workbook();
  let records = 0;
  try {
    await withStaffSheets(db, selection, async (sheet) => {
      workbook.sheet(sheet.name, sheet.columns);
      // The sheet's rows so far, the header included.
      let rows = 1;
      for await (const page of sheet.pages) {
        workbook.rows(page.map((row) => checkedRow(sheet, row, ++rows)));
        records += page.length;
      }
    });
    return { bytes: await workbook.bytes(), records };
  } finally {
    await workbook.close();
  }
}

/** Cells a workbook built on the event loop holds at most: some tens of milliseconds of building. */
const IN_PROCESS = 5000;

/** The sheets of a workbook being made: held here while small, else sent to its worker thread (workbookWorker.ts). */
class Workbook {
  private readonly held: PlainSheet[] = [];
  private cells = 0;
  private worker: Worker | undefined;
  private built: Promise<Uint8Array> | undefined;

  sheet(name: string, columns: Column[]): void {
    if (this.worker) this.send({ sheet: { name, columns } });
    else this.held.push({ name, columns, rows: [] });
  }

  rows(rows: SheetCell[][]): void {
    if (this.worker) return this.send({ rows });
    this.held.at(-1)?.rows.push(...rows);
    this.cells += rows.reduce((sum, row) => sum + row.length, 0);
    if (this.cells > IN_PROCESS) this.start();
  }

  async bytes(): Promise<Buffer> {
    if (!this.worker || !this.built) return workbookOf(this.held);
    this.send({ end: true });
    const bytes = await this.built;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
  }

  /** Hands what is held to a worker of its own, which builds the workbook from here on. */
  private start(): void {
    const { worker, answer } = startWorker<Uint8Array>('./workbookWorker.js');
    this.worker = worker;
    this.built = answer;
    for (const { rows, ...sheet } of this.held.splice(0)) {
      this.send({ sheet });
      this.send({ rows });
    }
  }

  private send(message: WorkbookMessage): void {
    this.worker?.postMessage(message);
  }
}
