import { parentPort } from 'node:worker_threads';
import { workbookOf, type PlainSheet } from './workbook.js';

/** What xlsx.ts sends: a sheet's name and columns, then its rows a page at a time, then `end`. */
export type WorkbookMessage = { sheet: Omit<PlainSheet, 'rows'> } | { rows: PlainSheet['rows'] } | { end: true };

// A workbook built here, off the service's event loop; its bytes are the answer.
const sheets: PlainSheet[] = [];
parentPort?.on('message', (message: WorkbookMessage) => {
  if ('sheet' in message) sheets.push({ ...message.sheet, rows: [] });
  else if ('rows' in message) sheets.at(-1)?.rows.push(...message.rows);
  else
    void workbookOf(sheets).then((bytes) => parentPort?.postMessage(bytes), (error: unknown) => {
      // Told to the service as the worker's 'error'.
      throw error;
    });
});
