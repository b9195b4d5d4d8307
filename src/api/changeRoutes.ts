import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { changeJson, changeList, changesWhere, normalized, type ChangeRow } from '../changes/read.js';
import { undoChange } from '../changes/undo.js';
import { messages } from '../catalogue/messages.js';
import { notFound } from '../catalogue/refusal.js';
import { countRows } from '../db/bulk.js';
import { listRows } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import { ErrorBody } from './errors.js';
import { linkHeader } from './link.js';
import { MAX_PAGE, parseListQuery, type RawQuery } from './listQuery.js';

const Record = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]);

/** A change, as `GET /cambios` answers it (docs/api.md, "Changes"). */
export const Change = Type.Object(
  {
    id: Type.Integer({ description: "the change's number, increasing; the feed's event id" }),
    recurso: Type.String({ examples: ['peliculas'] }),
    clave: Type.Integer({ description: "the record's id, or an artist's dni" }),
    operacion: Type.Enum(['alta', 'modificacion', 'baja']),
    antes: Record,
    despues: Record,
    campos: Type.Array(Type.String()),
    quien: Type.Union([Type.String(), Type.Null()]),
    cuando: Type.String({ examples: ['2026-11-24T10:15:00.000+00:00'] }),
    causa: Type.Union([Type.Integer(), Type.Null()]),
    deshace: Type.Union([Type.Integer(), Type.Null()]),
  },
  { $id: 'Change' },
);

const ById = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const json = 'application/json; charset=utf-8';
const list = (rows: ChangeRow[]) => `[${rows.map(changeJson).join(',')}]`;

/**
 * The change log over HTTP: `GET /cambios` (the resources' list dialect; the first 1,000 when no
 * page is asked for), `GET /cambios/{id}`, and `POST /cambios/{id}/deshacer`, the undo.
 */
export function changeRoutes(app: FastifyInstance, db: Db): void {
  const tags = ['cambios'];
  app.get(
    '/cambios',
    { schema: { tags, summary: 'The change log: every creation, modification and deletion', operationId: 'listCambios', response: { 200: Type.Array(Change), '4xx': ErrorBody, '5xx': ErrorBody } } },
    async (request, reply) => {
      const raw = request.query as RawQuery;
      const query = parseListQuery(raw, changeList.kinds, { expand: [], embed: [] });
      const window = query.window ?? { style: 'page' as const, offset: 0, limit: MAX_PAGE };
      const unfiltered = query.conditions.length === 0 && query.search === undefined;
      const { rows, total } = await listRows(db, changeList, { ...query, window }, unfiltered ? await countRows(db, 'cambios') : 0);
      return reply
        .type(json)
        .header('x-total-count', String(total))
        .header('link', linkHeader('/cambios', raw, window, total))
        .send(list((rows as ChangeRow[]).map(normalized)));
    },
  );

  app.get(
    '/cambios/:id',
    { schema: { tags, summary: 'One change', operationId: 'readCambio', params: ById, response: { 200: Change, '4xx': ErrorBody, '5xx': ErrorBody } } },
    async (request, reply) => {
      const { id } = request.params as { id: number };
      const [change] = await changesWhere(db, sql`id = ${id}`);
      if (!change) throw notFound(messages.changes.notFound(id));
      return reply.type(json).send(changeJson(change));
    },
  );

  app.post(
    '/cambios/:id/deshacer',
    {
      schema: {
        tags,
        summary: 'Undo a change, while the record is as it left it: the changes the undo made',
        operationId: 'undoCambio',
        params: ById,
        response: { 200: Type.Array(Change), '4xx': ErrorBody, '5xx': ErrorBody },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: number };
      return reply.type(json).send(list(await undoChange(db, id, request.quien)));
    },
  );
}
