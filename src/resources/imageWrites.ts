import { messages } from '../catalogue/messages.js';
import { invalid } from '../catalogue/refusal.js';
import { lockRow } from '../db/dialect.js';
import type { Db } from '../db/schema.js';
import { inTransaction } from '../db/transaction.js';
import type { Original } from '../images/judge.js';
import { recordChange, type ChangeContext } from './changeLog.js';
import type { AnyResource } from './define.js';
import { imagenes as declared, withImages } from './imagenes.js';
import { changesNothing, missingReferences, recordCreated, type Precondition } from './writes.js';

/**
 * An image's writes: the resource's own, since an image comes with a file and holds a place among
 * its record's images. Every image whose `orden` a write moves gets its `modificacion` in the log,
 * in the write's transaction.
 */

type Row = Record<string, unknown>;
// Records are plain rows here, checked against the resource's schemas on the way in.
const imagenes: AnyResource = declared;

/** Empty `credito` means none; `credito` and the focal point take their defaults when absent. */
function normalized(body: Row): Row {
  const credito = typeof body.credito === 'string' ? body.credito.trim() : body.credito;
  return { ...body, credito: credito === '' || credito === undefined ? null : credito };
}

/** Stores a new image of the record `fields` name, with its original, at `orden` (default: last). */
export async function createImage(db: Db, fields: Row, original: Original, context: ChangeContext): Promise<Row> {
  return inTransaction(db, async (trx) => {
    const missing = await missingReferences(trx, imagenes, fields);
    if (missing.length > 0) throw invalid(missing.join(' '), 'clave');
    await lockOwner(trx, fields);
    const siblings = await siblingsOf(trx, fields);
    const { datos, digest, ...read } = original;
    const input = { ...normalized(fields), foco_x: fields.foco_x ?? 50, foco_y: fields.foco_y ?? 50, ...read, orden: siblings.length + 1 };
    const created = await imagenes.queries(trx).create(input);
    await trx.insertInto('imagen_archivos').values({ imagen_id: created.id as number, digest, datos }).execute();
    const placed = await placeAt(trx, created, fields.orden as number | undefined, siblings, context);
    await recordCreated(trx, imagenes, placed, context);
    return placed;
  });
}

/** Changes an image's fields: a PUT's `whole` body resets what it leaves out; a PATCH keeps it. */
export async function editImage(
  db: Db, id: number, body: Row, whole: boolean, context: ChangeContext, precondition?: Precondition,
): Promise<Row | undefined> {
  return inTransaction(db, async (trx) => {
    await lockRow(trx, 'imagenes', 'id', id);
    const current = await imagenes.queries(trx).get(id);
    precondition?.(current && imagenes.representation(current));
    if (!current) return undefined;
    for (const field of ['id', 'recurso', 'clave'] as const) {
      if (body[field] !== undefined && body[field] !== current[field]) throw invalid(messages.image.fixedField(field), field);
    }
    const defaults = whole ? { credito: null, foco_x: 50, foco_y: 50 } : {};
    const wanted = { ...defaults, ...pick(body, ['alt', 'credito', 'foco_x', 'foco_y']) };
    const fields = { ...current, ...(Object.hasOwn(wanted, 'credito') ? normalized(wanted) : wanted) };
    const orden = body.orden as number | undefined;
    if (changesNothing(imagenes, current, fields) && (orden === undefined || orden === current.orden)) return current;
    const updated = (await imagenes.queries(trx).update(id, fields)) as Row;
    const placed = orden === undefined ? updated : await placeAt(trx, updated, orden, await siblingsOf(trx, current, id), context);
    await recordChange(trx, imagenes, id, imagenes.representation(current), imagenes.representation(placed), context);
    return placed;
  });
}

/** Deletes an image; the images after it move up. False when there was none. */
export async function removeImage(db: Db, id: number, context: ChangeContext, precondition?: Precondition): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    await lockRow(trx, 'imagenes', 'id', id);
    const current = await imagenes.queries(trx).get(id);
    precondition?.(current && imagenes.representation(current));
    if (!current || !(await imagenes.queries(trx).remove(id))) return false;
    await recordChange(trx, imagenes, id, imagenes.representation(current), null, context);
    await renumber(trx, await siblingsOf(trx, current), { ...context, causa: null });
    return true;
  });
}

/**
 * Brings back a deleted image with its key and fields (an undo of its `baja`; its file is still
 * kept), at its place: the images from there on move down.
 */
export async function restoreImage(trx: Db, image: Row, context: ChangeContext): Promise<Row> {
  const missing = await missingReferences(trx, imagenes, image);
  if (missing.length > 0) throw invalid(missing.join(' '), 'clave');
  await lockOwner(trx, image);
  const siblings = await siblingsOf(trx, image);
  const created = await imagenes.queries(trx).create({ ...image, orden: siblings.length + 1 });
  const placed = await placeAt(trx, created, image.orden as number, siblings, context);
  await recordCreated(trx, imagenes, placed, context);
  return placed;
}

/**
 * Holds the record an image belongs to until the transaction ends (PostgreSQL; SQLite's writes
 * take turns), so that two uploads for it at once do not both take the same last place.
 */
async function lockOwner(trx: Db, image: Row): Promise<void> {
  const owner = withImages.find((r) => r.name === image.recurso);
  if (owner) await lockRow(trx, owner.table, owner.key.name, image.clave as number);
}

/** The images of the record an image belongs to, in order, but for image `except`. */
async function siblingsOf(trx: Db, image: Row, except?: number): Promise<Row[]> {
  let query = trx.selectFrom('imagenes').selectAll().where('recurso', '=', image.recurso as string).where('clave', '=', image.clave as number);
  if (except !== undefined) query = query.where('id', '<>', except);
  return query.orderBy('orden').orderBy('id').execute();
}

/** Puts `image` at place `orden` among `siblings` (past the end: last), moving them along; answers it as stored. */
async function placeAt(trx: Db, image: Row, orden: number | undefined, siblings: Row[], context: ChangeContext): Promise<Row> {
  const place = Math.min(orden ?? siblings.length + 1, siblings.length + 1);
  const others = siblings.filter((s) => s.id !== image.id);
  await renumber(trx, [...others.slice(0, place - 1), image, ...others.slice(place - 1)], { ...context, causa: null }, image.id as number);
  return image.orden === place ? image : ((await imagenes.queries(trx).update(image.id as number, { ...image, orden: place })) as Row);
}

/** Numbers `images` 1 to n in their order, logging each one moved (but `unlogged`, whose own change the caller logs). */
async function renumber(trx: Db, images: Row[], context: ChangeContext, unlogged?: number): Promise<void> {
  for (const [index, image] of images.entries()) {
    if (image.orden === index + 1 || image.id === unlogged) continue;
    const moved = (await imagenes.queries(trx).update(image.id as number, { ...image, orden: index + 1 })) as Row;
    await recordChange(trx, imagenes, image.id as number, imagenes.representation(image), imagenes.representation(moved), context);
  }
}

function pick(record: Row, names: string[]): Row {
  return Object.fromEntries(names.filter((name) => record[name] !== undefined).map((name) => [name, record[name]]));
}
