import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { messages } from '../catalogue/messages.js';
import type { Db } from '../db/schema.js';
import { importCatalogue, type ImportResult, type OnConflict } from '../transfer/import.js';
import { readSpreadsheets, UnreadableInput, type SpreadsheetFile } from '../transfer/readers.js';
import { exportWorkbook, TooManyRows } from '../transfer/workbook.js';
import { errorBody, ErrorBody, HttpError } from './errors.js';
import { localDateTime } from './time.js';
import { ImportQuery, ImportReport, type Existentes } from './transferSchemas.js';

/** What the import does with a record already stored, for each word of `existentes`. */
const ON_CONFLICT = { error: 'error', omitir: 'skip', actualizar: 'update' } as const satisfies Record<Existentes, OnConflict>;

/** The most files one upload may hold: a workbook, or a CSV file per resource and some to spare. */
const MOST_FILES = 12;

const WORKBOOK_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * `POST /importar`: CSV files or a workbook, uploaded as `multipart/form-data` in `archivo` parts,
 * checked (`?comprobar=true`) or stored all or nothing by the command line's own import engine.
 * `GET /exportar.xlsx`: the whole catalogue as a workbook, by its export engine. The write key, the
 * rate limit and load shedding apply as to every request. Multipart is parsed on these routes
 * alone: the interface's own routes still take JSON only.
 */
export async function transferRoutes(app: FastifyInstance, db: Db, maxBytes: number, timeZone: string): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: maxBytes, files: MOST_FILES, fields: 0, parts: MOST_FILES } });

    scope.post(
      '/importar',
      {
        schema: {
          tags: ['transfer'],
          summary: 'Check or import spreadsheets: CSV files named after their resource, or a workbook (.xlsx)',
          description: `multipart/form-data with one or more files in parts named \`archivo\`, at most ${MOST_FILES} and ${maxBytes} bytes in all. Everything is stored, or nothing.`,
          operationId: 'importSpreadsheets',
          consumes: ['multipart/form-data'],
          querystring: ImportQuery,
          response: { 200: ImportReport, '4xx': ErrorBody, '5xx': ErrorBody },
        },
      },
      async (request, reply) => {
        const query = request.query as Static<typeof ImportQuery>;
        const files = await uploads(request, maxBytes);
        const onConflict = ON_CONFLICT[query.existentes ?? 'error'];
        let result: ImportResult;
        try {
          result = await importCatalogue(db, readSpreadsheets(files), { onConflict, dryRun: query.comprobar === 'true', quien: request.quien, timeZone });
        } catch (error) {
          if (error instanceof UnreadableInput) throw new HttpError(400, error.message);
          throw error;
        }
        const report = reportOf(result, query.comprobar !== 'true');
        if (query.comprobar === 'true' || report.guardado) return report;
        const body = errorBody(request, 400, messages.transfer.notStored(report.problemas.length));
        return reply.code(400).type('application/json; charset=utf-8').send(JSON.stringify({ ...body, ...report }));
      },
    );
  });

  app.get(
    '/exportar.xlsx',
    {
      schema: {
        tags: ['transfer'],
        summary: 'The whole catalogue as a workbook: a sheet per resource, headers as the admin labels them',
        operationId: 'exportWorkbook',
        produces: [WORKBOOK_TYPE],
        response: { '4xx': ErrorBody, '5xx': ErrorBody },
      },
    },
    async (_request, reply) => {
      let workbook;
      try {
        workbook = await exportWorkbook(db);
      } catch (error) {
        if (error instanceof TooManyRows) throw new HttpError(422, error.message);
        throw error;
      }
      const day = localDateTime().slice(0, 10);
      return reply
        .type(WORKBOOK_TYPE)
        .header('content-disposition', `attachment; filename="cartelera-${day}.xlsx"`)
        .header('cache-control', 'no-store')
        .send(workbook.bytes);
    },
  );
}

/** The uploaded files, whole, or a refusal naming what is wrong with the upload. */
async function uploads(request: FastifyRequest, maxBytes: number): Promise<SpreadsheetFile[]> {
  if (!request.isMultipart()) throw new HttpError(415, messages.transfer.notMultipart);
  const files: SpreadsheetFile[] = [];
  let total = 0;
  try {
    for await (const part of request.files()) {
      if (part.fieldname !== 'archivo') throw new HttpError(400, messages.transfer.unknownPart(part.fieldname));
      const bytes = await part.toBuffer();
      total += bytes.length;
      if (total > maxBytes) throw new HttpError(413, messages.transfer.tooLarge(maxBytes));
      files.push({ name: part.filename, bytes });
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, messages.transfer.tooLarge(maxBytes));
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw new HttpError(413, messages.transfer.tooManyFiles(MOST_FILES));
    if (code === 'FST_FIELDS_LIMIT') throw new HttpError(400, messages.transfer.unknownPart(''));
    throw new HttpError(400, messages.transfer.badUpload);
  }
  if (files.length === 0) throw new HttpError(400, messages.transfer.noFiles);
  const empty = files.find((f) => f.bytes.length === 0);
  if (empty) throw new HttpError(400, messages.transfer.emptyFile(empty.name));
  return files;
}

/** The import's result in the wire's words. */
function reportOf(result: ImportResult, storing: boolean): ImportReport {
  return {
    guardado: storing && result.problems.length === 0,
    problemas: result.problems.map((p) => ({
      archivo: p.place.file,
      ...(p.place.sheet !== undefined && { hoja: p.place.sheet }),
      ...(p.place.row !== undefined && { fila: p.place.row }),
      ...(p.resource !== undefined && { recurso: p.resource }),
      ...(p.field !== undefined && { campo: p.field }),
      ...(p.value !== undefined && { valor: p.value }),
      frase: [p.sentence, p.hint].filter(Boolean).join(' '),
    })),
    avisos: result.notices.map((n) => ({ archivo: n.place.file, aviso: n.notice })),
    recuentos: Object.fromEntries(
      Object.entries(result.counts).map(([name, c]) => [name, { nuevos: c.created, actualizados: c.updated, sin_cambios: c.skipped }]),
    ),
  };
}
