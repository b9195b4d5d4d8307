import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static, type TObject } from 'typebox';
import { messages } from '../catalogue/messages.js';
import type { FieldKind } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import { importCatalogue, problemCount, type ImportResult, type OnConflict } from '../transfer/import.js';
import { readSpreadsheets, type SpreadsheetFile } from '../transfer/read/index.js';
import { resources } from '../resources/index.js';
import { exportStaffCsv } from '../transfer/write/csv.js';
import { exportOds, ODS_TYPE } from '../transfer/write/ods.js';
import { NotInASheet, type Selection } from '../transfer/write/sheets.js';
import { exportWorkbook } from '../transfer/write/xlsx.js';
import { errorBody, ErrorBody, HttpError } from './errors.js';
import { filterParams, parseListQuery, sortParams, type RawQuery } from './listQuery.js';
import { localDateTime } from './time.js';
import { HEADERS } from './openapi.js';
import { CsvExportQuery, ExportQuery, ImportQuery, ImportReport, Upload, type Existentes } from './transferSchemas.js';

/** What the import does with a record already stored, for each word of `existentes`. */
const ON_CONFLICT = { error: 'error', omitir: 'skip', actualizar: 'update' } as const satisfies Record<Existentes, OnConflict>;

/** The most files one upload may hold: a workbook, or a CSV file per resource and some to spare. */
const MOST_FILES = 12;

const WORKBOOK_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * `POST /importar`: CSV files or a workbook, uploaded as `multipart/form-data` in `archivo` parts,
 * checked (`?comprobar=true`) or stored all or nothing by the command line's own import engine.
 * `GET /exportar.xlsx`, `.ods`: the whole catalogue, or one list as filtered and sorted, as a workbook;
 * `GET /exportar.csv`: one list as staff's CSV; by the command line's export engine. The write key, the
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
          summary: 'Check or import spreadsheets: CSV files named after their resource, or a workbook (.xlsx, .ods)',
          description: `multipart/form-data with one or more files in parts named \`archivo\`, at most ${MOST_FILES} and ${maxBytes} bytes in all. Everything is stored, or nothing.`,
          operationId: 'importSpreadsheets',
          querystring: ImportQuery,
          response: { 200: ImportReport, '4xx': ErrorBody, '5xx': ErrorBody },
          described: {
            body: { 'multipart/form-data': Upload },
            answers: {
              200: 'The report: what was (or, with comprobar=true, would be) stored, and every problem found.',
              400: { description: 'Nothing was stored: the error body, with the report that names every problem.', content: { 'application/json': ImportRefusal } },
              413: `The files are over ${maxBytes} bytes in all (the report names the file), or more than ${MOST_FILES}.`,
              415: 'The body is not multipart/form-data.',
            },
          },
        },
      },
      async (request, reply) => {
        const query = request.query as Static<typeof ImportQuery>;
        const upload = await uploads(request, maxBytes);
        if ('tooLarge' in upload) {
          // The upload was not read whole: its report holds that one problem, and the status says why.
          const result = { problems: [{ place: { file: upload.tooLarge }, sentence: messages.transfer.tooLarge(maxBytes) }], unlisted: 0, notices: [], counts: {} };
          return refused(request, reply, 413, result, false);
        }
        const onConflict = ON_CONFLICT[query.existentes ?? 'error'];
        const result = await importCatalogue(db, readSpreadsheets(upload), { onConflict, dryRun: query.comprobar === 'true', quien: request.quien, timeZone });
        const report = reportOf(result, query.comprobar !== 'true');
        if (query.comprobar === 'true' || report.guardado) return report;
        return refused(request, reply, 400, result, true);
      },
    );
  });

  for (const format of Object.values(EXPORTS)) {
    app.get(
      `/exportar.${format.ext}`,
      {
        schema: {
          tags: ['transfer'],
          summary: format.summary,
          description: `With \`recurso\` (${resources.map((r) => r.name).join(', ')}), that resource's list alone, filtered and sorted by the list's own parameters (\`q\`, \`_sort\`, \`_order\`, \`<field>\`, \`<field>_gte\`…, as \`GET /<recurso>\` takes them), every matching record.${format.ext === 'csv' ? ' `recurso` is required.' : ' Without it, the whole catalogue.'}`,
          operationId: format.operationId,
          querystring: format.ext === 'csv' ? CsvExportQuery : ExportQuery,
          response: { '4xx': ErrorBody, '5xx': ErrorBody },
          described: {
            query: exportQuery(format.ext === 'csv'),
            answers: {
              200: { description: 'The file.', headers: { ...HEADERS.attachment, ...HEADERS.noStore }, content: { [format.type]: Type.String({ format: 'binary' }) } },
              400: 'recurso or a list parameter has a value it does not take: the sentence names it.',
              422: 'The list does not fit in a sheet: too many rows, or a value a sheet cannot hold.',
            },
          },
        },
      },
      async (request, reply) => {
        const selection = exportSelection(request.query as RawQuery, timeZone);
        let file;
        try {
          file = await format.write(db, selection);
        } catch (error) {
          if (error instanceof NotInASheet) throw new HttpError(422, error.message);
          throw error;
        }
        const day = localDateTime().slice(0, 10);
        const name = ['cartelera', selection.resource?.name, day].filter(Boolean).join('-');
        return reply
          .type(format.type)
          .header('content-disposition', `attachment; filename="${name}.${format.ext}"`)
          .header('cache-control', 'no-store')
          .send(file.bytes);
      },
    );
  }
}

/** The exports, each by its file's extension. */
const EXPORTS = {
  xlsx: {
    ext: 'xlsx',
    type: WORKBOOK_TYPE,
    operationId: 'exportWorkbook',
    summary: 'The catalogue, or one list, as a workbook (.xlsx): a sheet per resource, headers as the admin labels them',
    write: exportWorkbook,
  },
  ods: {
    ext: 'ods',
    type: ODS_TYPE,
    operationId: 'exportOds',
    summary: 'The catalogue, or one list, as an OpenDocument spreadsheet (.ods), with the sheets of the .xlsx',
    write: exportOds,
  },
  csv: {
    ext: 'csv',
    type: 'text/csv; charset=utf-8',
    operationId: 'exportCsv',
    summary: "One list as staff's CSV: a byte order mark, ';' between cells, the labels as headers, dates as dd/mm/aaaa hh:mm",
    write: exportStaffCsv,
  },
} as const;

/** An import refused: the error body and the report, in one object. */
const ImportRefusal = Type.Intersect([ErrorBody, ImportReport]);

/**
 * `GET /exportar.*`'s query as a typed client sends it, for the API description: `recurso`, and the
 * sort and filters of any list (each list checks its own, as exportSelection does).
 */
function exportQuery(csv: boolean): TObject {
  const kinds = Object.assign({}, ...resources.map((r) => r.kinds)) as Record<string, FieldKind>;
  const recurso = Type.Enum(
    resources.map((r) => r.name),
    { description: `The resource whose list to export, by its path name${csv ? '' : '; without it, the whole catalogue'}.` },
  );
  return Type.Object({ recurso: csv ? recurso : Type.Optional(recurso), ...sortParams(kinds), ...filterParams(kinds) });
}

/** What `GET /exportar.*` asks for: `recurso` and that list's own parameters, checked as the list checks them. */
function exportSelection(raw: RawQuery, timeZone: string): Selection {
  const { recurso, ...list } = raw;
  const name = [recurso ?? []].flat().at(-1);
  const names = resources.map((r) => r.name);
  if (name === undefined) return {};
  const resource = resources.find((r) => r.name === name);
  if (!resource) throw new HttpError(400, messages.transfer.unknownResource(name, names));
  return { resource, list: parseListQuery(list, resource.kinds, { expand: [], embed: [] }, timeZone) };
}

/** An import refused: the error body, with the report, which names every problem. */
function refused(request: FastifyRequest, reply: FastifyReply, status: 400 | 413, result: ImportResult, storing: boolean) {
  const body = errorBody(request, status, status === 413 ? (result.problems[0]?.sentence ?? '') : messages.transfer.notStored(problemCount(result)));
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify({ ...body, ...reportOf(result, storing) }));
}

/**
 * The uploaded files, whole; or the name of the file at which the upload passed its limit; or a
 * refusal naming what is wrong with the upload itself.
 */
async function uploads(request: FastifyRequest, maxBytes: number): Promise<SpreadsheetFile[] | { tooLarge: string }> {
  if (!request.isMultipart()) throw new HttpError(415, messages.transfer.notMultipart);
  const files: SpreadsheetFile[] = [];
  let total = 0;
  let name = '';
  try {
    for await (const part of request.files()) {
      if (part.fieldname !== 'archivo') throw new HttpError(400, messages.transfer.unknownPart(part.fieldname));
      name = part.filename;
      const bytes = await part.toBuffer();
      total += bytes.length;
      if (total > maxBytes) return { tooLarge: name };
      files.push({ name, bytes });
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') return { tooLarge: name };
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw new HttpError(413, messages.transfer.tooManyFiles(MOST_FILES));
    if (code === 'FST_FIELDS_LIMIT') throw new HttpError(400, messages.transfer.unknownPart(''));
    throw new HttpError(400, messages.transfer.badUpload);
  }
  if (files.length === 0) throw new HttpError(400, messages.transfer.noFiles);
  return files;
}

/** The import's result in the wire's words. */
function reportOf(result: ImportResult, storing: boolean): ImportReport {
  return {
    guardado: storing && problemCount(result) === 0,
    problemas: result.problems.map((p) => ({
      archivo: p.place.file,
      ...(p.place.sheet !== undefined && { hoja: p.place.sheet }),
      ...(p.place.row !== undefined && { fila: p.place.row }),
      ...(p.resource !== undefined && { recurso: p.resource }),
      ...(p.field !== undefined && { campo: p.field }),
      ...(p.label !== undefined && { columna: p.label }),
      ...(p.value !== undefined && { valor: p.value }),
      frase: [p.sentence, p.hint].filter(Boolean).join(' '),
    })),
    ...(result.unlisted > 0 && { problemas_sin_listar: result.unlisted }),
    avisos: result.notices.map((n) => ({ archivo: n.place.file, ...(n.place.sheet !== undefined && { hoja: n.place.sheet }), aviso: n.notice })),
    recuentos: Object.fromEntries(
      Object.entries(result.counts).map(([name, c]) => [name, { nuevos: c.created, actualizados: c.updated, sin_cambios: c.skipped }]),
    ),
  };
}
