import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { messages } from '../catalogue/messages.js';
import type { Db } from '../db/schema.js';
import { importCatalogue, type ImportResult, type OnConflict } from '../transfer/import.js';
import { readSpreadsheets, UnreadableInput, type SpreadsheetFile } from '../transfer/readers.js';
import { resources } from '../resources/index.js';
import { exportStaffCsv } from '../transfer/write/csv.js';
import { exportOds, ODS_TYPE } from '../transfer/write/ods.js';
import { NotInASheet, type Selection } from '../transfer/write/sheets.js';
import { exportWorkbook } from '../transfer/write/xlsx.js';
import { errorBody, ErrorBody, HttpError } from './errors.js';
import { parseListQuery, type RawQuery } from './listQuery.js';
import { localDateTime } from './time.js';
import { ExportQuery, ImportQuery, ImportReport, type Existentes } from './transferSchemas.js';

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
export async function transferRoutes(app: FastifyInstance, db: Db, maxBytes: number): Promise<void> {
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
          result = await importCatalogue(db, readSpreadsheets(files), { onConflict, dryRun: query.comprobar === 'true', quien: request.quien });
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

  for (const format of Object.values(EXPORTS)) {
    app.get(
      `/exportar.${format.ext}`,
      {
        schema: {
          tags: ['transfer'],
          summary: format.summary,
          description: `With \`recurso\` (${resources.map((r) => r.name).join(', ')}), that resource's list alone, filtered and sorted by the list's own parameters (\`q\`, \`_sort\`, \`_order\`, \`<field>\`, \`<field>_gte\`…, as \`GET /<recurso>\` takes them), every matching record.${format.ext === 'csv' ? ' `recurso` is required.' : ' Without it, the whole catalogue.'}`,
          operationId: format.operationId,
          produces: [format.type],
          querystring: ExportQuery,
          response: { '4xx': ErrorBody, '5xx': ErrorBody },
        },
      },
      async (request, reply) => {
        const selection = exportSelection(request.query as RawQuery, format.ext === 'csv');
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

/** What `GET /exportar.*` asks for: `recurso` and that list's own parameters, checked as the list checks them. */
function exportSelection(raw: RawQuery, needsResource: boolean): Selection {
  const { recurso, ...list } = raw;
  const name = [recurso ?? []].flat().at(-1);
  const names = resources.map((r) => r.name);
  if (name === undefined) {
    if (needsResource) throw new HttpError(400, messages.transfer.csvNeedsResource(names));
    return {};
  }
  const resource = resources.find((r) => r.name === name);
  if (!resource) throw new HttpError(400, messages.transfer.unknownResource(name, names));
  return { resource, list: parseListQuery(list, resource.kinds, { expand: [], embed: [] }) };
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
