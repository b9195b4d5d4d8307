import type { FastifyInstance } from 'fastify';
import { calendar, type CalendarEvent, type CalendarOptions } from '../calendar/ics.js';
import { normalizeKey } from '../catalogue/keys.js';
import { listRows, matcher } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import { eventosUrbanos } from '../resources/index.js';
import { ErrorBody } from './errors.js';
import { parseListQuery, type RawQuery } from './listQuery.js';

type Evento = { id: number; titulo: string; descripcion: string; fecha: string; lugar: string; categoria_id: number };

/**
 * `GET /eventosUrbanos.ics`: the urban events as an iCalendar feed that calendar apps subscribe to,
 * with the events list's filters. Each event's SEQUENCE and LAST-MODIFIED come from the change log;
 * an event deleted within the log's retention stays, cancelled, so subscribed calendars drop it.
 */
export function calendarRoutes(app: FastifyInstance, db: Db, options: CalendarOptions): void {
  app.get(
    '/eventosUrbanos.ics',
    {
      schema: {
        tags: ['eventosUrbanos'],
        summary: 'The urban events as an iCalendar (RFC 5545) feed, with the list filters',
        operationId: 'calendarEventosUrbanos',
        produces: ['text/calendar'],
        response: { '4xx': ErrorBody, '5xx': ErrorBody },
      },
    },
    async (request, reply) => {
      const query = parseListQuery(request.query as RawQuery, eventosUrbanos.kinds, { expand: [], embed: [] }, options.timeZone);
      const spec = { table: eventosUrbanos.table, key: eventosUrbanos.key.name, kinds: eventosUrbanos.kinds };
      const { rows } = await listRows(db, spec, { ...query, sort: [], window: undefined, expand: [], embed: [] }, 0);
      const current = rows.map((row) => JSON.parse(eventosUrbanos.representation(row as Record<string, unknown>)) as Evento);
      const categorias = new Map((await db.selectFrom('categorias').select(['id', 'nombre']).execute()).map((c) => [Number(c.id), c.nombre]));
      const history = await db
        .selectFrom('cambios')
        .select(['id', 'clave', 'operacion', 'antes', 'cuando'])
        .where('recurso', '=', eventosUrbanos.name)
        .orderBy('id')
        .execute();
      const byEvent = new Map<number, { changes: number; firstIsAlta: boolean; last: (typeof history)[number] }>();
      for (const change of history) {
        const clave = Number(change.clave);
        const seen = byEvent.get(clave);
        byEvent.set(clave, { changes: (seen?.changes ?? 0) + 1, firstIsAlta: seen ? seen.firstIsAlta : change.operacion === 'alta', last: change });
      }
      const of = (evento: Evento, cancelled: boolean): CalendarEvent => {
        const log = byEvent.get(evento.id);
        return {
          ...evento,
          categoria: categorias.get(evento.categoria_id),
          sequence: log ? log.changes - (log.firstIsAlta ? 1 : 0) : 0,
          lastModified: log?.last.cuando,
          cancelled,
        };
      };
      const listed = new Set(current.map((e) => e.id));
      const matches = matcher(query.conditions);
      const searched = (e: Evento) => query.search === undefined || [e.titulo, e.descripcion, e.lugar].some((t) => normalizeKey(t).includes(query.search ?? ''));
      const deleted = [...byEvent.values()]
        .filter(({ last }) => last.operacion === 'baja' && last.antes !== null && !listed.has(Number(last.clave)))
        .map(({ last }) => JSON.parse(last.antes ?? '{}') as Evento)
        .filter((e) => matches(e) && searched(e));
      const events = [...current.map((e) => of(e, false)), ...deleted.map((e) => of(e, true))].sort((a, b) => a.id - b.id);
      return reply.type('text/calendar; charset=utf-8').send(calendar(events, options));
    },
  );
}
