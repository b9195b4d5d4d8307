import { once } from 'node:events';
import { mkdirSync, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { allRows } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import type { AnyResource } from '../resources/define.js';
import { resources } from '../resources/index.js';
import { inSnapshot } from './snapshot.js';

export type ExportFormat = 'json' | 'ndjson' | 'csv';

/** The document's identity: its `formato` and the `version` of its layout. */
export const DOCUMENT = { formato: 'cartelera', version: 1 } as const;

/** Told after each page of records written, with how many so far. */
export type Progress = (written: number) => void;

/**
 * The whole catalogue, each record exactly as the API answers it, from one consistent view of the
 * store, written page by page as it is read: memory stays flat whatever the catalogue's size.
 * JSON and NDJSON go to `out`; CSV is a folder, `folder`, with one file per resource.
 */
export async function exportCatalogue(db: Db, format: ExportFormat, target: { out: Writable } | { folder: string }, progress: Progress = () => {}): Promise<number> {
  let written = 0;
  await inSnapshot(db, async (trx) => {
    if ('folder' in target) {
      mkdirSync(target.folder, { recursive: true });
      for (const resource of resources) {
        const file = createWriteStream(join(target.folder, `${resource.name}.csv`));
        await writeCsv(trx, resource, file, (n) => progress((written += n)));
        file.end();
        await once(file, 'close');
      }
      return;
    }
    const out = target.out;
    if (format === 'json') await write(out, `{"formato":"${DOCUMENT.formato}","version":${DOCUMENT.version},"exportado":${JSON.stringify(new Date().toISOString())}`);
    for (const resource of resources) {
      if (format === 'json') await write(out, `,\n${JSON.stringify(resource.name)}:[`);
      const before = written;
      for await (const rows of allRows(trx, resource.table, resource.key.name)) {
        const records = rows.map((row) => resource.representation(row));
        const text = format === 'json'
          ? `${written === before ? '\n' : ',\n'}${records.join(',\n')}`
          : records.map((record) => `{"recurso":${JSON.stringify(resource.name)},"registro":${record}}\n`).join('');
        await write(out, text);
        progress((written += rows.length));
      }
      if (format === 'json') await write(out, written === before ? ']' : '\n]');
    }
    if (format === 'json') await write(out, '\n}\n');
  });
  return written;
}

async function writeCsv(db: Db, resource: AnyResource, file: Writable, progress: (rows: number) => void): Promise<void> {
  const columns = Object.keys(resource.schemas.item.properties);
  const csv = stringify({ header: true, columns, bom: false });
  csv.pipe(file);
  for await (const rows of allRows(db, resource.table, resource.key.name)) {
    for (const row of rows) {
      if (!csv.write(JSON.parse(resource.representation(row)))) await once(csv, 'drain');
    }
    progress(rows.length);
  }
  csv.end();
  await once(csv, 'end');
}

/** Writes `text`, waiting while the destination is full (stdout to a slow pipe, say). */
async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}
