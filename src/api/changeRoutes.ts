import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { Change } from './changeSchemas.js';
import { ChangeFeed } from '../changes/feed.js';
import { changeJson, changeList, changesWhere, normalized, type ChangeRow } from '../changes/read.js';
import { undoChange } from '../changes/undo.js';
import { messages } from '../catalogue/messages.js';
import { notFound } from '../catalogue/refusal.js';
import { countRows } from '../db/bulk.js';
import { listRows, matcher, type Condition } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import { badRequest, ErrorBody, sendError } from './errors.js';
import { linkHeader } from './link.js';
import { listParams, listQuerySchema, MAX_PAGE, NO_RELATIONS, parseListQuery, type RawQuery } from './listQuery.js';
import { HEADERS } from './openapi.js';

/** Seconds a client refused for want of a stream slot is asked to wait. */
const STREAM_RETRY_SECONDS = 5;
const HEARTBEAT_MS = 15_000;
/** How often a stream waiting for its reader looks whether it has taken what was written. */
const DRAIN_LOOK_MS = 50;
/** What a client waits before it reconnects (the stream's `retry:`). */
const RECONNECT_MS = 1000;

const wantsStream = (request: FastifyRequest) => /\btext\/event-stream\b/i.test(request.headers.accept ?? '');

/** Where a stream starts: after Last-Event-ID, else after `desde`, else (undefined) after what is committed now. */
function startOf(lastEventId: string | string[] | undefined, desde: string | string[] | undefined): number | undefined {
  const given = [lastEventId ?? desde].flat().at(-1);
  if (given === undefined) return undefined;
  if (!/^\d{1,15}$/.test(given.trim())) throw badRequest(messages.changes.badStart(given));
  return Number(given.trim());
}

/** Whether the reader has yet to take what was written: nothing more is written until it has. */
const backedUp = (response: ServerResponse) => !response.destroyed && response.writableLength >= response.writableHighWaterMark;

/**
 * Settles once the reader has taken what was written, or the stream is gone. A reader that takes
 * nothing for `stallMs` has stopped reading: its stream is cut, and it resumes from its last id.
 */
function taken(response: ServerResponse, stallMs: number): Promise<void> {
  return new Promise((resolve) => {
    const since = Date.now();
    const check = () => {
      if (backedUp(response)) {
        if (Date.now() - since < stallMs) return;
        response.destroy();
      }
      clearInterval(looking);
      response.off('drain', check).off('close', check);
      resolve();
    };
    // Looked at, not only awaited: a response whose bytes wait in its own buffer rather than the socket's is not always told 'drain'.
    const looking = setInterval(check, DRAIN_LOOK_MS);
    response.on('drain', check).on('close', check);
    check();
  });
}

const ById = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const json = 'application/json; charset=utf-8';
const list = (rows: ChangeRow[]) => `[${rows.map(changeJson).join(',')}]`;

/**
 * The change log over HTTP: `GET /cambios` (the resources' list dialect; the first 1,000 when no
 * page is asked for), `GET /cambios/{id}`, and `POST /cambios/{id}/deshacer`, the undo.
 */
export function changeRoutes(app: FastifyInstance, db: Db, options: { maxStreams: number; stallSeconds: number }): void {
  const tags = ['cambios'];
  const feed = new ChangeFeed(db, (error) => app.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'change feed: poll failed'));
  /** The open streams, each with what stops feeding it. */
  const streams = new Map<ServerResponse, () => void>();
  // Before the server waits for open connections to end: each stream is told nothing more, then its answer ends.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    feed.close();
    for (const [response, end] of streams) {
      end();
      response.end();
    }
  });
  app.get(
    '/cambios',
    {
      schema: {
        tags,
        summary: 'The change log: every creation, modification and deletion',
        description: 'With Accept: text/event-stream, the live feed: each change as it is committed, as Server-Sent Events (docs/api.md, "The live feed").',
        operationId: 'listCambios',
        response: { 200: Type.Array(Change), '4xx': ErrorBody, '5xx': ErrorBody },
        described: {
          query: Type.Object({
            ...listQuerySchema(changeList.kinds, NO_RELATIONS).properties,
            desde: Type.Optional(Type.Integer({ minimum: 0, description: 'The live feed: start after this change id (Last-Event-ID wins).' })),
          }),
          headers: Type.Object({ 'Last-Event-ID': Type.Optional(Type.Integer({ minimum: 0, description: 'The live feed: the id of the last change received; it starts after it.' })) }),
          answers: {
            200: {
              description: 'The changes that match, by id (the first 1,000 unless a page is asked for); or the live feed.',
              headers: { ...HEADERS.totalCount, ...HEADERS.link, 'Cache-Control': Type.Literal('no-store', { description: 'The live feed only.' }) },
              content: { 'text/event-stream': Type.String({ description: 'Events `id: <id>`, `event: cambio`, `data: <the change as one line of JSON>`; a comment line at least every 15 seconds.' }) },
            },
            400: 'A list parameter, desde or Last-Event-ID has a value it does not take: the sentence names it.',
          },
        },
      },
    },
    async (request, reply) => {
      const raw = request.query as RawQuery;
      // `cuando` is an instant, not a wall clock: an offset is applied, in UTC.
      const query = parseListQuery(raw, changeList.kinds, { expand: [], embed: [] }, 'UTC');
      if (wantsStream(request)) return follow(request, reply, query.conditions);
      const window = query.window ?? { style: 'page' as const, offset: 0, limit: MAX_PAGE };
      const unfiltered = query.conditions.length === 0 && query.search === undefined;
      const { rows, total } = await listRows(db, changeList, { ...query, window }, unfiltered ? await countRows(db, 'cambios') : 0);
      return reply
        .type(json)
        .header('x-total-count', String(total))
        .header('link', linkHeader('/cambios', listParams(raw, changeList.kinds), window, total))
        .send(list((rows as ChangeRow[]).map(normalized)));
    },
  );

  /** The live feed: Server-Sent Events from where the client left off (docs/api.md, "The live feed"). */
  async function follow(request: FastifyRequest, reply: FastifyReply, conditions: Condition[]) {
    const from = startOf(request.headers['last-event-id'], (request.query as RawQuery).desde);
    if (feed.size >= options.maxStreams) {
      return sendError(request, reply.header('retry-after', String(STREAM_RETRY_SECONDS)), 503, messages.changes.tooManyStreams);
    }
    const start = from === undefined ? await feed.opening() : { last: from };
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    response.write(`retry: ${RECONNECT_MS}\n\n`);
    // One that was opening when the service began to stop (its start was being looked up) ends as the open ones did.
    if (closing) return void response.end();
    const heartbeat = setInterval(() => {
      if (!backedUp(response)) response.write(': latido\n\n');
    }, HEARTBEAT_MS);
    const stop = feed.subscribe(
      {
        ...start,
        matches: matcher(conditions),
        send: (change) => response.write(`id: ${change.id}\nevent: cambio\ndata: ${changeJson(change)}\n\n`),
        drained: () => taken(response, options.stallSeconds * 1000),
        fail: (error) => {
          request.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'change feed: stream failed');
          response.destroy();
        },
      },
      conditions,
    );
    const end = () => {
      clearInterval(heartbeat);
      streams.delete(response);
      stop();
    };
    streams.set(response, end);
    response.on('close', end);
  }

  app.get(
    '/cambios/:id',
    {
      schema: {
        tags,
        summary: 'One change',
        operationId: 'readCambio',
        params: ById,
        response: { 200: Change, '4xx': ErrorBody, '5xx': ErrorBody },
        described: { answers: { 200: 'The change.', 400: 'The id is not a change id.', 404: 'No change has that id.' } },
      },
    },
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
        described: {
          answers: {
            200: 'The changes the undo made, each with deshace set to this id: all of them, or none.',
            400: 'The id is not a change id.',
            404: 'No change has that id.',
            409: 'The record is no longer as that change left it, its key is taken, or a record it refers to is gone: the sentence says which. Nothing changed.',
          },
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: number };
      return reply.type(json).send(list(await undoChange(db, id, request.quien)));
    },
  );
}
