import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { tablesAnswerCache } from '../cache/answers.js';
import type { Versions } from '../cache/versions.js';
import { listingsOf, listingsPage, type ListingsQuery } from '../calendar/listings.js';
import { whatsOnCalendar, whatsOnJsonLd } from '../calendar/whatsOn.js';
import type { CalendarOptions } from '../calendar/ics.js';
import { calendarDay } from '../catalogue/series.js';
import { messages } from '../catalogue/messages.js';
import { dayAt, wallClockAt } from '../catalogue/zone.js';
import type { FieldKind, Window } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import { sqliteDurable } from '../db/sqlite.js';
import { funciones, peliculas } from '../resources/index.js';
import { ANSWER_CACHE_LIMITS } from './crudRoutes.js';
import { sendKept } from './compressed.js';
import { badRequest, ErrorBody } from './errors.js';
import { linkHeader } from './link.js';
import { MAX_PAGE, parseListQuery, type RawQuery } from './listQuery.js';
import { geoParams } from './nearQuery.js';

const DAY_MS = 86_400_000;
/** The filters of what's on, with their kinds: the showtime's own, and the item's category. */
const KINDS: Record<string, FieldKind> = Object.fromEntries(
  [...(['tipo_evento', 'lugar_id', 'estado'] as const).map((f) => [f, funciones.kinds[f]]), ['categoria_id', peliculas.kinds.categoria_id]].filter(([, kind]) => kind !== undefined),
);
const PARAMS = ['desde', 'hasta', ...Object.keys(KINDS), 'q', 'cerca', 'radio_km', 'bbox', '_page', '_limit'];
const PAGING = ['_page', '_limit'];

/** The parameters of what's on that the request holds: what a `Link` keeps, and nothing else. */
const known = (raw: RawQuery, paging: boolean): RawQuery =>
  Object.fromEntries(Object.entries(raw).filter(([param]) => PARAMS.includes(param) && (paging || !PAGING.includes(param))));

/** A request of what's on, checked: the showtimes it selects, its page, the parameters a `Link` keeps, and its kept answer's key. */
interface Asked {
  query: ListingsQuery;
  window: Window;
  params: RawQuery;
  /** What the answer depends on besides the tables: the path, the query (the window's days resolved), the page. */
  key: string;
}

/**
 * The window (`desde`, `hasta`: dates, both included; by default `today` and six days on) and the
 * filters, checked: a bad value is a 400 naming its parameter.
 */
function parseWhatsOn(path: string, raw: RawQuery, zone: string, today: number, paging: boolean): Asked {
  const one = (param: string) => [raw[param] ?? []].flat().at(-1);
  const day = (param: string) => {
    const text = one(param);
    if (text === undefined) return undefined;
    const ms = calendarDay(text.trim());
    if (ms === undefined) throw badRequest(messages.whatsOn.date(param));
    return ms;
  };
  const given = { desde: day('desde'), hasta: day('hasta') };
  const desde = given.desde ?? today;
  const hasta = given.hasta ?? desde + 6 * DAY_MS;
  if (hasta < desde) throw badRequest(messages.whatsOn.hastaBeforeDesde);
  const params = known(raw, paging);
  const list = parseListQuery(params, KINDS, { expand: [], embed: [] }, zone, true);
  const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');
  const query: ListingsQuery = {
    from: iso(desde),
    to: iso(hasta + DAY_MS - 1),
    conditions: list.conditions.filter((c) => c.field !== 'categoria_id'),
    ...(list.conditions.some((c) => c.field === 'categoria_id') && { categoriaId: Number(list.conditions.find((c) => c.field === 'categoria_id')?.values[0]) }),
    ...(list.search !== undefined && { search: list.search }),
    ...(list.geo && { geo: list.geo }),
  };
  const window = list.window ?? { style: 'page' as const, offset: 0, limit: MAX_PAGE };
  return { query, window, params, key: JSON.stringify([path, query, paging ? [window, params] : null]) };
}

/** Distinct URLs whose checked request is kept: a listings page, calendar apps and crawlers ask the same few again and again. */
const ASKED_KEPT = 1000;
/** A longer URL is checked each time it comes, so that what is kept stays small. */
const ASKED_URL_MAX = 2048;

/**
 * parseWhatsOn once per distinct URL and day (a window without dates starts today, in `zone`):
 * checking the parameters cost a kept answer about as much as sending it (docs/development.md,
 * "Measured choices"). A refused request is checked each time.
 */
function checkedOnce(zone: string) {
  const kept = new Map<string, Asked>();
  let day: number | undefined;
  return (request: FastifyRequest, path: string, paging: boolean): Asked => {
    const today = dayAt(zone, Date.now());
    if (today !== day) {
      kept.clear();
      day = today;
    }
    let asked = kept.get(request.url);
    if (asked) return asked;
    asked = parseWhatsOn(path, request.query as RawQuery, zone, today, paging);
    if (request.url.length <= ASKED_URL_MAX) {
      if (kept.size >= ASKED_KEPT) kept.delete(kept.keys().next().value ?? '');
      kept.set(request.url, asked);
    }
    return asked;
  };
}

/** The service's public address: `PUBLIC_URL`, else http:// and the request's Host. */
const publicUrlOf = (request: FastifyRequest, configured: string | undefined) => configured ?? `http://${request.host}`;

/** `GET /cartelera`, `/cartelera.ics`, `/cartelera.jsonld`: what's on (calendar/). */
export function whatsOnRoutes(app: FastifyInstance, db: Db, versions: Versions, options: CalendarOptions & { publicUrl: string | undefined }): void {
  const tags = ['cartelera'];
  // What the three answers read: a write to any of them moves one of these versions.
  const answers = tablesAnswerCache(versions, ['funciones', 'lugares', 'peliculas', 'obras', 'eventos_urbanos', 'categorias', 'artistas', 'participaciones', 'imagenes'], ANSWER_CACHE_LIMITS, () => sqliteDurable(db));
  const checked = checkedOnce(options.timeZone);
  const query = Type.Object({
    desde: Type.Optional(Type.String({ format: 'date', description: 'The first day (YYYY-MM-DD); default today, in TIMEZONE.' })),
    hasta: Type.Optional(Type.String({ format: 'date', description: 'The last day, included; default six days after desde.' })),
    tipo_evento: Type.Optional(Type.String({ enum: ['pelicula', 'obra', 'eventoUrbano'] })),
    categoria_id: Type.Optional(Type.Integer()),
    lugar_id: Type.Optional(Type.Integer()),
    estado: Type.Optional(Type.String({ enum: ['programada', 'cancelada', 'aplazada', 'agotada'] })),
    q: Type.Optional(Type.String({ description: "Text in the item's title, without regard to case or accents." })),
    ...geoParams(),
  });
  const described = (summary: string, operationId: string, type: string, description: string, paged: boolean) => ({
    schema: {
      tags,
      summary,
      operationId,
      response: { '4xx': ErrorBody, '5xx': ErrorBody },
      described: {
        query: paged
          ? Type.Object({ ...query.properties, _page: Type.Optional(Type.Integer({ minimum: 1 })), _limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE })) })
          : query,
        answers: { 200: { description, content: { [type]: Type.String() } }, 400: 'A parameter has a value it does not take: the sentence names it.' },
      },
    },
  });

  app.get('/cartelera', described("What's on: the showtimes of a window of days, with their items and venues", 'cartelera', 'application/json', 'The showtimes in inicio order, each with evento, lugar and imagen (the first 1,000 unless a page is asked for).', true), async (request, reply) => {
    const { query: q, window, params, key } = checked(request, '/cartelera', true);
    const answer = await answers(key, 'application/json; charset=utf-8', async () => {
      const { rows, total } = await listingsPage(db, q, window);
      const headers = { 'x-total-count': String(total), link: linkHeader('/cartelera', params, window, total) };
      return { body: JSON.stringify(await listingsOf(db, rows)), headers };
    });
    return sendKept(request, reply, answer);
  });
  app.get('/cartelera.ics', described("What's on as an iCalendar (RFC 5545) feed", 'carteleraIcs', 'text/calendar', 'A VCALENDAR with a VEVENT per showtime, and the showtimes deleted lately, cancelled.', false), async (request, reply) => {
    const { query: q, key } = checked(request, '/cartelera.ics', false);
    const answer = await answers(key, 'text/calendar; charset=utf-8', async () => ({ body: await whatsOnCalendar(db, q, options) }));
    return sendKept(request, reply, answer);
  });
  app.get('/cartelera.jsonld', described("What's on as schema.org JSON-LD", 'carteleraJsonLd', 'application/ld+json', 'One @graph of ScreeningEvent, TheaterEvent and Event nodes.', false), async (request, reply) => {
    const { query: q, key } = checked(request, '/cartelera.jsonld', false);
    const publicUrl = publicUrlOf(request, options.publicUrl);
    const answer = await answers(`${key} ${publicUrl}`, 'application/ld+json; charset=utf-8', async () => ({
      body: await whatsOnJsonLd(db, q, { publicUrl, timeZone: options.timeZone }),
    }));
    return sendKept(request, reply, answer);
  });
  const Hora = Type.Object({
    zona: Type.String({ description: 'TIMEZONE: the IANA zone where the catalogue\'s events happen.' }),
    ahora: Type.String({ description: 'Now, as the wall clock of that zone reads it, in the answered fecha form.' }),
  });
  // The admin reads its clock and zone here: "upcoming" and a series' starts are the city's, not the browser's.
  app.get('/hora', { schema: { tags, summary: "The city's zone and its wall clock now", operationId: 'hora', response: { 200: Hora, '4xx': ErrorBody, '5xx': ErrorBody } } }, async () => ({
    zona: options.timeZone,
    ahora: new Date(Math.floor(wallClockAt(options.timeZone, Date.now()) / 1000) * 1000).toISOString().replace('Z', '+00:00'),
  }));
}
