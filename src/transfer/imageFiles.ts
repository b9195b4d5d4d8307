import { messages } from '../catalogue/messages.js';
import { Refusal, type Problem } from '../catalogue/refusal.js';
import type { Db } from '../db/schema.js';
import type { Original } from '../images/judge.js';
import type { AnyResource } from '../resources/define.js';

/**
 * The files that travel with records (an image's original) in exports and imports: read a few at a
 * time, since each may be up to IMAGE_MAX_BYTES, and judged on the way in as an upload is.
 */

/** Records whose files are read at a time: a page of them holds at most this many originals. */
export const FILES_PER_PAGE = 8;

/** The originals of these images, by image id. */
export async function originalsOf(db: Db, ids: number[]): Promise<Map<number, Uint8Array>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('imagen_archivos').select(['imagen_id', 'datos']).where('imagen_id', 'in', ids).execute();
  return new Map(rows.map((row) => [Number(row.imagen_id), row.datos]));
}

/** The SHA-256 of the original stored for this image. */
export async function storedDigest(db: Db, id: number): Promise<string | undefined> {
  return (await db.selectFrom('imagen_archivos').select('digest').where('imagen_id', '=', id).executeTakeFirst())?.digest;
}

/** `record` (a representation, one JSON object) with its file after its fields, in base64. */
export function withFile(resource: AnyResource, record: string, file: Uint8Array | undefined): string {
  if (resource.file === undefined || file === undefined) return record;
  return `${record.slice(0, -1)},${JSON.stringify(resource.file)}:"${Buffer.from(file).toString('base64')}"}`;
}

/** The limits an upload is held to (IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS), which an imported file is held to as well. */
export interface FileLimits {
  maxBytes: number;
  maxPixels: number;
}

/** Base64 as Buffer.from would otherwise read leniently: only its alphabet, padded to whole quartets. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** At most this much of a refused file's text is quoted back. */
const QUOTED = 40;

/**
 * An imported record's file taken out of it and judged by its content as an upload is (kind,
 * pixels, size, whole), the record given what the file says of itself (`ancho`, `alto`, `tipo`,
 * `bytes`); or the problems, each naming the field and quoting its value. A field the record gives
 * that contradicts the file is a problem too, never overwritten.
 */
export async function judgedFile(
  resource: AnyResource, raw: Record<string, unknown>, limits: FileLimits | undefined,
): Promise<{ record: Record<string, unknown>; original?: Original; problems: (Problem & { value?: string })[] }> {
  const field = resource.file;
  if (field === undefined) return { record: raw, problems: [] };
  const { [field]: given, ...record } = raw;
  const refused = (sentence: string) => ({ record, problems: [{ field, sentence, ...(typeof given === 'string' && { value: quoted(given) }) }] });
  if (given === undefined || given === null) return refused(messages.validation.required(messages.validation.subject('body', field)));
  if (!limits) return refused(messages.image.filesNotTaken);
  if (typeof given !== 'string' || !BASE64.test(given)) return refused(messages.image.notBase64(field));
  // Its size is known before it is decoded: an oversized file is refused without being held twice.
  if ((given.length / 4) * 3 - (given.endsWith('==') ? 2 : given.endsWith('=') ? 1 : 0) > limits.maxBytes) return refused(messages.image.tooManyBytes(limits.maxBytes));
  let original: Original;
  try {
    // libvips is loaded when a file first comes: about 24 MB of memory an import of records alone does without.
    const { judgeImage } = await import('../images/judge.js');
    original = await judgeImage(Buffer.from(given, 'base64'), limits.maxPixels);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return refused(error.message);
  }
  const read = { ancho: original.ancho, alto: original.alto, tipo: original.tipo, bytes: original.bytes };
  const problems = Object.entries(read)
    .filter(([name, value]) => record[name] !== undefined && record[name] !== value && String(record[name]) !== String(value))
    .map(([name, value]) => ({ field: name, sentence: messages.image.notTheFile(name, value), value: String(record[name]) }));
  return problems.length > 0 ? { record, problems } : { record: { ...record, ...read }, original, problems };
}

const quoted = (text: string) => (text.length > QUOTED ? `${text.slice(0, QUOTED)}…` : text);
