import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { eventsCalendar } from '../calendar/events.js';
import type { CalendarOptions } from '../calendar/ics.js';
import type { Db } from '../db/schema.js';
import { eventosUrbanos } from '../resources/index.js';
import { ErrorBody } from './errors.js';
import { filterParams, parseListQuery, type RawQuery } from './listQuery.js';

/** `GET /eventosUrbanos.ics`: the urban events as an iCalendar feed that calendar apps subscribe to, with the events list's filters (calendar/). */
export function calendarRoutes(app: FastifyInstance, db: Db, options: CalendarOptions): void {
  app.get(
    '/eventosUrbanos.ics',
    {
      schema: {
        tags: ['eventosUrbanos'],
        summary: 'The urban events as an iCalendar (RFC 5545) feed, with the list filters',
        operationId: 'calendarEventosUrbanos',
        response: { '4xx': ErrorBody, '5xx': ErrorBody },
        described: {
          // The list's filters and search; paging and sorting do not apply to a calendar.
          query: Type.Object(filterParams(eventosUrbanos.kinds)),
          answers: {
            200: { description: 'The calendar: a VCALENDAR with a VEVENT per event, and the events deleted lately, cancelled.', content: { 'text/calendar': Type.String() } },
            400: 'A filter has a value it does not take: the sentence names it.',
          },
        },
      },
    },
    async (request, reply) => {
      const query = parseListQuery(request.query as RawQuery, eventosUrbanos.kinds, { expand: [], embed: [] }, options.timeZone);
      const publicUrl = options.publicUrl?.replace(/\/$/, '') ?? `http://${request.headers.host ?? 'localhost'}`;
      return reply.type('text/calendar; charset=utf-8').send(await eventsCalendar(db, query, { ...options, publicUrl }));
    },
  );
}
