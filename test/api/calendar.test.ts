// GET /eventosUrbanos.ics, read back by Mozilla's iCalendar parser (ical.js), as calendar apps read it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import ICAL from 'ical.js';
import { folded } from '../../src/calendar/ics.js';
import { buildTestApp, withApp, type Json } from '../helpers.js';
import { backend } from '../stores.js';

async function create(app: FastifyInstance, path: string, body: Json) {
  const res = await app.inject({ method: 'POST', url: path, payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<Json>();
}

/** The calendar's events as ical.js reads them, by UID. */
async function read(app: FastifyInstance, query = '') {
  const res = await app.inject({ method: 'GET', url: `/eventosUrbanos.ics${query}` });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'text/calendar; charset=utf-8');
  assert.ok(res.body.split('\r\n').every((line) => Buffer.byteLength(line) <= 75), 'every line at most 75 octets');
  const root = new ICAL.Component(ICAL.parse(res.body));
  const events = root.getAllSubcomponents('vevent').map((v) => ({
    uid: String(v.getFirstPropertyValue('uid')),
    summary: v.getFirstPropertyValue('summary'),
    description: v.getFirstPropertyValue('description'),
    location: v.getFirstPropertyValue('location'),
    categories: v.getFirstPropertyValue('categories'),
    start: (v.getFirstPropertyValue('dtstart') as ICAL.Time).toString(),
    end: (v.getFirstPropertyValue('dtend') as ICAL.Time | null)?.toString(),
    allDay: (v.getFirstPropertyValue('dtstart') as ICAL.Time).isDate,
    floating: (v.getFirstPropertyValue('dtstart') as ICAL.Time).zone === ICAL.Timezone.localTimezone,
    sequence: v.getFirstPropertyValue('sequence'),
    lastModified: (v.getFirstPropertyValue('last-modified') as ICAL.Time | null)?.toString(),
    status: v.getFirstPropertyValue('status'),
  }));
  return { res, root, events };
}

const HARD = 'Noche, música; y \\ barra\nsegunda línea 🎭 ' + 'á'.repeat(300);

describe(`the events' calendar (${backend})`, () => {
  it('when a title or description holds control characters, then the calendar leaves them out (iCalendar has no escape for them) and keeps tabs and line breaks', () =>
    withApp(async (app) => {
      const categoria = await create(app, '/categorias', { nombre: 'Fiestas' });
      await create(app, '/eventosUrbanos', { titulo: 'Fiesta \u007f del\u0001 barrio', descripcion: 'a\bb\tc\nd\u001be', fecha: '2026-11-14', lugar: 'Plaza\u0007', categoria_id: categoria.id });
      const { res, events } = await read(app);
      // Outside the CRLF that ends each line, the only control character allowed is the tab (RFC 5545 §3.3.11, TSAFE-CHAR).
      // eslint-disable-next-line no-control-regex -- the control characters are what this looks for
      assert.doesNotMatch(res.body.replaceAll('\r\n', ''), /[\u0000-\u0008\u000A-\u001F\u007F]/);
      assert.equal(events[0]?.summary, 'Fiesta  del barrio');
      assert.equal(events[0]?.description, 'ab\tc\nde');
      assert.equal(events[0]?.location, 'Plaza');
    }));

  it('when events are published, then every text comes back byte for byte, all-day and timed events keep their wall clock, and the calendar names itself', () =>
    withApp(async (app) => {
      const categoria = await create(app, '/categorias', { nombre: 'Música, en vivo' });
      await create(app, '/eventosUrbanos', { titulo: 'Noche, música; y \\ barra 🎭', descripcion: HARD, fecha: '2026-11-14', lugar: 'Plaza; centro\r\nLínea 2\rLínea 3', categoria_id: categoria.id });
      await create(app, '/eventosUrbanos', { titulo: 'Milonga', descripcion: 'Al aire libre.', fecha: '2026-11-14T20:30:00Z', lugar: 'San Telmo', categoria_id: categoria.id });
      const { root, events } = await read(app);
      assert.equal(root.getFirstPropertyValue('x-wr-calname'), 'Cartelera');
      assert.equal(root.getFirstPropertyValue('method'), 'PUBLISH');
      assert.deepEqual(events[0], {
        uid: 'eventoUrbano-1@cartelera',
        summary: 'Noche, música; y \\ barra 🎭',
        description: HARD,
        location: 'Plaza; centro\nLínea 2\nLínea 3',
        categories: 'Música, en vivo',
        start: '2026-11-14',
        end: '2026-11-15',
        allDay: true,
        floating: true,
        sequence: 0,
        lastModified: events[0]?.lastModified,
        status: null,
      });
      assert.match(String(events[0]?.lastModified), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      assert.deepEqual([events[1]?.start, events[1]?.end, events[1]?.allDay, events[1]?.floating], ['2026-11-14T20:30:00', undefined, false, true]);
    }));

  it('when an event is changed and then deleted, then its SEQUENCE rises and it stays, cancelled, in the calendars its last values matched', () =>
    withApp(async (app) => {
      const musica = await create(app, '/categorias', { nombre: 'Música' });
      const teatro = await create(app, '/categorias', { nombre: 'Teatro' });
      const evento = await create(app, '/eventosUrbanos', { titulo: 'Murga', descripcion: 'Murgas.', fecha: '2027-02-20', lugar: 'Parque', categoria_id: musica.id });
      await create(app, '/eventosUrbanos', { titulo: 'Obra al aire libre', descripcion: 'Teatro.', fecha: '2027-02-21', lugar: 'Plaza', categoria_id: teatro.id });
      await app.inject({ method: 'PATCH', url: `/eventosUrbanos/${evento.id}`, payload: { lugar: 'Parque Rodó' } });
      assert.equal((await read(app)).events[0]?.sequence, 1);
      await app.inject({ method: 'DELETE', url: `/eventosUrbanos/${evento.id}` });
      const all = (await read(app)).events;
      assert.deepEqual(all.map((e) => [e.summary, e.sequence, e.status, e.location]), [['Murga', 2, 'CANCELLED', 'Parque Rodó'], ['Obra al aire libre', 0, null, 'Plaza']]);
      assert.deepEqual((await read(app, `?categoria_id=${musica.id}`)).events.map((e) => [e.summary, e.status]), [['Murga', 'CANCELLED']]);
      assert.deepEqual((await read(app, `?categoria_id=${teatro.id}`)).events.map((e) => e.summary), ['Obra al aire libre']);
      assert.deepEqual((await read(app, '?q=murga')).events.map((e) => e.summary), ['Murga']);
      assert.deepEqual((await read(app, '?fecha_gte=2027-02-21')).events.map((e) => e.summary), ['Obra al aire libre']);
    }));

  it('when the calendar is asked again with its ETag, then 304; after a change, a new one', () =>
    withApp(async (app) => {
      const categoria = await create(app, '/categorias', { nombre: 'Feria' });
      await create(app, '/eventosUrbanos', { titulo: 'Feria', descripcion: 'Libros.', fecha: '2027-03-01', lugar: 'Predio', categoria_id: categoria.id });
      const { res } = await read(app);
      const etag = String(res.headers.etag);
      assert.equal((await app.inject({ method: 'GET', url: '/eventosUrbanos.ics', headers: { 'if-none-match': etag } })).statusCode, 304);
      await app.inject({ method: 'PATCH', url: '/eventosUrbanos/1', payload: { lugar: 'Predio ferial' } });
      const changed = await app.inject({ method: 'GET', url: '/eventosUrbanos.ics', headers: { 'if-none-match': etag } });
      assert.equal(changed.statusCode, 200);
    }));

  it('when CALENDAR_NAME and CALENDAR_DOMAIN are set, then the calendar and its UIDs use them', async () => {
    const app = await buildTestApp({ CALENDAR_NAME: 'Agenda de la ciudad', CALENDAR_DOMAIN: 'cultura.example.org' });
    try {
      const categoria = await create(app, '/categorias', { nombre: 'Cine' });
      await create(app, '/eventosUrbanos', { titulo: 'Cine', descripcion: 'x', fecha: '2027-01-01', lugar: 'y', categoria_id: categoria.id });
      const { root, events } = await read(app);
      assert.equal(root.getFirstPropertyValue('x-wr-calname'), 'Agenda de la ciudad');
      assert.equal(events[0]?.uid, 'eventoUrbano-1@cultura.example.org');
    } finally {
      await app.close();
    }
  });
});

describe('folding iCalendar lines', () => {
  it('when a line is longer than 75 octets, then it folds at 75, never inside a UTF-8 sequence, and unfolds to itself', () => {
    for (const line of [`SUMMARY:${'a'.repeat(200)}`, `SUMMARY:${'é'.repeat(100)}`, `SUMMARY:${'🎭'.repeat(40)}x`]) {
      const parts = folded(line).split('\r\n');
      assert.ok(parts.every((p) => Buffer.byteLength(p) <= 75));
      assert.ok(parts.slice(1).every((p) => p.startsWith(' ')));
      assert.equal(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join(''), line);
    }
  });
});
