// What's on: GET /cartelera, /cartelera.ics and /cartelera.jsonld, point by point against the
// contract's "Venues, showtimes and what's on", "Calendar" and "Dates and times": the window and its
// defaults by TIMEZONE, every parameter and its 400s, paging, the calendar's and the JSON-LD's fields,
// offsets in a zone with daylight saving (Europe/Madrid) and one without (Buenos Aires), ETags.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import ICAL from 'ical.js';
import sharp from 'sharp';
import { assertError, buildTestApp, createArtista, createCategoria, createEventoUrbano, createObra, createParticipacion, createPelicula, send, unique, type Json } from '../helpers.js';
import { dayAt } from '../../src/catalogue/zone.js';
import { upload } from './uploads.js';
import { backend } from '../stores.js';

const MADRID = 'Europe/Madrid';
const BUENOS_AIRES = 'America/Argentina/Buenos_Aires';
let utc: FastifyInstance;
let madrid: FastifyInstance;
let buenosAires: FastifyInstance;
before(async () => {
  [utc, madrid, buenosAires] = await Promise.all([
    buildTestApp({ PUBLIC_URL: 'https://cartelera.example.org/' }),
    buildTestApp({ TIMEZONE: MADRID, CALENDAR_DOMAIN: 'cartelera.example.org' }),
    buildTestApp({ TIMEZONE: BUENOS_AIRES }),
  ]);
});
after(() => Promise.all([utc, madrid, buenosAires].map((app) => app.close())));

type Listing = Json & { id: number; inicio: string; evento: Json; lugar: Json; imagen: string | null };

async function created(app: FastifyInstance, url: string, body: Json): Promise<Json & { id: number }> {
  const res = await send(app, 'POST', url, body);
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}
const createLugar = (app: FastifyInstance, o: Json = {}) => created(app, '/lugares', { nombre: unique('Sala'), direccion: 'Av. de Mayo 1370, Buenos Aires', ...o });
const createFuncion = (app: FastifyInstance, o: Json) => created(app, '/funciones', o);

/** The day `days` after today in `zone`, as YYYY-MM-DD (computed apart from the service, with Intl). */
function dayIn(zone: string, days = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
  const day = new Date(`${today}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

const list = async (app: FastifyInstance, query: string) => {
  const res = await send(app, 'GET', `/cartelera?${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return { res, body: res.json<Listing[]>() };
};
const ids = (body: { id: number }[]) => body.map((l) => l.id);

/** The wall clock of `zone` at instant `ms`, in milliseconds (computed apart from the service, with Intl). */
function wallIn(zone: string, ms: number): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return Date.parse(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}Z`);
}

describe(`GET /hora (${backend})`, () => {
  for (const [zone, app] of [['UTC', () => utc], [MADRID, () => madrid], [BUENOS_AIRES, () => buenosAires]] as const) {
    it(`when TIMEZONE is ${zone}, then it answers that zone and its wall clock now, in the answered fecha form`, async () => {
      const before = wallIn(zone, Date.now());
      const res = await send(app(), 'GET', '/hora');
      const after = wallIn(zone, Date.now());
      assert.equal(res.statusCode, 200, res.body);
      const { zona, ahora, ...rest } = res.json<{ zona: string; ahora: string }>();
      assert.deepEqual(rest, {});
      assert.equal(zona, zone);
      assert.match(ahora, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000\+00:00$/);
      const at = Date.parse(ahora);
      assert.ok(at >= before - 1000 && at <= after, `${ahora} lies between ${new Date(before).toISOString()} and ${new Date(after).toISOString()}`);
    });
  }
});

describe('today in TIMEZONE, as the default window reads it', () => {
  it('when instants run across midnights and daylight-saving changes, forward and back, then each is on the date Intl gives there, though the day is worked out once', () => {
    // Madrid's changes happen at night, not at midnight; Buenos Aires went from 00:00 to 01:00 on 2008-10-19, so that day began at its gap.
    const spans: [string, string][] = [[MADRID, '2027-03-27T20:00:00Z'], [MADRID, '2027-10-30T20:00:00Z'], [BUENOS_AIRES, '2008-10-18T01:00:00Z'], ['UTC', '2027-01-01T20:00:00Z']];
    for (const [zone, start] of spans) {
      const date = new Intl.DateTimeFormat('en-CA', { timeZone: zone });
      const instants = Array.from({ length: 36 * 12 }, (_, i) => Date.parse(start) + i * 5 * 60_000);
      for (const ms of [...instants, ...instants.reverse()]) {
        assert.equal(new Date(dayAt(zone, ms)).toISOString().slice(0, 10), date.format(ms), `${zone} at ${new Date(ms).toISOString()}`);
      }
    }
  });
});

describe(`GET /cartelera (${backend})`, () => {
  it('when showtimes fall in the window, then each comes with its fields, evento (with categoria), lugar and imagen, in inicio order then id, both days included', async () => {
    const categoria = await createCategoria(utc, { nombre: unique('Drama') });
    const pelicula = await createPelicula(utc, { categoria_id: categoria.id });
    const lugar = await createLugar(utc, { latitud: -34.6, longitud: -58.38, accesible: true });
    const base = { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id };
    const late = await createFuncion(utc, { ...base, inicio: '2031-03-07T23:59' });
    const first = await createFuncion(utc, { ...base, inicio: '2031-03-01T00:00', notas: 'Subtitulada' });
    const before = await createFuncion(utc, { ...base, inicio: '2031-02-28T23:59' });
    const after = await createFuncion(utc, { ...base, inicio: '2031-03-08T00:00' });
    const { res, body } = await list(utc, `desde=2031-03-01&hasta=2031-03-07&lugar_id=${lugar.id}`);
    assert.deepEqual(ids(body), [first.id, late.id]);
    assert.equal(res.headers['x-total-count'], '2');
    assert.deepEqual(body[0], {
      ...first,
      evento: { ...pelicula, categoria: categoria.nombre },
      lugar: (await send(utc, 'GET', `/lugares/${encodeURIComponent(String(lugar.nombre))}`)).json(),
      imagen: null,
    });
    assert.ok(!ids(body).includes(before.id) && !ids(body).includes(after.id));
    // desde alone runs six days on.
    assert.deepEqual(ids((await list(utc, `desde=2031-03-01&lugar_id=${lugar.id}`)).body), [first.id, late.id]);
    // Ties in inicio by id.
    const other = await createLugar(utc);
    const tie = await createFuncion(utc, { ...base, lugar_id: other.id, inicio: '2031-03-01T00:00' });
    assert.deepEqual(ids((await list(utc, `desde=2031-03-01&hasta=2031-03-01&tipo_evento=pelicula&q=${encodeURIComponent(pelicula.titulo)}`)).body), [first.id, tie.id]);
  });

  for (const zone of ['UTC', MADRID, BUENOS_AIRES]) {
    it(`when TIMEZONE is ${zone} and no window is given, then it runs from today to six days on there; hasta alone starts today`, async () => {
      const app = zone === 'UTC' ? utc : zone === MADRID ? madrid : buenosAires;
      const pelicula = await createPelicula(app);
      const lugar = await createLugar(app);
      const base = { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id };
      const yesterday = await createFuncion(app, { ...base, inicio: `${dayIn(zone, -1)}T23:59` });
      const today = await createFuncion(app, { ...base, inicio: `${dayIn(zone)}T00:00` });
      const sixth = await createFuncion(app, { ...base, inicio: `${dayIn(zone, 6)}T23:59` });
      const seventh = await createFuncion(app, { ...base, inicio: `${dayIn(zone, 7)}T00:00` });
      assert.deepEqual(ids((await list(app, `lugar_id=${lugar.id}`)).body), [today.id, sixth.id]);
      assert.deepEqual(ids((await list(app, `lugar_id=${lugar.id}&hasta=${dayIn(zone, 7)}`)).body), [today.id, sixth.id, seventh.id]);
      assert.ok(![today, sixth, seventh].some((f) => f.id === yesterday.id));
      assertError(await send(app, 'GET', `/cartelera?hasta=${dayIn(zone, -1)}`), 400, { details: "El parámetro 'hasta' debe ser igual o posterior a 'desde'." });
    });
  }

  it('when a parameter has a value it does not take, then 400 names it, with the error body', async () => {
    const cases: [string, string | RegExp][] = [
      ['desde=2031-02-30', "El parámetro 'desde' debe ser una fecha válida (AAAA-MM-DD)."],
      ['hasta=mañana', "El parámetro 'hasta' debe ser una fecha válida (AAAA-MM-DD)."],
      ['desde=2031-03-02&hasta=2031-03-01', "El parámetro 'hasta' debe ser igual o posterior a 'desde'."],
      ['tipo_evento=concierto', /'tipo_evento'.*pelicula, obra, eventoUrbano/],
      ['estado=Cancelada', /'estado'.*programada, cancelada, aplazada, agotada/],
      ['lugar_id=uno', /'lugar_id'.*entero/],
      ['categoria_id=1.5', /'categoria_id'.*entero/],
      ['cerca=200,0', /'cerca'/],
      ['radio_km=3', /'radio_km' necesita 'cerca'/],
      ['cerca=0,0&radio_km=101', /'radio_km'.*100/],
      ['bbox=0,10,1,5', /'bbox'.*sur/],
      ['_page=0', /'_page'/],
      ['_limit=1001', /'_limit'/],
    ];
    for (const path of ['/cartelera', '/cartelera.ics', '/cartelera.jsonld']) {
      for (const [query, details] of cases) {
        // Paging parameters are ignored by the calendar and the JSON-LD.
        if (path !== '/cartelera' && query.startsWith('_')) {
          assert.equal((await send(utc, 'GET', `${path}?${query}`)).statusCode, 200);
          continue;
        }
        assertError(await send(utc, 'GET', `${path}?${query}`), 400, { details });
      }
    }
  });

  it('when filtered by kind, category, venue, estado, title (accents and case aside) and place, then only those showtimes answer', async () => {
    const categoria = await createCategoria(utc);
    const obra = await createObra(utc, { titulo: unique('La Canción del Río'), categoria_id: categoria.id });
    const pelicula = await createPelicula(utc);
    const evento = await createEventoUrbano(utc, { categoria_id: categoria.id });
    const centro = await createLugar(utc, { latitud: -34.6037, longitud: -58.3816 });
    const lejos = await createLugar(utc, { latitud: -34.9205, longitud: -57.9536 });
    const at = (o: Json) => createFuncion(utc, { inicio: '2031-05-02T20:00', ...o });
    const a = await at({ tipo_evento: 'obra', evento_id: obra.id, lugar_id: centro.id, estado: 'agotada' });
    const b = await at({ tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lejos.id });
    const c = await at({ tipo_evento: 'eventoUrbano', evento_id: evento.id, lugar_id: lejos.id, inicio: '2031-05-03T10:00' });
    const window = 'desde=2031-05-02&hasta=2031-05-03';
    const mine = (body: Listing[]) => ids(body).filter((id) => [a.id, b.id, c.id].includes(id));
    assert.deepEqual(mine((await list(utc, `${window}&tipo_evento=pelicula`)).body), [b.id]);
    assert.deepEqual(mine((await list(utc, `${window}&categoria_id=${categoria.id}`)).body), [a.id, c.id]);
    assert.deepEqual(mine((await list(utc, `${window}&lugar_id=${lejos.id}`)).body), [b.id, c.id]);
    assert.deepEqual(mine((await list(utc, `${window}&estado=agotada`)).body), [a.id]);
    assert.deepEqual(mine((await list(utc, `${window}&q=${encodeURIComponent('cancion DEL rio')}`)).body), [a.id]);
    assert.deepEqual(mine((await list(utc, `${window}&cerca=-34.6037,-58.3816&radio_km=3`)).body), [a.id]);
    assert.deepEqual(mine((await list(utc, `${window}&bbox=-58.1,-35,-57.9,-34.8`)).body), [b.id, c.id]);
  });

  it('when no page is asked for, then at most the first 1,000 answer with a Link to the next page; _page and _limit page them', async () => {
    const pelicula = await createPelicula(utc);
    const lugar = await createLugar(utc);
    const serie = { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, dias: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'], horas: ['10:00', '16:00', '22:00'] };
    // 182 days and 184, three showtimes a day: 1,098 in 2032.
    for (const [desde, hasta] of [['2032-01-01', '2032-06-30'], ['2032-07-01', '2032-12-31']]) {
      const res = await send(utc, 'POST', '/funciones/serie', { ...serie, desde, hasta });
      assert.equal(res.statusCode, 201, res.body);
    }
    const query = `desde=2032-01-01&hasta=2032-12-31&lugar_id=${lugar.id}`;
    const whole = await list(utc, query);
    assert.equal(whole.body.length, 1000);
    assert.equal(whole.body[0]?.inicio, '2032-01-01T10:00:00.000+00:00');
    assert.equal(whole.res.headers['x-total-count'], '1098');
    assert.match(String(whole.res.headers.link), new RegExp(`</cartelera\\?desde=2032-01-01&hasta=2032-12-31&lugar_id=${lugar.id}&_page=2&_limit=1000>; rel="next"`));
    const page = await list(utc, `${query}&_page=3&_limit=7`);
    assert.deepEqual(ids(page.body), ids(whole.body).slice(14, 21));
    assert.equal(page.res.headers['x-total-count'], '1098');
    assert.match(String(page.res.headers.link), /_page=2&_limit=7>; rel="prev"/);
  });

  it('when asked again with the ETag, then 304 on all three; a write moves it', async () => {
    const pelicula = await createPelicula(utc);
    const lugar = await createLugar(utc);
    const funcion = await createFuncion(utc, { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2031-07-01T20:00' });
    for (const [i, path] of ['/cartelera', '/cartelera.ics', '/cartelera.jsonld'].entries()) {
      const url = `${path}?desde=2031-07-01&lugar_id=${lugar.id}`;
      const first = await send(utc, 'GET', url);
      const etag = String(first.headers.etag);
      const again = await utc.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
      assert.equal(again.statusCode, 304, path);
      assert.equal(again.body, '');
      assert.equal((await send(utc, 'PATCH', `/funciones/${funcion.id}`, { inicio: `2031-07-01T21:0${i}` })).statusCode, 200);
      const moved = await utc.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
      assert.equal(moved.statusCode, 200, path);
      assert.notEqual(moved.headers.etag, etag);
    }
  });

  it('when a client takes gzip, then a large answer of all three comes gzipped, the same bytes once gunzipped, under a weak ETag that 304s as the strong one does; a small one, or a client that does not take gzip, gets the bytes as they are', async () => {
    const pelicula = await createPelicula(utc);
    const lugar = await createLugar(utc);
    for (const hour of ['14:00', '16:00', '18:00', '20:00', '22:00']) await createFuncion(utc, { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: `2031-08-01T${hour}` });
    const get = (url: string, headers: Record<string, string> = {}) => utc.inject({ method: 'GET', url, headers });
    for (const path of ['/cartelera', '/cartelera.ics', '/cartelera.jsonld']) {
      const url = `${path}?desde=2031-08-01&hasta=2031-08-01&lugar_id=${lugar.id}`;
      const plain = await get(url);
      assert.equal(plain.statusCode, 200, path);
      assert.ok(plain.rawPayload.length >= 1400, `${path}: ${plain.rawPayload.length} bytes, enough to compress`);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.headers.vary, 'accept-encoding');
      const strong = String(plain.headers.etag);
      assert.match(strong, /^"/);
      for (const refused of ['identity', 'gzip;q=0, identity', 'br']) {
        const other = await get(url, { 'accept-encoding': refused });
        assert.deepEqual([other.headers['content-encoding'], other.headers.etag, other.rawPayload.equals(plain.rawPayload)], [undefined, strong, true], `${path}, ${refused}`);
      }
      const zipped = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(zipped.headers['content-encoding'], 'gzip', path);
      assert.equal(zipped.headers.etag, `W/${strong}`);
      assert.equal(zipped.headers['content-type'], plain.headers['content-type']);
      assert.ok(zipped.rawPayload.length < plain.rawPayload.length / 2, `${path}: ${zipped.rawPayload.length} of ${plain.rawPayload.length} bytes`);
      assert.ok(gunzipSync(zipped.rawPayload).equals(plain.rawPayload), `${path}: the same bytes once gunzipped`);
      for (const etag of [strong, `W/${strong}`]) {
        const again = await get(url, { 'accept-encoding': 'gzip', 'if-none-match': etag });
        assert.deepEqual([again.statusCode, again.body, again.headers['content-encoding']], [304, '', undefined], `${path}, If-None-Match ${etag}`);
      }
      const head = await utc.inject({ method: 'HEAD', url, headers: { 'accept-encoding': 'gzip' } });
      assert.deepEqual([head.statusCode, head.headers['content-encoding'], head.headers['content-length'], head.body], [200, 'gzip', String(zipped.rawPayload.length), '']);
    }
    const small = await get('/cartelera?desde=2031-08-02&hasta=2031-08-02&lugar_id=' + lugar.id, { 'accept-encoding': 'gzip' });
    assert.deepEqual([small.statusCode, small.body, small.headers['content-encoding']], [200, '[]', undefined], 'two bytes are sent as they are');
  });

  it('when the item, its category, the venue or an artist changes, then all three answer anew, never a kept answer of before', async () => {
    const categoria = await createCategoria(utc);
    const pelicula = await createPelicula(utc, { categoria_id: categoria.id });
    const artista = await createArtista(utc, { nombre: 'Ana', apellido: 'Pérez' });
    await createParticipacion(utc, { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: pelicula.id });
    const lugar = await createLugar(utc);
    await createFuncion(utc, { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2031-10-01T20:00' });
    const urls = ['/cartelera', '/cartelera.ics', '/cartelera.jsonld'].map((path) => `${path}?desde=2031-10-01&lugar_id=${lugar.id}`);
    const read = () => Promise.all(urls.map(async (url) => (await send(utc, 'GET', url)).body));
    const edits: [string, string, Json, string][] = [
      ['PATCH', `/peliculas/${pelicula.id}`, { titulo: unique('Nuevo título') }, 'titulo'],
      ['PATCH', `/categorias/${categoria.id}`, { nombre: unique('Nueva categoría') }, 'nombre'],
      ['PATCH', `/lugares/${lugar.id}`, { nombre: unique('Nueva sala') }, 'nombre'],
    ];
    await read();
    for (const [method, path, body, field] of edits) {
      const res = await send(utc, method, path, body);
      assert.equal(res.statusCode, 200, res.body);
      for (const [i, text] of (await read()).entries()) {
        // The category is not in the JSON-LD.
        if (path.startsWith('/categorias') && i === 2) continue;
        assert.ok(text.includes(String(body[field])), `${urls[i]} after ${method} ${path}`);
      }
    }
    assert.equal((await send(utc, 'PATCH', `/artistas/${artista.dni}`, { apellido: 'Gómez' })).statusCode, 200);
    assert.ok((await read())[2]?.includes('Ana Gómez'));
  });
});

/** The VEVENT of UID `uid` in a calendar, unfolded, as its lines. */
function vevent(ics: string, uid: string): string[] {
  const unfolded = ics.replace(/\r\n /g, '');
  const event = unfolded.split('BEGIN:VEVENT\r\n').find((e) => e.startsWith(`UID:${uid}\r\n`));
  assert.ok(event, `${uid} in the calendar`);
  return event.split('END:VEVENT')[0]?.split('\r\n').filter((l) => l !== '') ?? [];
}
const property = (lines: string[], name: string) => lines.filter((l) => l.startsWith(`${name}:`) || l.startsWith(`${name};`));

describe(`what's on with images (${backend})`, () => {
  it('when an item has images, then imagen is its first image\'s url, the JSON-LD lists its 1920, 1280 and 640 pixel renditions, and a new first image moves both', async () => {
    const pelicula = await createPelicula(utc);
    const lugar = await createLugar(utc);
    const f = await createFuncion(utc, { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2032-03-04T18:00' });
    const window = 'desde=2032-03-04&hasta=2032-03-04';
    const before = await list(utc, window);
    assert.equal(before.body.find((l) => l.id === f.id)?.imagen, null);
    const poster = async () => {
      const afiche = await sharp({ create: { width: 64, height: 96, channels: 3, background: '#c00' } }).jpeg().toBuffer();
      const res = await utc.inject({ method: 'POST', url: '/imagenes', ...(await upload([{ name: 'afiche.jpg', bytes: afiche }], { recurso: 'peliculas', clave: pelicula.id, alt: 'Afiche', orden: 1 })) });
      assert.equal(res.statusCode, 201, res.body);
      return res.json<{ id: number; url: string }>();
    };
    const first = await poster();
    const withPoster = await list(utc, window);
    assert.equal(withPoster.body.find((l) => l.id === f.id)?.imagen, first.url);
    assert.notEqual(withPoster.res.headers.etag, before.res.headers.etag);
    const second = await poster();
    assert.equal((await list(utc, window)).body.find((l) => l.id === f.id)?.imagen, second.url, 'the new image went first (orden 1)');
    const graph = (await send(utc, 'GET', `/cartelera.jsonld?${window}`)).json<{ '@graph': Json[] }>()['@graph'];
    const node = graph.find((n) => n['@id'] === `https://cartelera.example.org/funciones/${f.id}`);
    assert.deepEqual(node?.image, [1920, 1280, 640].map((w) => `https://cartelera.example.org/imagenes/${second.id}/archivo?ancho=${w}&formato=jpeg`));
  });
});

describe(`GET /cartelera.ics (${backend})`, () => {
  it('when TIMEZONE is UTC, then each showtime is a VEVENT with its UID, title, description, venue, GEO, status and floating times; DTEND from fin, else duracion, else none', async () => {
    const categoria = await createCategoria(utc, { nombre: unique('Teatro; clásico') });
    const obra = await createObra(utc, { descripcion: 'Una obra, en verso.', duracion: 95, categoria_id: categoria.id });
    const evento = await createEventoUrbano(utc, { descripcion: 'En la plaza.' });
    const lugar = await createLugar(utc, { nombre: unique('Teatro San Martín'), direccion: 'Av. Corrientes 1530, Buenos Aires', latitud: -34.603722, longitud: -58.381592 });
    const sin = await createLugar(utc);
    const base = { tipo_evento: 'obra', evento_id: obra.id, lugar_id: lugar.id };
    const conFin = await createFuncion(utc, { ...base, inicio: '2031-08-01T20:00', fin: '2031-08-01T21:10', estado: 'aplazada' });
    const porDuracion = await createFuncion(utc, { ...base, inicio: '2031-08-01T23:00', estado: 'cancelada' });
    const urbano = await createFuncion(utc, { tipo_evento: 'eventoUrbano', evento_id: evento.id, lugar_id: sin.id, inicio: '2031-08-02T00:00', estado: 'agotada' });
    const res = await send(utc, 'GET', '/cartelera.ics?desde=2031-08-01&hasta=2031-08-02');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/calendar; charset=utf-8');
    assert.ok(res.body.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n') && res.body.endsWith('END:VCALENDAR\r\n'));
    assert.ok(!res.body.includes('VTIMEZONE'));
    const a = vevent(res.body, `funcion-${conFin.id}@cartelera`);
    assert.deepEqual(property(a, 'DTSTART'), ['DTSTART:20310801T200000']);
    assert.deepEqual(property(a, 'DTEND'), ['DTEND:20310801T211000']);
    assert.deepEqual(property(a, 'SUMMARY'), [`SUMMARY:${obra.titulo}`]);
    assert.deepEqual(property(a, 'DESCRIPTION'), ['DESCRIPTION:Una obra\\, en verso.']);
    assert.deepEqual(property(a, 'LOCATION'), [`LOCATION:${String(lugar.nombre)}\\, Av. Corrientes 1530\\, Buenos Aires`]);
    assert.deepEqual(property(a, 'GEO'), ['GEO:-34.603722;-58.381592']);
    assert.deepEqual(property(a, 'CATEGORIES'), [`CATEGORIES:${categoria.nombre.replace(';', '\\;')}`]);
    assert.deepEqual(property(a, 'STATUS'), ['STATUS:TENTATIVE']);
    assert.deepEqual(property(a, 'SEQUENCE'), ['SEQUENCE:0']);
    const b = vevent(res.body, `funcion-${porDuracion.id}@cartelera`);
    // 23:00 plus 95 minutes, across midnight.
    assert.deepEqual(property(b, 'DTEND'), ['DTEND:20310802T003500']);
    assert.deepEqual(property(b, 'STATUS'), ['STATUS:CANCELLED']);
    const c = vevent(res.body, `funcion-${urbano.id}@cartelera`);
    // 00:00 is midnight, a timed event; an urban event has no duracion, so no DTEND.
    assert.deepEqual(property(c, 'DTSTART'), ['DTSTART:20310802T000000']);
    assert.deepEqual(property(c, 'DTEND'), []);
    assert.deepEqual(property(c, 'GEO'), []);
    assert.deepEqual(property(c, 'STATUS'), ['STATUS:CONFIRMED']);
    assert.deepEqual(property(c, 'DESCRIPTION'), ['DESCRIPTION:En la plaza.']);
    for (const line of res.body.split('\r\n')) assert.ok(Buffer.byteLength(line) <= 75, line);
  });

  it('when TIMEZONE is Europe/Madrid, then times carry TZID with its VTIMEZONE, a computed end in the spring-forward gap moves forward, and a changed or deleted showtime has a higher SEQUENCE, deleted as CANCELLED', async () => {
    const pelicula = await createPelicula(madrid, { duracion: 60 });
    const lugar = await createLugar(madrid);
    const base = { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id };
    const gap = await createFuncion(madrid, { ...base, inicio: '2027-03-28T01:30' });
    const changed = await createFuncion(madrid, { ...base, inicio: '2027-03-28T20:00' });
    const deleted = await createFuncion(madrid, { ...base, inicio: '2027-03-29T20:00', estado: 'agotada' });
    const outside = await createFuncion(madrid, { ...base, inicio: '2027-04-10T20:00' });
    assert.equal((await send(madrid, 'PATCH', `/funciones/${changed.id}`, { notas: 'Subtitulada' })).statusCode, 200);
    assert.equal((await send(madrid, 'DELETE', `/funciones/${deleted.id}`)).statusCode, 200);
    assert.equal((await send(madrid, 'DELETE', `/funciones/${outside.id}`)).statusCode, 200);
    const res = await send(madrid, 'GET', `/cartelera.ics?desde=2027-03-28&hasta=2027-03-30&lugar_id=${lugar.id}`);
    assert.match(res.body, /BEGIN:VTIMEZONE\r\nTZID:Europe\/Madrid\r\n/);
    const g = vevent(res.body, `funcion-${gap.id}@cartelera.example.org`);
    assert.deepEqual(property(g, 'DTSTART'), ['DTSTART;TZID=Europe/Madrid:20270328T013000']);
    // 01:30 plus 60 minutes is 02:30, which does not occur that night: 03:30.
    assert.deepEqual(property(g, 'DTEND'), ['DTEND;TZID=Europe/Madrid:20270328T033000']);
    assert.deepEqual(property(vevent(res.body, `funcion-${changed.id}@cartelera.example.org`), 'SEQUENCE'), ['SEQUENCE:1']);
    const d = vevent(res.body, `funcion-${deleted.id}@cartelera.example.org`);
    assert.deepEqual(property(d, 'STATUS'), ['STATUS:CANCELLED']);
    assert.deepEqual(property(d, 'SEQUENCE'), ['SEQUENCE:1']);
    assert.equal(property(d, 'LAST-MODIFIED').length, 1);
    assert.ok(!res.body.includes(`funcion-${outside.id}@`), 'a deleted showtime outside the window stays out');
    // Filtered by another venue, the deleted showtime's last values do not match.
    const other = await createLugar(madrid);
    assert.ok(!(await send(madrid, 'GET', `/cartelera.ics?desde=2027-03-28&hasta=2027-03-30&lugar_id=${other.id}`)).body.includes(`funcion-${deleted.id}@`));
  });
});

describe(`GET /cartelera.jsonld (${backend})`, () => {
  it('when showtimes are listed, then one @graph of schema.org events with the contract\'s fields, Google\'s required and recommended properties among them', async () => {
    const pelicula = await createPelicula(utc, { sipnosis: 'Una historia.', duracion: 100 });
    const obra = await createObra(utc);
    const evento = await createEventoUrbano(utc);
    const artista = await createArtista(utc, { nombre: 'Ana', apellido: 'Pérez' });
    await createParticipacion(utc, { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: pelicula.id });
    const lugar = await createLugar(utc, { direccion: 'Corrientes 1530', latitud: -34.603722, longitud: -58.381592, url: 'https://sala.example.org' });
    const sin = await createLugar(utc);
    const at = (o: Json) => createFuncion(utc, { lugar_id: lugar.id, inicio: '2031-09-01T20:00', ...o });
    const p = await at({ tipo_evento: 'pelicula', evento_id: pelicula.id, estado: 'agotada' });
    const o = await at({ tipo_evento: 'obra', evento_id: obra.id, estado: 'cancelada', fin: '2031-09-01T21:00' });
    const e = await at({ tipo_evento: 'eventoUrbano', evento_id: evento.id, lugar_id: sin.id, estado: 'aplazada' });
    const res = await send(utc, 'GET', '/cartelera.jsonld?desde=2031-09-01&hasta=2031-09-01');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/ld+json; charset=utf-8');
    const body = res.json<{ '@context': string; '@graph': Json[] }>();
    assert.equal(body['@context'], 'https://schema.org');
    const node = (id: number) => body['@graph'].find((n) => n['@id'] === `https://cartelera.example.org/funciones/${id}`) as Json;
    assert.deepEqual(node(p.id), {
      '@type': 'ScreeningEvent',
      '@id': `https://cartelera.example.org/funciones/${p.id}`,
      name: pelicula.titulo,
      description: 'Una historia.',
      startDate: '2031-09-01T20:00:00+00:00',
      endDate: '2031-09-01T21:40:00+00:00',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: {
        '@type': 'Place',
        name: lugar.nombre,
        address: { '@type': 'PostalAddress', streetAddress: 'Corrientes 1530' },
        geo: { '@type': 'GeoCoordinates', latitude: -34.603722, longitude: -58.381592 },
        url: 'https://sala.example.org',
      },
      performer: [{ '@type': 'Person', name: 'Ana Pérez' }],
      offers: { '@type': 'Offer', availability: 'https://schema.org/SoldOut' },
      workPresented: { '@type': 'Movie', name: pelicula.titulo, duration: 'PT100M' },
    });
    const theatre = node(o.id);
    assert.equal(theatre['@type'], 'TheaterEvent');
    assert.equal(theatre.eventStatus, 'https://schema.org/EventCancelled');
    assert.equal(theatre.endDate, '2031-09-01T21:00:00+00:00');
    assert.ok(!('offers' in theatre) && !('performer' in theatre) && !('image' in theatre) && !('workPresented' in theatre));
    const urban = node(e.id);
    assert.equal(urban['@type'], 'Event');
    assert.equal(urban.eventStatus, 'https://schema.org/EventPostponed');
    assert.ok(!('endDate' in urban), 'an urban event has no duracion');
    assert.ok(!('geo' in (urban.location as Json)));
    // Google's event rich result: required name, startDate, location with its address; recommended description, endDate, eventStatus, eventAttendanceMode, performer, offers.
    for (const n of body['@graph']) {
      for (const required of ['name', 'startDate', 'location']) assert.ok(required in n, required);
      assert.ok('address' in (n.location as Json));
    }
  });

  it('when TIMEZONE is Europe/Madrid and showtimes fall in the spring-forward gap and in the autumn\'s repeated hour, then the JSON-LD and the calendar keep the moved and the first wall clock, each with the offset of its instant', async () => {
    const pelicula = await createPelicula(madrid, { duracion: 60 });
    const lugar = await createLugar(madrid);
    const at = (inicio: string) => createFuncion(madrid, { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio });
    const gap = await at('2027-03-28T02:30');
    const endsInGap = await at('2027-03-28T01:30');
    const repeated = await at('2027-10-31T02:30');
    assert.deepEqual([gap.inicio, endsInGap.inicio, repeated.inicio], ['2027-03-28T03:30:00.000+00:00', '2027-03-28T01:30:00.000+00:00', '2027-10-31T02:30:00.000+00:00']);
    const window = `lugar_id=${lugar.id}&desde=2027-03-28&hasta=2027-10-31`;
    const graph = (await send(madrid, 'GET', `/cartelera.jsonld?${window}`)).json<{ '@graph': Json[] }>()['@graph'];
    assert.deepEqual(graph.map((n) => [n['@id'], n.startDate, n.endDate]), [
      // 01:30 plus an hour is 02:30, which that night lacks: 03:30, already summer time.
      [`http://localhost:80/funciones/${endsInGap.id}`, '2027-03-28T01:30:00+01:00', '2027-03-28T03:30:00+02:00'],
      [`http://localhost:80/funciones/${gap.id}`, '2027-03-28T03:30:00+02:00', '2027-03-28T04:30:00+02:00'],
      // 02:30 happens twice that night: the first, still summer time; 03:30 only once, in winter time.
      [`http://localhost:80/funciones/${repeated.id}`, '2027-10-31T02:30:00+02:00', '2027-10-31T03:30:00+01:00'],
    ]);
    const ics = (await send(madrid, 'GET', `/cartelera.ics?${window}`)).body;
    const r = vevent(ics, `funcion-${repeated.id}@cartelera.example.org`);
    assert.deepEqual([...property(r, 'DTSTART'), ...property(r, 'DTEND')], ['DTSTART;TZID=Europe/Madrid:20271031T023000', 'DTEND;TZID=Europe/Madrid:20271031T033000']);
    // RFC 5545 §3.3.5: a local time that occurs twice is its first occurrence, the JSON-LD's +02:00.
    assert.match(ics, /\r\nBEGIN:STANDARD\r\nDTSTART:\d{8}T030000\r\nTZOFFSETFROM:\+0200\r\nTZOFFSETTO:\+0100\r\n/);
  });

  it('when TIMEZONE is America/Argentina/Buenos_Aires, then the calendar of what\'s on names it on each showtime, with a VTIMEZONE of one STANDARD at -03:00', async () => {
    const obra = await createObra(buenosAires);
    const lugar = await createLugar(buenosAires);
    const f = await createFuncion(buenosAires, { tipo_evento: 'obra', evento_id: obra.id, lugar_id: lugar.id, inicio: '2031-02-20T21:00' });
    const ics = (await send(buenosAires, 'GET', `/cartelera.ics?lugar_id=${lugar.id}&desde=2031-02-20`)).body;
    assert.deepEqual(property(vevent(ics, `funcion-${f.id}@cartelera`), 'DTSTART'), ['DTSTART;TZID=America/Argentina/Buenos_Aires:20310220T210000']);
    const [vtimezone] = new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vtimezone');
    assert.equal(vtimezone?.getFirstPropertyValue('tzid'), BUENOS_AIRES);
    assert.deepEqual(vtimezone?.getAllSubcomponents().map((c) => [c.name, c.getFirstPropertyValue('tzoffsetto')?.toString()]), [['standard', '-03:00']]);
  });

  for (const [zone, winter, summer] of [[MADRID, '+01:00', '+02:00'], [BUENOS_AIRES, '-03:00', '-03:00']] as const) {
    it(`when TIMEZONE is ${zone}, then startDate and endDate keep the wall clock and carry that day's offset (${winter} in January, ${summer} in July)`, async () => {
      const app = zone === MADRID ? madrid : buenosAires;
      const obra = await createObra(app, { duracion: 90 });
      const lugar = await createLugar(app);
      const january = await createFuncion(app, { tipo_evento: 'obra', evento_id: obra.id, lugar_id: lugar.id, inicio: '2031-01-15T21:00' });
      const july = await createFuncion(app, { tipo_evento: 'obra', evento_id: obra.id, lugar_id: lugar.id, inicio: '2031-07-15T21:00' });
      const graph = (await send(app, 'GET', `/cartelera.jsonld?desde=2031-01-01&hasta=2031-07-31&lugar_id=${lugar.id}`)).json<{ '@graph': Json[] }>()['@graph'];
      const host = 'http://localhost:80';
      assert.deepEqual(graph.map((n) => [n['@id'], n.startDate, n.endDate]), [
        [`${host}/funciones/${january.id}`, `2031-01-15T21:00:00${winter}`, `2031-01-15T22:30:00${winter}`],
        [`${host}/funciones/${july.id}`, `2031-07-15T21:00:00${summer}`, `2031-07-15T22:30:00${summer}`],
      ]);
    });
  }
});
