import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { allRows } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import type { AnyResource } from '../resources/define.js';
import { transferred } from '../resources/index.js';
import { inSnapshot } from '../db/snapshot.js';
import { FILES_PER_PAGE, originalsOf, withFile } from './imageFiles.js';
import { writeStaffCsv } from './write/csv.js';
import { withStaffSheets } from './write/sheets.js';
import { writeWholeFiles } from './wholeFile.js';

export type ExportFormat = 'json' | 'ndjson';

/** The document's identity: its `formato` and the `version` of its layout. */
export const DOCUMENT = { formato: 'cartelera', version: 1 } as const;

/** Told after each page of records written, with how many so far. */
export type Progress = (written: number) => void;

/**
 * The whole catalogue (or the resources named), each record exactly as the API answers it (an
 * image with its original in base64 after its fields), from one consistent view of the store,
 * written page by page as it is read to `out`: memory stays flat whatever the catalogue's size.
 */
export async function exportCatalogue(db: Db, format: ExportFormat, out: Writable, progress: Progress = () => {}, only: readonly AnyResource[] = transferred): Promise<number> {
  let written = 0;
  await inSnapshot(db, async (trx) => {
    if (format === 'json') await write(out, `{"formato":"${DOCUMENT.formato}","version":${DOCUMENT.version},"exportado":${JSON.stringify(new Date().toISOString())}`);
    for (const resource of only) {
      if (format === 'json') await write(out, `,\n${JSON.stringify(resource.name)}:[`);
      const before = written;
      for await (const rows of allRows(trx, resource.table, resource.key.name, resource.file === undefined ? undefined : FILES_PER_PAGE)) {
        const files = resource.file === undefined ? undefined : await originalsOf(trx, rows.map((row) => row[resource.key.name] as number));
        const records = rows.map((row) => withFile(resource, resource.representation(row), files?.get(row[resource.key.name] as number)));
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

/**
 * Staff CSV (write/csv.ts): one resource's to `out`, or every resource's (or the one named) into
 * `folder`, a file per resource named by its path (`peliculas.csv`), which an import takes back.
 */
export async function exportCsv(db: Db, target: { out: Writable; resource: AnyResource } | { folder: string; resource?: AnyResource }, progress: Progress = () => {}): Promise<number> {
  let written = 0;
  const advance = (rows: number) => progress((written += rows));
  if ('out' in target) {
    await withStaffSheets(db, { resource: target.resource }, (sheet) => writeStaffCsv(sheet, target.out, advance).then(() => undefined));
    return written;
  }
  await writeWholeFiles(target.folder, (file) =>
    withStaffSheets(db, { resource: target.resource }, (sheet) => file(`${sheet.resource.name}.csv`, (out) => writeStaffCsv(sheet, out, advance).then(() => undefined))),
  );
  return written;
}

/** Writes `text`, waiting while the destination is full (stdout to a slow pipe, say). */
async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}
