// /funciones and POST /funciones/serie, point by point against the contract's "Venues, showtimes
// and what's on" and "Dates and times": field rules, wall clocks and TIMEZONE, cascades and undo,
// series, near and within by the venue, and the store's own constraints.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { seriesStarts } from '../../src/catalogue/series.js';
import { assertError, buildTestApp, createArtista, createCategoria, createEventoUrbano, createObra, createPelicula, send, unique, type Json } from '../helpers.js';
import { follow, post, serve } from '../feedClient.js';
import { importar } from './uploads.js';
import { backend, freshStore, withMigratedStore } from '../stores.js';

let app: FastifyInstance;
before(async () => {
  app = await buildTestApp();
});
after(() => app.close());

const CREATE_FAILED = 'No se pudo ingresar una nueva funcion error en: /funciones';
const SERIES_FAILED = 'No se pudo ingresar una nueva funcion error en: /funciones/serie';

async function createLugar(target = app, o: Json = {}): Promise<Json & { id: number }> {
  const res = await send(target, 'POST', '/lugares', { nombre: unique('Sala'), direccion: 'Av. de Mayo 1370', ...o });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

/** A movie and a venue of their own, for a test's showtimes. */
async function setting(target = app) {
  return { pelicula: await createPelicula(target), lugar: await createLugar(target) };
}

async function createFuncion(body: Json, target = app): Promise<Json & { id: number }> {
  const res = await send(target, 'POST', '/funciones', body);
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

describe(`/funciones: records (${backend})`, () => {
  it('when a showtime is created, then it is answered with its defaults and the canonical wall clock, and read back by id', async () => {
    const { pelicula, lugar } = await setting();
    const res = await send(app, 'POST', '/funciones', { tipo_evento: 'pelicula', evento_id: String(pelicula.id), lugar_id: lugar.id, inicio: '2026-12-25T20:00', notas: '' });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json<Json>();
    assert.deepEqual(body, { id: body.id, tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2026-12-25T20:00:00.000+00:00', fin: null, estado: 'programada', notas: null });
    assert.equal(res.headers.location, `/funciones/${body.id}`);
    assert.deepEqual((await send(app, 'GET', `/funciones/${body.id}`)).json(), body);
    assertError(await send(app, 'GET', '/funciones/999999'), 404, { details: 'No se encontró la función con id: 999999' });
    const nulls = await createFuncion({ tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2026-12-26T20:00', fin: null, estado: null, notas: null });
    assert.deepEqual([nulls.fin, nulls.estado, nulls.notas], [null, 'programada', null]);
  });

  it('when inicio and fin come in each accepted form, then each is the same wall clock; 00:00 is midnight, not a whole day', async () => {
    const { pelicula, lugar } = await setting();
    const forms = [
      ['2026-12-01T20:30', '2026-12-01T20:30:00.000+00:00'],
      ['2026-12-02T20:30:00', '2026-12-02T20:30:00.000+00:00'],
      ['2026-12-03T20:30:00.000+00:00', '2026-12-03T20:30:00.000+00:00'],
      ['2026-12-04T20:30Z', '2026-12-04T20:30:00.000+00:00'],
      ['2026-12-05T20:30:00+02:00', '2026-12-05T18:30:00.000+00:00'],
      ['2026-12-06T00:00', '2026-12-06T00:00:00.000+00:00'],
    ];
    for (const [sent, answered] of forms) {
      const funcion = await createFuncion({ tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: sent });
      assert.equal(funcion.inicio, answered, sent);
    }
  });

  it('when a field breaks its rule, then 400 names each field and nothing is stored', async () => {
    const { pelicula, lugar } = await setting();
    const before = (await send(app, 'GET', '/funciones')).body;
    const base = { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2026-12-25T20:00' };
    const refused = async (body: Json, details: string) => assertError(await send(app, 'POST', '/funciones', { ...base, ...body }), 400, { details, moreInfo: CREATE_FAILED });
    const INICIO = "El campo 'inicio' debe ser una fecha con hora válida (AAAA-MM-DDTHH:MM, como 2026-12-25T20:00).";
    await refused({ inicio: '2026-12-25' }, INICIO);
    await refused({ inicio: '2026-12-25T20:00:30' }, INICIO);
    await refused({ inicio: '2026-12-25T24:00' }, INICIO);
    await refused({ inicio: '2026-02-30T20:00' }, INICIO);
    await refused({ fin: '2026-12-25T20:00' }, "El campo 'fin' debe ser posterior a 'inicio'.");
    await refused({ estado: 'Cancelada' }, "El campo 'estado' debe ser uno de: programada, cancelada, aplazada, agotada.");
    await refused({ notas: 'x'.repeat(501) }, "El campo 'notas' no puede tener más de 500 caracteres.");
    await refused({ tipo_evento: 'concierto' }, "El campo 'tipo_evento' debe ser uno de: pelicula, obra, eventoUrbano.");
    await refused({ inicio: undefined, lugar_id: undefined }, "El campo 'lugar_id' es obligatorio. El campo 'inicio' es obligatorio.");
    await refused({ evento_id: 999999, lugar_id: 999998 }, 'No existe la película con id: 999999. No existe el lugar con id: 999998.');
    await refused({ tipo_evento: 'obra' }, `No existe la obra con id: ${pelicula.id}.`);
    assert.equal((await send(app, 'GET', '/funciones')).body, before);
  });

  it('when the same item, venue and inicio are sent again, then 400 "Ya existe…"', async () => {
    const { pelicula, lugar } = await setting();
    const body = { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2026-12-25T20:00' };
    await createFuncion(body);
    assertError(await send(app, 'POST', '/funciones', { ...body, inicio: '2026-12-25T20:00:00.000Z' }), 400, {
      details: `Ya existe una función con el tipo de evento, id de evento, lugar e inicio: pelicula, ${pelicula.id}, ${lugar.id}, 2026-12-25T20:00:00.000+00:00, por favor, intente con otro distinto`,
    });
  });

  it('when a showtime is patched, replaced and deleted, then each answers as the contract says, and the log holds each change', async () => {
    const { pelicula, lugar } = await setting();
    const funcion = await createFuncion({ tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2026-12-25T20:00', notas: 'Subtitulada', estado: 'agotada' });
    const patched = await send(app, 'PATCH', `/funciones/${funcion.id}`, { estado: 'cancelada' });
    assert.deepEqual(patched.json(), { ...funcion, estado: 'cancelada' });
    const put = await send(app, 'PUT', `/funciones/${funcion.id}`, { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2026-12-25T21:00' });
    assert.deepEqual(put.json(), { ...funcion, inicio: '2026-12-25T21:00:00.000+00:00', estado: 'programada', notas: null });
    const deleted = await send(app, 'DELETE', `/funciones/${funcion.id}`);
    assert.equal(deleted.json<Json>().details, `la función con el id: ${funcion.id}. fue eliminada correctamente.`);
    const log = (await send(app, 'GET', `/cambios?recurso=funciones&clave=${funcion.id}`)).json<Json[]>();
    assert.deepEqual(log.map((c) => [c.operacion, c.campos]), [
      ['alta', ['id', 'tipo_evento', 'evento_id', 'lugar_id', 'inicio', 'fin', 'estado', 'notas']],
      ['modificacion', ['estado']],
      ['modificacion', ['inicio', 'estado', 'notas']],
      ['baja', ['id', 'tipo_evento', 'evento_id', 'lugar_id', 'inicio', 'fin', 'estado', 'notas']],
    ]);
  });

  it('when a movie, work or urban event is deleted, then its showtimes go with it, logged with its baja as causa, and undoing that baja brings them all back', async () => {
    const categoria = await createCategoria(app);
    const lugar = await createLugar();
    const items = [
      ['pelicula', '/peliculas', await createPelicula(app, { categoria_id: categoria.id })],
      ['obra', '/Obras', await createObra(app, { categoria_id: categoria.id })],
      ['eventoUrbano', '/eventosUrbanos', await createEventoUrbano(app, { categoria_id: categoria.id })],
    ] as const;
    for (const [tipo, path, item] of items) {
      const artista = await createArtista(app);
      await send(app, 'POST', '/participaciones', { artistas_dni: artista.dni, tipo_evento: tipo, evento_id: item.id });
      const funciones = [
        await createFuncion({ tipo_evento: tipo, evento_id: item.id, lugar_id: lugar.id, inicio: '2026-12-25T20:00' }),
        await createFuncion({ tipo_evento: tipo, evento_id: item.id, lugar_id: lugar.id, inicio: '2026-12-26T20:00', estado: 'aplazada' }),
      ];
      assert.equal((await send(app, 'DELETE', `${path}/${item.id}`)).statusCode, 200);
      for (const f of funciones) assert.equal((await send(app, 'GET', `/funciones/${f.id}`)).statusCode, 404);
      const resource = path.slice(1);
      const [baja] = (await send(app, 'GET', `/cambios?recurso=${resource}&clave=${item.id}&operacion=baja`)).json<Json[]>();
      const caused = (await send(app, 'GET', '/cambios?recurso=funciones&operacion=baja')).json<Json[]>().filter((c) => c.causa === baja?.id);
      assert.deepEqual(caused.map((c) => [c.clave, c.antes]), funciones.map((f) => [f.id, f]));
      const undo = await send(app, 'POST', `/cambios/${baja?.id}/deshacer`);
      assert.equal(undo.statusCode, 200, undo.body);
      assert.deepEqual(undo.json<Json[]>().map((c) => [c.recurso, c.operacion]), [[resource, 'alta'], ['participaciones', 'alta'], ['funciones', 'alta'], ['funciones', 'alta']]);
      for (const f of funciones) assert.deepEqual((await send(app, 'GET', `/funciones/${f.id}`)).json(), f);
    }
  });

  it('when lists filter showtimes, then estado, inicio ranges and sorting work as on every list', async () => {
    const { pelicula, lugar } = await setting();
    const a = await createFuncion({ tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2027-05-02T18:00', estado: 'cancelada' });
    const b = await createFuncion({ tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2027-05-01T18:00' });
    const list = await send(app, 'GET', `/funciones?lugar_id=${lugar.id}&inicio_gte=2027-05-01&inicio_lte=2027-05-02T23:59&_sort=inicio`);
    assert.deepEqual(list.json<Json[]>().map((f) => f.id), [b.id, a.id]);
    assert.equal(list.headers['x-total-count'], '2');
    assert.deepEqual((await send(app, 'GET', `/funciones?lugar_id=${lugar.id}&estado=cancelada`)).json<Json[]>().map((f) => f.id), [a.id]);
    assertError(await send(app, 'GET', '/funciones?estado=suspendida'), 400, { details: "El parámetro 'estado' debe ser uno de: programada, cancelada, aplazada, agotada." });
    const embedded = await send(app, 'GET', `/funciones?id=${a.id}&_expand=lugar`);
    assert.deepEqual(embedded.json<Json[]>()[0]?.lugar, lugar);
  });

  it('when a showtime is near or within, then it is judged by its venue\'s place', async () => {
    const pelicula = await createPelicula(app);
    const near = await createLugar(app, { latitud: -40, longitud: 60 });
    const farther = await createLugar(app, { latitud: -40.03, longitud: 60 });
    const bare = await createLugar(app);
    const at = (lugar: Json) => createFuncion({ tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2027-01-01T20:00' });
    const [f1, f2] = [await at(farther), await at(near)];
    await at(bare);
    const ids = async (query: string) => (await send(app, 'GET', `/funciones?${query}`)).json<Json[]>().map((f) => f.id);
    assert.deepEqual(await ids('cerca=-40,60'), [f1.id, f2.id]);
    assert.deepEqual(await ids('cerca=-40,60&radio_km=2'), [f2.id]);
    assert.deepEqual(await ids('cerca=-40.05,60&radio_km=10&_sort=distancia'), [f1.id, f2.id]);
    assert.deepEqual(await ids('cerca=-40.05,60&radio_km=10&_sort=distancia&_order=desc'), [f2.id, f1.id]);
    assert.deepEqual(await ids('bbox=59,-40.01,61,-39.99'), [f2.id]);
    // A venue that moves moves its showtimes: the answer follows the venues, not a cache of showtimes.
    await send(app, 'PATCH', `/lugares/${near.id}`, { latitud: 0, longitud: 0 });
    assert.deepEqual(await ids('cerca=-40,60'), [f1.id]);
    assertError(await send(app, 'GET', '/funciones?bbox=1,2'), 400, { details: /^El parámetro 'bbox'/ });
  });
});

describe(`POST /funciones/serie (${backend})`, () => {
  const serie = (o: Json) => send(app, 'POST', '/funciones/serie', o);

  it('when a rule is sent, then every showtime it gives is created, in inicio order, with no Location, each logged', async () => {
    const { pelicula, lugar } = await setting();
    const res = await serie({
      tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, desde: '2026-12-01', hasta: '2026-12-13',
      dias: ['Sábado', 'MIERCOLES'], horas: ['21:30', '18:00'], excepto: ['2026-12-05', '2027-01-01'], estado: 'agotada', notas: 'Subtitulada',
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers.location, undefined);
    const created = res.json<Json[]>();
    // Wednesdays 2, 9 and Saturday 12 (the 5th is excepted), each at 18:00 and 21:30.
    assert.deepEqual(created.map((f) => f.inicio), [
      '2026-12-02T18:00:00.000+00:00', '2026-12-02T21:30:00.000+00:00',
      '2026-12-09T18:00:00.000+00:00', '2026-12-09T21:30:00.000+00:00',
      '2026-12-12T18:00:00.000+00:00', '2026-12-12T21:30:00.000+00:00',
    ]);
    for (const f of created) assert.deepEqual({ ...f, id: 0, inicio: '' }, { id: 0, tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '', fin: null, estado: 'agotada', notas: 'Subtitulada' });
    const altas = (await send(app, 'GET', `/cambios?recurso=funciones&operacion=alta&_sort=id&_order=desc&_limit=6`)).json<Json[]>();
    assert.deepEqual(altas.map((c) => c.clave).sort(), created.map((f) => f.id).sort());
  });

  it('when a series\' showtime already exists, then 400 names it by date and time, and nothing is stored', async () => {
    const { pelicula, lugar } = await setting();
    await createFuncion({ tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2026-12-25T20:00' });
    await createFuncion({ tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2026-12-26T20:00' });
    const before = (await send(app, 'GET', '/funciones')).body;
    const res = await serie({ tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, desde: '2026-12-24', hasta: '2026-12-27', dias: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'], horas: ['20:00'] });
    assertError(res, 400, { details: 'Ya existe la función del 25/12/2026 20:00. Ya existe la función del 26/12/2026 20:00.', moreInfo: SERIES_FAILED });
    assert.equal((await send(app, 'GET', '/funciones')).body, before);
  });

  it('when a rule breaks its rules, then 400 names each problem', async () => {
    const { pelicula, lugar } = await setting();
    const base = { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, desde: '2026-12-01', hasta: '2026-12-31', dias: ['lunes'], horas: ['20:00'] };
    const refused = async (o: Json, details: string) => assertError(await serie({ ...base, ...o }), 400, { details, moreInfo: SERIES_FAILED });
    await refused({ desde: '2026-02-30', hasta: '31/12/2026' }, "El campo 'desde' debe ser una fecha válida (AAAA-MM-DD). El campo 'hasta' debe ser una fecha válida (AAAA-MM-DD).");
    await refused({ hasta: '2026-11-30' }, "El campo 'hasta' debe ser igual o posterior a 'desde'.");
    await refused({ dias: ['lunes', 'feriado'] }, "El campo 'dias' tiene un día que no existe: feriado (días: lunes, martes, miércoles, jueves, viernes, sábado, domingo).");
    await refused({ horas: ['20:00', '24:00', '8:00'] }, "El campo 'horas' tiene una hora no válida: 24:00 (HH:MM, como 20:30). El campo 'horas' tiene una hora no válida: 8:00 (HH:MM, como 20:30).");
    await refused({ dias: [], horas: [] }, "El campo 'dias' no es válido. El campo 'horas' no es válido.");
    await refused({ desde: '2026-12-01', hasta: '2026-12-06', dias: ['lunes'], excepto: ['2026-12-01'] }, 'La serie no da ninguna función: revise las fechas, los días y las excepciones.');
    await refused({ evento_id: 999999, lugar_id: 999998 }, 'No existe la película con id: 999999. No existe el lugar con id: 999998.');
    await refused({ desde: undefined }, "El campo 'desde' es obligatorio.");
  });

  it('when a rule gives more than 1000 showtimes, then 400; when excepto leaves 1000, then all 1000 are created', async () => {
    const { pelicula, lugar } = await setting();
    // 2027-01-01 (a Friday) to 2029-09-27: 1001 days, every weekday.
    const every = ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'];
    const base = { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, desde: '2027-01-01', hasta: '2029-09-27', dias: every, horas: ['20:00'] };
    assertError(await serie(base), 400, { details: 'La serie da más de 1000 funciones, el máximo: divídala en varias.' });
    const res = await serie({ ...base, excepto: ['2028-02-29'] });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json<Json[]>().length, 1000);
  });
});

describe(`TIMEZONE and showtimes (${backend})`, () => {
  it('when TIMEZONE has daylight saving (Europe/Madrid), then a wall clock in the spring-forward gap moves forward, a repeated one stays, and an offset names an instant', async () => {
    const madrid = await buildTestApp({ TIMEZONE: 'Europe/Madrid' });
    try {
      const { pelicula, lugar } = await setting(madrid);
      const inicio = async (sent: string, fin?: string) =>
        (await createFuncion({ tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: sent, ...(fin && { fin }) }, madrid));
      assert.equal((await inicio('2026-03-29T02:30')).inicio, '2026-03-29T03:30:00.000+00:00');
      const gapEnd = await inicio('2026-03-29T01:00', '2026-03-29T02:15');
      assert.equal(gapEnd.fin, '2026-03-29T03:15:00.000+00:00');
      assert.equal((await inicio('2026-10-25T02:30')).inicio, '2026-10-25T02:30:00.000+00:00');
      assert.equal((await inicio('2026-07-01T21:00:00+00:00')).inicio, '2026-07-01T21:00:00.000+00:00');
      assert.equal((await inicio('2026-07-02T21:00:00-03:00')).inicio, '2026-07-03T02:00:00.000+00:00');
      assert.equal((await inicio('2026-10-25T01:30:00Z')).inicio, '2026-10-25T01:30:00.000+00:00');
      const rule = { desde: '2027-03-28', hasta: '2027-03-28', dias: ['domingo'], horas: ['02:00', '02:30', '03:30'] };
      const series = await send(madrid, 'POST', '/funciones/serie', { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, ...rule });
      assert.equal(series.statusCode, 201, series.body);
      // 02:00 and 02:30 fall in the gap and move to 03:00 and 03:30, which the rule gives too: each once.
      const starts = ['2027-03-28T03:00:00.000+00:00', '2027-03-28T03:30:00.000+00:00'];
      assert.deepEqual(series.json<Json[]>().map((f) => f.inicio), starts);
      // The admin's preview runs the same rule in the zone GET /hora names: it shows what was created.
      const { zona } = (await send(madrid, 'GET', '/hora')).json<{ zona: string }>();
      assert.deepEqual(seriesStarts(rule, zona), { starts });
    } finally {
      await madrid.close();
    }
  });

  it('when TIMEZONE has no daylight saving (America/Argentina/Buenos_Aires), then -03:00 is the wall clock as written, another offset is converted, and every wall clock exists', async () => {
    const baires = await buildTestApp({ TIMEZONE: 'America/Argentina/Buenos_Aires' });
    try {
      const { pelicula, lugar } = await setting(baires);
      const inicio = async (sent: string) => (await createFuncion({ tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: sent }, baires)).inicio;
      assert.equal(await inicio('2027-02-20T21:00:00-03:00'), '2027-02-20T21:00:00.000+00:00');
      assert.equal(await inicio('2027-02-20T21:00:00+01:00'), '2027-02-20T17:00:00.000+00:00');
      assert.equal(await inicio('2026-03-29T02:30'), '2026-03-29T02:30:00.000+00:00');
      assert.equal(await inicio('2026-10-04T00:30'), '2026-10-04T00:30:00.000+00:00');
    } finally {
      await baires.close();
    }
  });
});

describe(`venues and showtimes in spreadsheets (${backend})`, () => {
  it('when they are exported as .xlsx, .ods and CSV and imported into another store, then each format gives the same records back', async () => {
    const source = await buildTestApp();
    const target = await buildTestApp();
    try {
      const categoria = (await send(source, 'POST', '/categorias', { nombre: 'Teatro' })).json<{ id: number }>();
      const obra = (await send(source, 'POST', '/Obras', { titulo: 'Hamlet', descripcion: 'Dinamarca.', duracion: 180, categoria_id: categoria.id })).json<{ id: number }>();
      const colon = await createLugar(source, { nombre: 'Teatro Colón', latitud: -34.601066, longitud: -58.383217, accesible: true, url: 'https://teatrocolon.org.ar' });
      const sala = await createLugar(source, { nombre: 'Sala; "B"' });
      await createFuncion({ tipo_evento: 'obra', evento_id: obra.id, lugar_id: colon.id, inicio: '2026-12-25T20:00', fin: '2026-12-25T23:00', estado: 'agotada', notas: 'Subtitulada' }, source);
      await createFuncion({ tipo_evento: 'obra', evento_id: obra.id, lugar_id: sala.id, inicio: '2026-12-26T00:00' }, source);
      const lists = async (app: FastifyInstance) => [(await send(app, 'GET', '/lugares')).body, (await send(app, 'GET', '/funciones')).body];
      const download = async (query: string) => (await source.inject({ method: 'GET', url: `/exportar.${query}` })).rawPayload;

      const first = await importar(target, '', [{ name: 'todo.xlsx', bytes: await download('xlsx') }]);
      assert.equal(first.statusCode, 200, first.body);
      assert.deepEqual(await lists(target), await lists(source));
      const unchanged = { nuevos: 0, actualizados: 0, sin_cambios: 2 };
      const again = async (files: { name: string; bytes: Buffer }[]) => {
        const res = await importar(target, '?existentes=actualizar', files);
        assert.equal(res.statusCode, 200, res.body);
        const { lugares, funciones } = res.json<{ recuentos: Record<string, unknown> }>().recuentos;
        assert.deepEqual({ lugares, funciones }, { lugares: unchanged, funciones: unchanged });
      };
      await again([{ name: 'todo.ods', bytes: await download('ods') }]);
      const csv = async (recurso: string) => ({ name: `${recurso}.csv`, bytes: await download(`csv?recurso=${recurso}`) });
      await again([await csv('categorias'), await csv('Obras'), await csv('lugares'), await csv('funciones')]);
      assert.match((await download('csv?recurso=funciones')).toString(), /;Teatro Colón;25\/12\/2026 20:00;25\/12\/2026 23:00;Agotada;Subtitulada\r\n.*;26\/12\/2026 00:00;;Programada;\r\n$/s);
      assert.match((await download('csv?recurso=lugares')).toString(), /;-34\.601066;-58\.383217;sí;https:\/\/teatrocolon\.org\.ar\r\n/);
      assert.deepEqual(await lists(target), await lists(source));
    } finally {
      await source.close();
      await target.close();
    }
  });
});

describe(`/funciones: the live feed (${backend})`, () => {
  it('when a stream follows recurso=funciones, then a series\' altas and a deletion\'s cascaded bajas arrive, in id order, once each', async () => {
    const store = await freshStore();
    const { app: served, base } = await serve(store);
    try {
      await post(base, '/categorias', { nombre: 'Drama' });
      await post(base, '/peliculas', { titulo: 'Roma', sipnosis: 'x', duracion: 135, categoria_id: 1 });
      await post(base, '/lugares', { nombre: 'Sala', direccion: 'Calle 1' });
      const stream = follow(`${base}/cambios?recurso=funciones`);
      await stream.until(() => stream.status === 200, 'its headers');
      await post(base, '/funciones/serie', { tipo_evento: 'pelicula', evento_id: 1, lugar_id: 1, desde: '2027-01-01', hasta: '2027-01-02', dias: ['viernes', 'sábado'], horas: ['20:00'] });
      const deleted = await fetch(`${base}/peliculas/1`, { method: 'DELETE', headers: { connection: 'close' } });
      assert.equal(deleted.status, 200);
      await stream.until((e) => e.length === 4, 'two altas and two bajas');
      assert.deepEqual(stream.events.map((e) => [e.data.recurso, e.data.clave, e.data.operacion]), [
        ['funciones', 1, 'alta'], ['funciones', 2, 'alta'], ['funciones', 1, 'baja'], ['funciones', 2, 'baja'],
      ]);
      assert.deepEqual(stream.events.map((e) => e.id), [...stream.events.map((e) => e.id)].sort((a, b) => a - b));
      stream.stop();
    } finally {
      await served.close();
      await store.drop();
    }
  });
});

describe(`/funciones: the store's own rules (${backend})`, () => {
  it('when a row breaks a rule behind the service\'s back, then the store refuses it', () =>
    withMigratedStore(async ({ db }) => {
      const exec = (text: string) => sql.raw(text).execute(db);
      await exec(`insert into categorias (nombre, nombre_clave) values ('c', 'c')`);
      await exec(`insert into peliculas (titulo, titulo_clave, sipnosis, sipnosis_clave, duracion, categoria_id) values ('p', 'p', 's', 's', 90, 1)`);
      await exec(`insert into lugares (nombre, nombre_clave, direccion, direccion_clave) values ('l', 'l', 'd', 'd')`);
      const insert = (values: string) => exec(`insert into funciones (tipo_evento, evento_id, lugar_id, inicio, fin, estado) values ${values}`);
      await insert(`('pelicula', 1, 1, '2026-12-25T20:00:00.000+00:00', null, 'programada')`);
      for (const bad of [
        `('pelicula', 1, 1, '2026-12-25T20:00:00.000+00:00', null, 'agotada')`, // the uniqueness tuple
        `('obra', 1, 1, '2026-12-26T20:00:00.000+00:00', null, 'programada')`, // no such work
        `('pelicula', 1, 2, '2026-12-26T20:00:00.000+00:00', null, 'programada')`, // no such venue
        `('pelicula', 1, 1, '2026-12-26T20:00:00.000+00:00', null, 'Cancelada')`, // estado values
        `('pelicula', 1, 1, '2026-12-26', null, 'programada')`, // a whole day
        `('pelicula', 1, 1, '2026-12-26T20:00:30.000+00:00', null, 'programada')`, // seconds
        `('pelicula', 1, 1, '2026-12-26T20:00:00.000+00:00', '2026-12-26T19:00:00.000+00:00', 'programada')`, // fin before inicio
      ]) await assert.rejects(insert(bad), bad);
      await assert.rejects(exec('delete from lugares where id = 1'), 'a venue in use');
      await exec('delete from peliculas where id = 1');
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from funciones`.execute(db);
      assert.equal(Number(rows[0]?.n), 0, 'the movie\'s showtimes went with it');
    }));
});
