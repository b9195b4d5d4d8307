import { createHash, type Hash } from 'node:crypto';
import { moveSequencePastKeys } from '../db/dialect.js';
import { countRows, insertRows } from '../db/bulk.js';
import { allRows } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import type { AnyResource } from '../resources/define.js';
import { transferred as resources } from '../resources/index.js';
import { FILES_PER_PAGE } from './imageFiles.js';
import { inSnapshot } from '../db/snapshot.js';
import { writeTransaction } from '../db/transaction.js';

/** A table's size and a SHA-256 of its records as the API answers them, in key order. */
export interface TableSum {
  count: number;
  sha256: string;
}

export class TargetNotEmpty extends Error {}

/** Rows a statement of the copy inserts (bounded by SQLite's 32,766 parameters). */
const BATCH = 500;

/** The images' originals among the sums: every file the store keeps, those only the change log still refers to included. */
export const FILES = 'imagen_archivos';

/**
 * Copies the whole catalogue from `source` (one consistent view of it) to `target`, in one
 * transaction there: ids kept, sequences moved past them; images with their originals. A target
 * holding any record is refused unless `replace`, which empties it in the same transaction.
 * Answers both sides' sums per resource, and of the files.
 */
export async function copyCatalogue(
  source: Db, target: Db, options: { replace: boolean }, progress: (copied: number) => void = () => {},
): Promise<{ source: Record<string, TableSum>; target: Record<string, TableSum> }> {
  const sums: Record<string, TableSum> = {};
  let copied = 0;
  await inSnapshot(source, (src) =>
    writeTransaction(target, async (dst) => {
      const held = await Promise.all([...resources.map((r) => countRows(dst, r.table)), countRows(dst, FILES)]);
      const changes = await countRows(dst, 'cambios');
      if (held.some((n) => n > 0) || changes > 0) {
        if (!options.replace) throw new TargetNotEmpty(`the target holds ${held.reduce((a, b) => a + b, 0)} records; --replace empties it first (and its ${changes} changes)`);
        // Those that refer to others first.
        await dst.deleteFrom('cambios').execute();
        for (const resource of [...resources].reverse()) await dst.deleteFrom(resource.table).execute();
        await dst.deleteFrom(FILES).execute();
      }
      for (const resource of resources) {
        const sum = createHash('sha256');
        let count = 0;
        for await (const rows of allRows(src, resource.table, resource.key.name, BATCH)) {
          await insertRows(dst, resource.table, rows);
          for (const row of rows) add(sum, resource, row);
          count += rows.length;
          progress((copied += rows.length));
        }
        sums[resource.name] = { count, sha256: sum.digest('hex') };
        await moveSequencePastKeys(dst, resource.table, resource.key.name);
      }
      // The originals, a few a statement: each may be up to IMAGE_MAX_BYTES.
      const files = createHash('sha256');
      let count = 0;
      for await (const rows of allRows(src, FILES, 'imagen_id', FILES_PER_PAGE)) {
        await insertRows(dst, FILES, rows);
        for (const row of rows) addFile(files, row);
        count += rows.length;
      }
      sums[FILES] = { count, sha256: files.digest('hex') };
      // The change log goes too, in id order (a change names the ones it undid or came from).
      const sum = createHash('sha256');
      count = 0;
      for await (const rows of allRows(src, 'cambios', 'id', BATCH)) {
        await insertRows(dst, 'cambios', rows);
        for (const row of rows) addChange(sum, row);
        count += rows.length;
      }
      sums[CHANGES] = { count, sha256: sum.digest('hex') };
      await moveSequencePastKeys(dst, 'cambios', 'id');
    }),
  );
  return { source: sums, target: await tableSums(target) };
}

/** Every resource's TableSum, from one consistent view of the store. */
export function tableSums(db: Db): Promise<Record<string, TableSum>> {
  return inSnapshot(db, async (trx) => {
    const sums: Record<string, TableSum> = {};
    for (const resource of resources) {
      const sum = createHash('sha256');
      let count = 0;
      for await (const rows of allRows(trx, resource.table, resource.key.name)) {
        for (const row of rows) add(sum, resource, row);
        count += rows.length;
      }
      sums[resource.name] = { count, sha256: sum.digest('hex') };
    }
    const files = createHash('sha256');
    let count = 0;
    for await (const rows of allRows(trx, FILES, 'imagen_id', FILES_PER_PAGE)) {
      for (const row of rows) addFile(files, row);
      count += rows.length;
    }
    sums[FILES] = { count, sha256: files.digest('hex') };
    const sum = createHash('sha256');
    count = 0;
    for await (const rows of allRows(trx, 'cambios', 'id')) {
      for (const row of rows) addChange(sum, row);
      count += rows.length;
    }
    sums[CHANGES] = { count, sha256: sum.digest('hex') };
    return sums;
  });
}

/** The change log's entry among the sums. */
const CHANGES = 'cambios';

function addChange(sum: Hash, row: Record<string, unknown>): void {
  const columns = ['id', 'recurso', 'clave', 'operacion', 'antes', 'despues', 'campos', 'quien', 'quien_clave', 'cuando', 'causa', 'deshace'];
  sum.update(JSON.stringify(columns.map((c) => row[c] ?? null))).update('\n');
}

/** A file by its image's id and its bytes' own SHA-256, which the copy computes anew on each side (the stored digest could be wrong on both). */
function addFile(sum: Hash, row: Record<string, unknown>): void {
  sum.update(`${String(row.imagen_id)} ${createHash('sha256').update(row.datos as Uint8Array).digest('hex')}\n`);
}

function add(sum: Hash, resource: AnyResource, row: Record<string, unknown>): void {
  sum.update(resource.representation(row)).update('\n');
}
