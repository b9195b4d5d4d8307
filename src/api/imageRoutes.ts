import multipart from '@fastify/multipart';
import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { messages } from '../catalogue/messages.js';
import { invalid, notFound, tooLarge } from '../catalogue/refusal.js';
import { validated } from '../catalogue/validation.js';
import type { Db } from '../db/schema.js';
import { sqliteDurable } from '../db/sqlite.js';
import { answerCache } from '../cache/answers.js';
import type { Versions } from '../cache/versions.js';
import { judgeImage } from '../images/judge.js';
import { RecentOriginals } from '../images/originals.js';
import { Slots } from '../images/slots.js';
import { temporaryFile, type TemporaryFile } from '../images/spool.js';
import type { RenditionCache } from '../images/cache.js';
import { AJUSTES, FORMATOS, MIME, SIZES, formatFor, isOpaque, render, renditionTag, type Wanted } from '../images/renditions.js';
import type { AnyResource } from '../resources/define.js';
import { imagenes } from '../resources/imagenes.js';
import { createImage, editImage, removeImage } from '../resources/imageWrites.js';
import { found } from '../resources/writes.js';
import { relationsOf } from '../resources/relations.js';
import { ifMatch } from './conditional.js';
import { sendingKept } from './durable.js';
import { routeSchemas } from './schemas.js';
import { HttpError, requestPath } from './errors.js';
import { localDateTime } from './time.js';

type Row = Record<string, unknown>;

/** Whether each original (by digest) is opaque, which chooses a format: known once, kept for the most recent. */
const opacity = {
  known: new Map<string, boolean>(),
  async of(digest: string, judge: () => Promise<boolean>): Promise<boolean> {
    let opaque = this.known.get(digest);
    if (opaque === undefined) {
      opaque = await judge();
      if (this.known.size >= 10_000) this.known.delete(this.known.keys().next().value ?? '');
      this.known.set(digest, opaque);
    }
    return opaque;
  },
};
const route = (operation: 'read' | 'create' | 'update' | 'remove') => ({ config: { nouns: imagenes.nouns, operation } });

/** Renditions held in memory; one over a sixteenth of it (1 MiB, a large 2560-px one) is read from the disk each time. */
const KEPT_IN_MEMORY = { entries: 10_000, bytes: 16 * 1024 * 1024 };

/** Originals held in memory while their renditions are made: at least one of IMAGE_MAX_BYTES' default (20 MiB). */
const ORIGINALS_IN_MEMORY = 32 * 1024 * 1024;

/** Text parts an upload may carry besides `archivo`: the fields a client gives. */
const FIELD_PARTS = 12;

/**
 * `/imagenes`' writes and its picture: an upload is multipart (parsed on this route alone), edits
 * are JSON, `/imagenes/{id}/archivo` a rendition of the original, never the original itself.
 * Reads and lists are the resource's like any other's (crudRoutes).
 */
export async function imageRoutes(
  app: FastifyInstance, db: Db, versions: Versions, limits: { maxBytes: number; maxPixels: number; timeZone: string }, renditions: RenditionCache,
): Promise<void> {
  const schema = routeSchemas(imagenes, relationsOf(imagenes));
  // An upload holds its file (up to IMAGE_MAX_BYTES) and decodes it whole: twice as many at once as cores (one reads while one
  // decodes), the others wait with their files in temporary files (below).
  const uploads = new Slots(2 * availableParallelism());
  // An upload names its record and says what the image shows; the rest has defaults.
  const Upload = { ...Type.Partial(imagenes.schemas.create), required: ['recurso', 'clave', 'alt'] };
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: limits.maxBytes, files: 1, fields: FIELD_PARTS } });
    // The body is multipart, read by the handler: described (not validated by Fastify), so the JSON body schema goes.
    const { body, ...create } = schema.create;
    const described = {
      body: { 'multipart/form-data': Type.Object({ ...Upload.properties, archivo: Type.String({ format: 'binary', description: `JPEG, PNG, WebP or AVIF, at most ${limits.maxBytes} bytes and ${limits.maxPixels} pixels.` }) }) },
      answers: {
        ...create.described.answers,
        413: 'The file is over IMAGE_MAX_BYTES bytes, or the picture over IMAGE_MAX_PIXELS pixels (judged from its header).',
        415: 'The body is not multipart/form-data, or the file is no JPEG, PNG, WebP or AVIF (judged by its content).',
      },
    };
    const store = async (request: FastifyRequest, { fields, file }: Form) => {
      const body = validated<Row>(Upload, fields, limits.timeZone);
      if (!file) throw invalid(messages.image.missingFile, 'archivo');
      const datos = Buffer.isBuffer(file) ? file : await file.take();
      return createImage(db, body, await judgeImage(datos, limits.maxPixels), { quien: request.quien });
    };
    scope.post('/imagenes', { schema: { ...create, described }, ...route('create') }, async (request, reply) => {
      // With every slot taken, the file goes to a temporary file while the upload waits: its request is then read whole, so
      // REQUEST_TIMEOUT_MS counts the client's sending, not the wait, and the wait holds no more than a few chunks in memory.
      // Where no temporary file can be made, the upload waits with its body unread.
      const temporary = uploads.full ? await temporaryFile() : undefined;
      try {
        const spooled = temporary && (await upload(request, limits.maxBytes, temporary));
        const created = await uploads.run(async () => store(request, spooled ?? (await upload(request, limits.maxBytes))));
        return answer(reply.code(201).header('location', (imagenes as AnyResource).location(created)), created);
      } finally {
        await temporary?.remove();
      }
    });
  });

  const Edit = Type.Partial(Type.Object({ ...imagenes.schemas.patch.properties, recurso: Type.String(), clave: Type.Integer() }));
  const Replace = { ...Edit, required: ['alt'] };
  const Id = Type.Object({ id: imagenes.key.schema });
  for (const [method, body, whole, docs] of [['PUT', Replace, true, schema.update], ['PATCH', Edit, false, schema.patch]] as const) {
    app.route({
      method, url: '/imagenes/:id', schema: { ...docs, body }, ...route('update'),
      handler: async (request, reply) => {
        const { id } = request.params as { id: number };
        // Ajv has validated the body.
        return answer(reply, found(imagenes, id, await editImage(db, id, request.body as Row, whole, { quien: request.quien }, ifMatch(request))));
      },
    });
  }

  app.delete('/imagenes/:id', { schema: schema.remove, ...route('remove') }, async (request) => {
    const { id } = request.params as { id: number };
    if (!(await removeImage(db, id, { quien: request.quien }, ifMatch(request)))) throw notFound(messages.notFoundById(imagenes.nouns, id));
    return { type: 'Success', code: '200', details: messages.deleted(imagenes.nouns, id), location: requestPath(request), timestamp: localDateTime() };
  });

  const picture = {
    tags: ['imagenes'],
    summary: 'The picture of an image, re-encoded from its original: a size, a crop and a format',
    operationId: 'getImagenArchivo',
    params: Id,
    // Described only: the handler refuses a bad value with a sentence that says what the parameter takes.
    described: { query: Type.Object({
      ancho: Type.Optional(Type.Union(SIZES.map((n) => Type.Literal(String(n))))),
      alto: Type.Optional(Type.Union(SIZES.map((n) => Type.Literal(String(n))))),
      ajuste: Type.Optional(Type.Enum(AJUSTES)),
      formato: Type.Optional(Type.Enum(FORMATOS)),
    }) },
  };
  // Renditions asked for lately, answered from memory while their image is unchanged; the disk keeps the rest.
  const pictures = answerCache(versions, 'imagenes', KEPT_IN_MEMORY, () => sqliteDurable(db));
  const originals = new RecentOriginals(ORIGINALS_IN_MEMORY);
  app.get('/imagenes/:id/archivo', { schema: picture, ...route('read') }, async (request, reply) => {
    const { id } = request.params as { id: number };
    const query = request.query as Record<string, string | undefined>;
    const accept = request.headers.accept;
    // Everything the answer depends on besides the image: the query as sent, and what Accept chooses for either kind of original.
    const asked = JSON.stringify([id, query.ancho, query.alto, query.ajuste, query.formato ?? [formatFor(accept, true), formatFor(accept, false)]]);
    const kept = await pictures(asked, async () => {
      // The original itself is read only to make a rendition not kept yet.
      const image = await db
        .selectFrom('imagenes')
        .innerJoin('imagen_archivos', 'imagen_archivos.imagen_id', 'imagenes.id')
        .select(['ancho', 'alto', 'foco_x', 'foco_y', 'digest'])
        .where('imagenes.id', '=', id)
        .executeTakeFirst();
      if (!image) throw notFound(messages.notFoundById(imagenes.nouns, id));
      const original = () =>
        originals.get(image.digest, async () => (await db.selectFrom('imagen_archivos').select('datos').where('imagen_id', '=', id).executeTakeFirstOrThrow()).datos);
      const opaque = await opacity.of(image.digest, async () => isOpaque(await original()));
      const wanted: Wanted = {
        ancho: sizeParam(query, 'ancho'),
        alto: sizeParam(query, 'alto'),
        ajuste: oneOf(query, 'ajuste', AJUSTES) ?? 'cubrir',
        formato: oneOf(query, 'formato', FORMATOS) ?? formatFor(accept, opaque),
      };
      const tag = renditionTag(image, wanted);
      const body = await renditions.get(id, `${image.digest} ${image.foco_x} ${image.foco_y}`, tag, async () => render({ ...image, datos: await original() }, wanted, opaque));
      const headers = { 'content-type': MIME[wanted.formato], 'cache-control': 'public, max-age=86400', ...(query.formato === undefined && { vary: 'Accept' }) };
      return { body, etag: tag, headers, record: id };
    });
    // Never undefined: a missing image is refused inside.
    if (kept) sendingKept(request, kept);
    return reply.headers(kept?.headers ?? {}).send(kept?.body);
  });
}

/** An image as the API answers it (the representation its ETag and the log use). */
function answer(reply: FastifyReply, image: Row) {
  return reply.type('application/json; charset=utf-8').send(imagenes.representation(image));
}

function sizeParam(query: Record<string, string | undefined>, name: string): number | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (!(SIZES as readonly number[]).includes(Number(value)) || !/^[0-9]+$/.test(value)) throw invalid(messages.image.badParameter(name, SIZES.join(', ')), name);
  return Number(value);
}

function oneOf<T extends string>(query: Record<string, string | undefined>, name: string, values: readonly T[]): T | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value)) throw invalid(messages.image.badParameter(name, values.join(', ')), name);
  return value as T;
}

/** An upload's text parts and its file: its bytes, or the temporary file that holds them. */
interface Form {
  fields: Row;
  file?: Buffer | TemporaryFile;
}

/**
 * The file's bytes, read as they arrive into one buffer sized from the request's length (a bound
 * on the file's), so the upload is held once.
 */
async function whole(file: Readable, requestBytes: number, maxBytes: number): Promise<Buffer> {
  // Node holds a body to its length; one sent without a length is gathered in chunks.
  const sized = Number.isSafeInteger(requestBytes) && requestBytes > 0 ? Buffer.allocUnsafe(Math.min(requestBytes, maxBytes)) : undefined;
  const chunks: Buffer[] = [];
  let read = 0;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    if (sized) chunk.copy(sized, read);
    else chunks.push(chunk);
    read += chunk.length;
  }
  return sized ? sized.subarray(0, read) : Buffer.concat(chunks);
}

/**
 * The upload's text parts and its file, read to `maxBytes` and no further: refused the moment it
 * passes, the rest of the body never read (the answer goes out and the connection closes
 * lingering). The file is read into memory, or written to `into`.
 */
async function upload(request: FastifyRequest, maxBytes: number, into?: TemporaryFile): Promise<Form> {
  if (!request.isMultipart()) throw new HttpError(415, messages.image.notMultipart);
  const fields: Row = {};
  let file: Buffer | TemporaryFile | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'archivo' || file) {
          part.file.resume();
          continue;
        }
        // The multipart parser stops at `maxBytes` and says so.
        part.file.once('limit', () => part.file.destroy(tooLarge(messages.image.tooManyBytes(maxBytes))));
        if (into) await into.write(part.file).catch(diskFault);
        file = into ?? (await whole(part.file, Number(request.headers['content-length']), maxBytes));
        // A limit reached before the listener above was attached leaves the file cut short, and says so only here.
        if (part.file.truncated) throw tooLarge(messages.image.tooManyBytes(maxBytes));
      } else {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(messages.image.tooManyBytes(maxBytes));
    throw error;
  }
  return { fields, file };
}

/** A temporary file that could not be written whole: the disk is full or takes no writes, answered as the store's would be. */
function diskFault(error: unknown): never {
  const { code } = error as { code?: unknown };
  if (code === 'ENOSPC' || code === 'EDQUOT') throw new HttpError(503, messages.storeFull);
  if (code === 'EROFS' || code === 'EIO') throw new HttpError(503, messages.storeReadOnly);
  throw error;
}
