// TIMEZONE (contract, "Dates and times"): a date-time with an offset names an instant, stored as
// that instant's wall clock in the city's zone; without an offset, or with Z or +00:00, it is the
// wall clock as written. At every way in: bodies, filters, imports, and the calendar outward.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import ICAL from 'ical.js';
import { buildTestApp, createCategoria, createEventoUrbano, eventoUrbanoBody, send, type EventoUrbano, type Json } from '../helpers.js';
import { backend } from '../stores.js';
import { harness } from '../harness.js';
import { appOn, cartelera } from '../cli/cli.js';
import { tempDir } from '../tempDir.js';

const started = harness();

const BUENOS_AIRES = 'America/Argentina/Buenos_Aires';
const MADRID = 'Europe/Madrid';

async function withZone(zone: string | undefined, test: (app: FastifyInstance) => Promise<void>): Promise<void> {
  const app = await buildTestApp(zone === undefined ? {} : { TIMEZONE: zone });
  try {
    await test(app);
  } finally {
    await app.close();
  }
}

/** The fecha a new event sent with `fecha` is answered, and read back, with. */
async function storedAs(app: FastifyInstance, fecha: string): Promise<string> {
  const created = await createEventoUrbano(app, { fecha });
  const read = (await send(app, 'GET', `/eventosUrbanos?id=${created.id}`)).json<EventoUrbano[]>();
  assert.equal(read[0]?.fecha, created.fecha, 'read back as answered');
  return created.fecha;
}

/** A multipart upload of one file, as the admin's import sends it. */
async function importar(app: FastifyInstance, name: string, text: string) {
  const form = new FormData();
  form.append('archivo', new Blob([text]), name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return app.inject({
    method: 'POST',
    url: '/importar',
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

describe(`dates keep their clock (${backend})`, () => {
  it("when TIMEZONE is Buenos Aires and docs/api.md's PUT sends 21:00 at -03:00, then the event is at 21:00 on 20/02/2027, and +01:00 is 17:00", () =>
    withZone(BUENOS_AIRES, async (app) => {
      const categoria = await createCategoria(app);
      const evento = await createEventoUrbano(app, { categoria_id: categoria.id, fecha: '2027-02-20' });
      const body = { titulo: 'Noche de murga', descripcion: 'Murgas y candombe en el tablado.', fecha: '2027-02-20T21:00:00-03:00', lugar: 'Tablado del Parque Rodó, Montevideo', categoria_id: categoria.id };
      const put = await send(app, 'PUT', `/eventosUrbanos/${evento.id}`, body);
      assert.equal(put.statusCode, 200, put.body);
      assert.equal(put.json<Json>().fecha, '2027-02-20T21:00:00.000+00:00');
      const read = await send(app, 'GET', `/eventosUrbanos/${encodeURIComponent('Noche de murga')}`);
      assert.equal(read.json<Json>().fecha, '2027-02-20T21:00:00.000+00:00');

      assert.equal(await storedAs(app, '2027-02-20T21:00:00+01:00'), '2027-02-20T17:00:00.000+00:00');
      assert.equal(await storedAs(app, '2027-02-20T23:30:00-05:00'), '2027-02-21T01:30:00.000+00:00');
    }));

  it('when a date-time has no offset, Z or +00:00, then it is the wall clock as written, whatever TIMEZONE, so an answer sent back stays as it is', () =>
    withZone(BUENOS_AIRES, async (app) => {
      for (const fecha of ['2027-02-20T21:00', '2027-02-20T21:00:00Z', '2027-02-20T21:00:00+00:00', '2027-02-20T21:00:00.000+00:00', '2027-02-20T21:00:00-00:00']) {
        assert.equal(await storedAs(app, fecha), '2027-02-20T21:00:00.000+00:00', fecha);
      }
      assert.equal(await storedAs(app, '2027-02-20'), '2027-02-20T00:00:00.000+00:00');
    }));

  it('when TIMEZONE is the default UTC, then an offset is applied as an instant in UTC', () =>
    withZone(undefined, async (app) => {
      assert.equal(await storedAs(app, '2025-10-10T15:30:00+02:00'), '2025-10-10T13:30:00.000+00:00');
      assert.equal(await storedAs(app, '2027-02-20T21:00:00-03:00'), '2027-02-21T00:00:00.000+00:00');
    }));

  it("when TIMEZONE is Madrid, then instants across its daylight-saving changes take the offset of their moment (+01:00 in winter, +02:00 in summer)", () =>
    withZone(MADRID, async (app) => {
      const cases: [string, string][] = [
        ['2027-01-15T20:00:00Z', '2027-01-15T20:00:00.000+00:00'], // a wall clock, not converted
        ['2027-01-15T20:00:00-03:00', '2027-01-16T00:00:00.000+00:00'], // 23:00Z, winter: +1
        ['2027-07-01T20:00:00-03:00', '2027-07-02T01:00:00.000+00:00'], // 23:00Z, summer: +2
        // 28/03/2027: at 01:00Z clocks go from 02:00 to 03:00.
        ['2027-03-27T23:59:59-01:00', '2027-03-28T01:59:59.000+00:00'],
        ['2027-03-28T00:00:00-01:00', '2027-03-28T03:00:00.000+00:00'],
        // 31/10/2027: at 01:00Z clocks go back from 03:00 to 02:00; 02:30 happens twice.
        ['2027-10-30T23:30:00-01:00', '2027-10-31T02:30:00.000+00:00'],
        ['2027-10-31T00:30:00-01:00', '2027-10-31T02:30:00.000+00:00'],
        ['2027-10-31T01:00:00-01:00', '2027-10-31T03:00:00.000+00:00'],
      ];
      for (const [sent, stored] of cases) assert.equal(await storedAs(app, sent), stored, sent);
    }));

  it('when PATCH, PUT and an undo of a deletion carry dates, then each way in keeps the same wall clock', () =>
    withZone(BUENOS_AIRES, async (app) => {
      const evento = await createEventoUrbano(app, { fecha: '2026-12-25T21:00:00-03:00' });
      assert.equal(evento.fecha, '2026-12-25T21:00:00.000+00:00');
      const patched = await send(app, 'PATCH', `/eventosUrbanos/${evento.id}`, { fecha: '2026-12-25T22:00:00-03:00' });
      assert.equal(patched.json<Json>().fecha, '2026-12-25T22:00:00.000+00:00', patched.body);
      const put = await send(app, 'PUT', `/eventosUrbanos/${evento.id}`, patched.json<EventoUrbano>());
      assert.equal(put.json<Json>().fecha, '2026-12-25T22:00:00.000+00:00', 'an answer sent back is unchanged');
      assert.equal(put.statusCode, 200);
      assert.equal((await send(app, 'DELETE', `/eventosUrbanos/${evento.id}`)).statusCode, 200);
      const [baja] = (await send(app, 'GET', `/cambios?recurso=eventosUrbanos&clave=${evento.id}&operacion=baja`)).json<Json[]>();
      const undone = await send(app, 'POST', `/cambios/${String(baja?.id)}/deshacer`);
      assert.equal(undone.statusCode, 200, undone.body);
      const back = await send(app, 'GET', `/eventosUrbanos?id=${evento.id}`);
      assert.equal(back.json<EventoUrbano[]>()[0]?.fecha, '2026-12-25T22:00:00.000+00:00');
    }));

  it("when the list's fecha filters carry an offset, then they name the same wall clocks the events were stored with", () =>
    withZone(BUENOS_AIRES, async (app) => {
      const categoria = await createCategoria(app);
      const nine = await createEventoUrbano(app, { categoria_id: categoria.id, fecha: '2027-02-20T21:00:00-03:00' });
      const ids = async (query: string) => {
        const res = await send(app, 'GET', `/eventosUrbanos?categoria_id=${categoria.id}&${query}`);
        assert.equal(res.statusCode, 200, res.body);
        return res.json<EventoUrbano[]>().map((e) => e.id);
      };
      const at = (text: string) => encodeURIComponent(text);
      assert.deepEqual(await ids(`fecha_gte=${at('2027-02-20T21:00:00-03:00')}`), [nine.id]);
      assert.deepEqual(await ids(`fecha_gte=${at('2027-02-20T21:00:01-03:00')}`), []);
      assert.deepEqual(await ids(`fecha_lte=${at('2027-02-20T21:00:00-03:00')}`), [nine.id]);
      assert.deepEqual(await ids(`fecha_lte=${at('2027-02-20T20:59:59-03:00')}`), []);
      assert.deepEqual(await ids(`fecha=${at('2027-02-21T01:00:00+01:00')}`), [nine.id]);
      assert.deepEqual(await ids(`fecha_ne=${at('2027-02-20T21:00:00-03:00')}`), []);
      assert.deepEqual(await ids('fecha_gte=2027-02-20&fecha_lte=2027-02-20T23:59:59.999Z'), [nine.id], 'a plain date is its midnight; Z the wall clock');
      const ics = await send(app, 'GET', `/eventosUrbanos.ics?categoria_id=${categoria.id}&fecha_lte=${at('2027-02-20T20:59:59-03:00')}`);
      assert.doesNotMatch(ics.body, /BEGIN:VEVENT/, "the calendar's filters read offsets alike");
    }));

  it("when the change log's cuando is filtered with an offset, then it is an instant, whatever TIMEZONE", () =>
    withZone(BUENOS_AIRES, async (app) => {
      const evento = await createEventoUrbano(app);
      const [alta] = (await send(app, 'GET', `/cambios?recurso=eventosUrbanos&clave=${evento.id}`)).json<{ cuando: string }[]>();
      const cuando = new Date(String(alta?.cuando));
      // The same instant written at -03:00: the wall clock three hours earlier.
      const local = new Date(cuando.getTime() - 3 * 3600_000).toISOString().replace('Z', '-03:00');
      const found = await send(app, 'GET', `/cambios?recurso=eventosUrbanos&clave=${evento.id}&cuando=${encodeURIComponent(local)}`);
      assert.equal(found.json<Json[]>().length, 1, `${local} is ${String(alta?.cuando)}`);
    }));

  it('when a spreadsheet or an export file brings a date-time with an offset, then the import stores it as the API does', () =>
    withZone(BUENOS_AIRES, async (app) => {
      const categoria = await createCategoria(app, { nombre: 'Carnaval' });
      const csv = `titulo;descripcion;fecha;lugar;categoria\r\nMurga de Nochebuena;En el tablado.;2026-12-25T21:00:00-03:00;Parque Rodó;${categoria.nombre}\r\n`;
      const res = await importar(app, 'eventosUrbanos.csv', csv);
      assert.equal(res.statusCode, 200, res.body);
      const stored = (await send(app, 'GET', `/eventosUrbanos/${encodeURIComponent('Murga de Nochebuena')}`)).json<Json>();
      assert.equal(stored.fecha, '2026-12-25T21:00:00.000+00:00');
    }));

  it("when the command line imports an export file's date-time with an offset, then TIMEZONE turns it into the wall clock there", async () => {
    const { url } = await started.store();
    const file = join(tempDir('cartelera-dates-'), 'catalogo.json');
    const categorias = [{ id: 1, nombre: 'Carnaval' }];
    writeFileSync(file, JSON.stringify({ formato: 'cartelera', version: 1, categorias, eventosUrbanos: [{ id: 1, ...eventoUrbanoBody(1, { titulo: 'Candombe', fecha: '2026-12-31T23:00:00+01:00' }) }] }));
    const run = await cartelera(['import', '--create', file], url, { TIMEZONE: BUENOS_AIRES });
    assert.equal(run.code, 0, run.stderr);
    const app = await appOn(url);
    try {
      assert.equal((await send(app, 'GET', '/eventosUrbanos/Candombe')).json<Json>().fecha, '2026-12-31T19:00:00.000+00:00');
    } finally {
      await app.close();
    }
  });

  it('when TIMEZONE is Madrid, then the calendar names it on timed events, with a VTIMEZONE that puts each at its instant, and whole days stay dates', () =>
    withZone(MADRID, async (app) => {
      const wallClocks = ['2027-01-15T21:00', '2027-03-28T01:30', '2027-03-28T03:30', '2027-07-01T21:00', '2027-10-31T01:30', '2027-10-31T03:30', '2028-03-26T12:00', '2028-11-05T09:15'];
      // The instants those wall clocks are in Madrid: UTC+1 in winter, UTC+2 in summer.
      const instants = ['2027-01-15T20:00:00Z', '2027-03-28T00:30:00Z', '2027-03-28T01:30:00Z', '2027-07-01T19:00:00Z', '2027-10-30T23:30:00Z', '2027-10-31T02:30:00Z', '2028-03-26T10:00:00Z', '2028-11-05T08:15:00Z'];
      const categoria = await createCategoria(app);
      const created: EventoUrbano[] = [];
      for (const fecha of wallClocks) created.push(await createEventoUrbano(app, { categoria_id: categoria.id, fecha }));
      await createEventoUrbano(app, { categoria_id: categoria.id, fecha: '2027-06-01', titulo: 'Día entero' });
      const res = await send(app, 'GET', `/eventosUrbanos.ics?categoria_id=${categoria.id}`);
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /\r\nDTSTART;TZID=Europe\/Madrid:20270115T210000\r\n/);
      assert.match(res.body, /\r\nDTSTART;VALUE=DATE:20270601\r\nDTEND;VALUE=DATE:20270602\r\n/);
      const root = new ICAL.Component(ICAL.parse(res.body));
      const zones = root.getAllSubcomponents('vtimezone');
      assert.equal(zones.length, 1);
      assert.equal(zones[0]?.getFirstPropertyValue('tzid'), MADRID);
      assert.deepEqual(zones[0]?.getAllSubcomponents().map((c) => c.name), ['standard', 'daylight', 'standard']);
      const zone = new ICAL.Timezone(zones[0] as ICAL.Component);
      const starts = new Map(root.getAllSubcomponents('vevent').map((v) => [v.getFirstPropertyValue('uid'), v.getFirstPropertyValue('dtstart') as ICAL.Time]));
      created.forEach((evento, i) => {
        const start = starts.get(`eventoUrbano-${evento.id}@cartelera`);
        assert.ok(start && !start.isDate, wallClocks[i]);
        start.zone = zone;
        assert.equal(new Date(start.toUnixTime() * 1000).toISOString(), new Date(instants[i] ?? '').toISOString(), wallClocks[i]);
      });
    }));

  it("when TIMEZONE is Buenos Aires and events fall in 2008 and 2009, when it last kept daylight saving, then the VTIMEZONE's rules end where the zone's did", () =>
    withZone(BUENOS_AIRES, async (app) => {
      const categoria = await createCategoria(app);
      // Daylight saving (-02:00) from 30/12/2007 to 16/03/2008 and from 19/10/2008 to 15/03/2009, none after.
      const cases: [string, string][] = [
        ['2008-01-15T21:00', '2008-01-15T23:00:00.000Z'],
        ['2008-07-15T21:00', '2008-07-16T00:00:00.000Z'],
        ['2008-12-15T21:00', '2008-12-15T23:00:00.000Z'],
        ['2009-07-15T21:00', '2009-07-16T00:00:00.000Z'],
        ['2009-12-15T21:00', '2009-12-16T00:00:00.000Z'],
      ];
      const ids: number[] = [];
      for (const [fecha] of cases) ids.push((await createEventoUrbano(app, { categoria_id: categoria.id, fecha })).id);
      const res = await send(app, 'GET', `/eventosUrbanos.ics?categoria_id=${categoria.id}`);
      const root = new ICAL.Component(ICAL.parse(res.body));
      const zone = new ICAL.Timezone(root.getFirstSubcomponent('vtimezone') as ICAL.Component);
      const starts = new Map(root.getAllSubcomponents('vevent').map((v) => [v.getFirstPropertyValue('uid'), v.getFirstPropertyValue('dtstart') as ICAL.Time]));
      cases.forEach(([fecha, instant], i) => {
        const start = starts.get(`eventoUrbano-${String(ids[i])}@cartelera`);
        assert.ok(start, fecha);
        start.zone = zone;
        assert.equal(new Date(start.toUnixTime() * 1000).toISOString(), instant, fecha);
      });
    }));

  it('when TIMEZONE is Buenos Aires, without daylight saving, then the VTIMEZONE holds one STANDARD at -03:00', () =>
    withZone(BUENOS_AIRES, async (app) => {
      const evento = await createEventoUrbano(app, { fecha: '2027-02-20T21:00:00-03:00' });
      const res = await send(app, 'GET', `/eventosUrbanos.ics?id=${evento.id}`);
      assert.match(res.body, /\r\nDTSTART;TZID=America\/Argentina\/Buenos_Aires:20270220T210000\r\n/);
      const root = new ICAL.Component(ICAL.parse(res.body));
      const [vtimezone] = root.getAllSubcomponents('vtimezone');
      assert.deepEqual(vtimezone?.getAllSubcomponents().map((c) => [c.name, c.getFirstPropertyValue('tzoffsetto')?.toString()]), [['standard', '-03:00']]);
      const start = root.getFirstSubcomponent('vevent')?.getFirstPropertyValue('dtstart') as ICAL.Time;
      start.zone = new ICAL.Timezone(vtimezone as ICAL.Component);
      assert.equal(new Date(start.toUnixTime() * 1000).toISOString(), '2027-02-21T00:00:00.000Z');
    }));

  it('when TIMEZONE is UTC, then timed events stay floating and the calendar holds no VTIMEZONE', () =>
    withZone('Etc/UTC', async (app) => {
      const evento = await createEventoUrbano(app, { fecha: '2027-02-20T21:00:00Z' });
      const res = await send(app, 'GET', `/eventosUrbanos.ics?id=${evento.id}`);
      assert.match(res.body, /\r\nDTSTART:20270220T210000\r\n/);
      assert.doesNotMatch(res.body, /VTIMEZONE|TZID/);
    }));
});
