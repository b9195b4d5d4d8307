// /lugares, point by point against the contract's "Venues, showtimes and what's on": field rules,
// lookups, writes, deletes, undo, near and within, and the store's own constraints.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { assertError, buildTestApp, createPelicula, send, unique, type Json } from '../helpers.js';
import { seededRandom, seedFor } from '../random.js';
import { backend, withMigratedStore } from '../stores.js';

let app: FastifyInstance;
before(async () => {
  app = await buildTestApp();
});
after(() => app.close());

const CREATE_FAILED = 'No se pudo ingresar un nuevo lugar error en: /lugares';

async function createLugar(o: Json = {}): Promise<Json & { id: number; nombre: string }> {
  const res = await send(app, 'POST', '/lugares', { nombre: unique('Sala'), direccion: 'Corrientes 1530, Buenos Aires', ...o });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}
const ids = async (query: string) => {
  const res = await send(app, 'GET', `/lugares?${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<Json[]>().map((l) => l.id);
};

describe(`/lugares: records (${backend})`, () => {
  it('when a venue is created, then it is answered with its defaults, coordinates rounded to 6 decimals, and a Location by its name', async () => {
    const res = await send(app, 'POST', '/lugares', { nombre: '  Teatro Colón ', direccion: 'Cerrito 628, Buenos Aires', latitud: '-34.6010665', longitud: -58.38321749, url: '' });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json<Json>();
    assert.deepEqual(body, { id: body.id, nombre: 'Teatro Colón', direccion: 'Cerrito 628, Buenos Aires', latitud: -34.601067, longitud: -58.383217, accesible: false, url: null });
    assert.equal(res.headers.location, '/lugares/Teatro%20Col%C3%B3n');
    assert.deepEqual((await send(app, 'GET', '/lugares/teatro%20colon')).json(), body);
  });

  it('when a coordinate is a JSON number with more digits than a double holds, then it is rounded to 6 decimals, not refused as inexact', async () => {
    const res = await app.inject({
      method: 'POST', url: '/lugares', headers: { 'content-type': 'application/json' },
      payload: `{"nombre":"${unique('Sala')}","direccion":"Calle 1","latitud":-34.00000000000000001,"longitud":58.1234565000000000001}`,
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual([res.json<Json>().latitud, res.json<Json>().longitud], [-34, 58.123457]);
  });

  it('when accesible is null and url has spaces around it, then accesible is false and url is stored trimmed', async () => {
    const lugar = await createLugar({ accesible: null, url: '  https://example.org/sala?a=1  ' });
    assert.equal(lugar.accesible, false);
    assert.equal(lugar.url, 'https://example.org/sala?a=1');
  });

  it('when a field breaks its rule, then 400 names each field and nothing is stored', async () => {
    const before = (await send(app, 'GET', '/lugares')).body;
    const refused = async (body: Json, details: string) =>
      assertError(await send(app, 'POST', '/lugares', { nombre: unique('Sala'), direccion: 'Calle 1', ...body }), 400, { details, moreInfo: CREATE_FAILED });
    await refused({ latitud: -34.6 }, "Los campos 'latitud' y 'longitud' van juntos: envíe los dos o ninguno.");
    await refused({ latitud: null, longitud: 12 }, "Los campos 'latitud' y 'longitud' van juntos: envíe los dos o ninguno.");
    await refused({ latitud: 90.5, longitud: '181' }, "El campo 'latitud' debe estar entre -90 y 90. El campo 'longitud' debe estar entre -180 y 180.");
    await refused({ latitud: '1,5', longitud: true }, "El campo 'latitud' debe ser un número (como 40.416775). El campo 'longitud' debe ser un número (como 40.416775).");
    await refused({ accesible: 'true' }, "El campo 'accesible' debe ser true o false.");
    await refused({ url: 'ftp://example.org' }, "El campo 'url' debe ser una dirección web que empiece con http:// o https://.");
    await refused({ url: `https://example.org/${'a'.repeat(2030)}` }, "El campo 'url' no puede tener más de 2048 caracteres.");
    await refused({ nombre: 'ñ'.repeat(256), direccion: 'd'.repeat(256) }, "El campo 'nombre' no puede tener más de 255 caracteres. El campo 'direccion' no puede tener más de 255 caracteres.");
    assertError(await send(app, 'POST', '/lugares', { nombre: 'Sin dirección' }), 400, { details: "El campo 'direccion' es obligatorio.", moreInfo: CREATE_FAILED });
    assert.equal((await send(app, 'GET', '/lugares')).body, before);
  });

  it('when a name is taken by another spelling, then 400 says "Ya existe un lugar…"; a name nobody has is 404', async () => {
    const lugar = await createLugar({ nombre: 'Café Tortoni' });
    assertError(await send(app, 'POST', '/lugares', { nombre: 'cafe TORTONI', direccion: 'Otra 1' }), 400, {
      details: 'Ya existe un lugar con el nombre: cafe TORTONI, por favor, intente con otro distinto',
    });
    assertError(await send(app, 'GET', '/lugares/Nadie%20Aqu%C3%AD'), 404, { details: 'No se encontró el lugar con el nombre: Nadie Aquí' });
    assert.equal((await send(app, 'GET', `/lugares/${encodeURIComponent(lugar.nombre)}`)).json<Json>().id, lugar.id);
  });

  it('when a venue is replaced (PUT), then the fields left out take their defaults; a PATCH changes only what it names', async () => {
    const lugar = await createLugar({ latitud: 1, longitud: 2, accesible: true, url: 'http://a.example' });
    const put = await send(app, 'PUT', `/lugares/${lugar.id}`, { nombre: lugar.nombre, direccion: 'Nueva 2' });
    assert.deepEqual(put.json(), { id: lugar.id, nombre: lugar.nombre, direccion: 'Nueva 2', latitud: null, longitud: null, accesible: false, url: null });
    const patched = await send(app, 'PATCH', `/lugares/${lugar.id}`, { accesible: true, latitud: '10.1234564', longitud: '-20' });
    assert.deepEqual(patched.json(), { id: lugar.id, nombre: lugar.nombre, direccion: 'Nueva 2', latitud: 10.123456, longitud: -20, accesible: true, url: null });
    assertError(await send(app, 'PATCH', `/lugares/${lugar.id}`, { latitud: null }), 400, { details: "Los campos 'latitud' y 'longitud' van juntos: envíe los dos o ninguno." });
    const campos = (await send(app, 'GET', `/cambios?recurso=lugares&clave=${lugar.id}`)).json<Json[]>().map((c) => c.campos);
    assert.deepEqual(campos, [
      ['id', 'nombre', 'direccion', 'latitud', 'longitud', 'accesible', 'url'],
      ['direccion', 'latitud', 'longitud', 'accesible', 'url'],
      ['latitud', 'longitud', 'accesible'],
    ]);
  });

  it('when a PUT carries the ETag of an older version, then 412 and nothing changes', async () => {
    const lugar = await createLugar();
    const read = await send(app, 'GET', `/lugares/${encodeURIComponent(lugar.nombre)}`);
    const etag = String(read.headers.etag);
    await send(app, 'PATCH', `/lugares/${lugar.id}`, { direccion: 'Cambiada 3' });
    const res = await app.inject({ method: 'PUT', url: `/lugares/${lugar.id}`, headers: { 'if-match': etag }, payload: { nombre: lugar.nombre, direccion: 'Mía 4' } });
    assertError(res, 412, { details: 'El registro cambió desde que lo leyó: la condición If-Match no se cumple.' });
  });

  it('when showtimes take place at a venue, then deleting it is a 400 that says how many, and undoing its alta is a 409; without them it is deleted', async () => {
    const lugar = await createLugar({ nombre: 'Sala Lugones' });
    const pelicula = await createPelicula(app);
    for (const inicio of ['2026-12-25T20:00', '2026-12-26T20:00']) {
      assert.equal((await send(app, 'POST', '/funciones', { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio })).statusCode, 201);
    }
    assertError(await send(app, 'DELETE', `/lugares/${lugar.id}`), 400, {
      details: 'El lugar "Sala Lugones" tiene 2 funciones; no se puede eliminar.',
      moreInfo: `No se pudo eliminar el lugar error en: /lugares/${lugar.id}`,
    });
    const [alta] = (await send(app, 'GET', `/cambios?recurso=lugares&clave=${lugar.id}`)).json<Json[]>();
    const undo = await send(app, 'POST', `/cambios/${alta?.id}/deshacer`);
    assertError(undo, 409, { details: `No se puede deshacer el cambio ${alta?.id}: El lugar "Sala Lugones" tiene 2 funciones; no se puede eliminar.` });
    assert.equal((await send(app, 'GET', '/lugares/Sala%20Lugones')).statusCode, 200);

    const empty = await createLugar();
    const deleted = await send(app, 'DELETE', `/lugares/${empty.id}`);
    assert.equal(deleted.statusCode, 200);
    assert.equal(deleted.json<Json>().details, `el lugar con el id: ${empty.id}. fue eliminado correctamente.`);
    assertError(await send(app, 'DELETE', `/lugares/${empty.id}`), 404, { details: `No se encontró el lugar con id: ${empty.id}` });
  });

  it('when a venue\'s deletion is undone, then it is back with its id and values', async () => {
    const lugar = await createLugar({ latitud: -1.5, longitud: 2.25, accesible: true });
    await send(app, 'DELETE', `/lugares/${lugar.id}`);
    const baja = (await send(app, 'GET', `/cambios?recurso=lugares&clave=${lugar.id}&operacion=baja`)).json<Json[]>()[0];
    const undo = await send(app, 'POST', `/cambios/${baja?.id}/deshacer`);
    assert.equal(undo.statusCode, 200, undo.body);
    assert.deepEqual((await send(app, 'GET', `/lugares/${encodeURIComponent(lugar.nombre)}`)).json(), lugar);
  });

  it('when lists filter by accesible, then true and false select, and another value is a 400', async () => {
    const yes = await createLugar({ accesible: true, nombre: unique('Accesible') });
    assert.ok((await ids('accesible=true')).includes(yes.id));
    assert.ok(!(await ids('accesible=false')).includes(yes.id));
    assertError(await send(app, 'GET', '/lugares?accesible=si'), 400, { details: "El parámetro 'accesible' debe ser true o false." });
  });
});

describe(`/lugares: near and within (${backend})`, () => {
  // Around a point of the Atlantic no other test uses: Obelisco-like offsets at lat 10, lon -30.
  let center: number, north2km: number, east40km: number, far: number, bare: number;
  before(async () => {
    center = (await createLugar({ latitud: 10, longitud: -30 })).id;
    north2km = (await createLugar({ latitud: 10.018, longitud: -30 })).id; // ≈ 2.0 km
    east40km = (await createLugar({ latitud: 10, longitud: -29.635 })).id; // ≈ 40 km
    far = (await createLugar({ latitud: 11, longitud: -30 })).id; // ≈ 111 km
    bare = (await createLugar()).id;
  });

  it('when cerca is given alone, then the venues within 5 km answer, by id; a page\'s links keep it', async () => {
    assert.deepEqual(await ids('cerca=10,-30'), [center, north2km]);
    const page = await send(app, 'GET', '/lugares?cerca=10,-30&_page=1&_limit=1');
    assert.equal(page.headers['x-total-count'], '2');
    assert.match(String(page.headers.link), /<\/lugares\?cerca=10%2C-30&_page=2&_limit=1>; rel="next"/);
  });

  it('when radio_km widens the circle and _sort=distancia orders it, then nearest first, and _order=desc reverses it', async () => {
    assert.deepEqual(await ids('cerca=10.02,-30&radio_km=100&_sort=distancia'), [north2km, center, east40km]);
    assert.deepEqual(await ids('cerca=10.02,-30&radio_km=100&_sort=distancia&_order=desc'), [east40km, center, north2km]);
    assert.deepEqual(await ids('cerca=10,-30&radio_km=1.9'), [center]);
    const [nearest] = (await send(app, 'GET', '/lugares?cerca=10.02,-30&_sort=distancia&_limit=1')).json<Json[]>();
    assert.deepEqual(Object.keys(nearest ?? {}), ['id', 'nombre', 'direccion', 'latitud', 'longitud', 'accesible', 'url'], 'no distance field');
  });

  it('when bbox is given, then its edges are included; with cerca, both apply; a venue without coordinates never matches', async () => {
    assert.deepEqual(await ids('bbox=-30,10,-29.635,10.018'), [center, north2km, east40km]);
    assert.deepEqual(await ids('bbox=-30,10,-29.635,10.018&cerca=10,-29.7&radio_km=20'), [east40km]);
    assert.ok(!(await ids('bbox=-180,-90,180,90')).includes(bare));
    assert.ok((await ids('bbox=-180,-90,180,90')).includes(far));
  });

  it('when oeste is east of este, then the box crosses the antimeridian', async () => {
    const fiji = (await createLugar({ latitud: -17.7, longitud: 179.9 })).id;
    const samoa = (await createLugar({ latitud: -13.8, longitud: -171.8 })).id;
    const greenwich = (await createLugar({ latitud: -15, longitud: 0 })).id;
    assert.deepEqual(await ids('bbox=170,-20,-170,-10'), [fiji, samoa]);
    assert.ok((await ids('bbox=-170,-20,170,-10')).includes(greenwich));
    assert.deepEqual(await ids('cerca=-17.7,-179.95&radio_km=20'), [fiji]);
  });

  it('when a value is bad, then 400 names its parameter', async () => {
    const refused = async (query: string, details: string) => assertError(await send(app, 'GET', `/lugares?${query}`), 400, { details });
    const CERCA = "El parámetro 'cerca' debe ser una latitud y una longitud separadas por coma, entre -90 y 90 y entre -180 y 180 (como -34.6037,-58.3816).";
    const RADIO = "El parámetro 'radio_km' debe ser un número mayor que 0 y de a lo sumo 100.";
    const BBOX = "El parámetro 'bbox' debe ser cuatro números separados por coma: oeste, sur, este y norte (longitudes entre -180 y 180, latitudes entre -90 y 90).";
    await refused('cerca=91,0', CERCA);
    await refused('cerca=10', CERCA);
    await refused('cerca=a,b', CERCA);
    await refused('cerca=10,-30&radio_km=0', RADIO);
    await refused('cerca=10,-30&radio_km=100.01', RADIO);
    await refused('cerca=10,-30&radio_km=x', RADIO);
    await refused('radio_km=3', "El parámetro 'radio_km' necesita 'cerca', el punto desde el que se mide.");
    await refused('_sort=distancia', "El parámetro '_sort' ordena por distancia, que necesita 'cerca', el punto desde el que se mide.");
    await refused('bbox=1,2,3', BBOX);
    await refused('bbox=-181,0,1,1', BBOX);
    await refused('bbox=0,10,1,5', "El parámetro 'bbox' tiene el sur al norte del norte: el segundo número debe ser menor o igual que el cuarto.");
    assert.deepEqual(await ids('cerca=10,-30&radio_km=100'), [center, north2km, east40km]);
  });
});

describe(`/lugares: near and within against a brute-force haversine (${backend})`, () => {
  const EARTH_KM = 6371.0088;
  const rad = (degrees: number) => (degrees * Math.PI) / 180;
  const km = (lat1: number, lon1: number, lat2: number, lon2: number) => {
    const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
    return 2 * EARTH_KM * Math.asin(Math.sqrt(a));
  };
  const wrap = (lon: number) => (lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon);

  it('when random venues around Buenos Aires, Tromsø and the antimeridian are searched at random, then each answer is what the distance and the box say', async (t) => {
    const random = seededRandom(seedFor(t));
    const own = await buildTestApp();
    try {
      // Clusters where a box in degrees is widest (70° north) and where longitude wraps around.
      const centers = [[-34.6, -58.4], [69.65, 18.96], [-17.7, 179.9]] as const;
      const venues: { id: number; lat: number; lon: number }[] = [];
      for (let i = 0; i < 150; i++) {
        const [lat0, lon0] = centers[i % centers.length] ?? [0, 0];
        const lat = Math.round((lat0 + (random() - 0.5) * 2) * 1e6) / 1e6;
        const lon = Math.round(wrap(lon0 + ((random() - 0.5) * 4) / Math.cos(rad(lat0))) * 1e6) / 1e6;
        const res = await send(own, 'POST', '/lugares', { nombre: `Sala ${i}`, direccion: 'Calle 1', latitud: lat, longitud: lon });
        venues.push({ id: res.json<{ id: number }>().id, lat, lon });
      }
      const answered = async (query: string) => (await send(own, 'GET', `/lugares?${query}`)).json<Json[]>().map((l) => l.id as number);
      for (let q = 0; q < 30; q++) {
        const [lat0, lon0] = centers[q % centers.length] ?? [0, 0];
        const lat = Math.round((lat0 + (random() - 0.5)) * 1e4) / 1e4;
        const lon = Math.round(wrap(lon0 + (random() - 0.5) / Math.cos(rad(lat0))) * 1e4) / 1e4;
        const radius = Math.round((0.5 + random() * 99.5) * 100) / 100;
        // A venue a hair's breadth from the circle may fall either side of it in floating point: left out of the comparison.
        const distance = new Map(venues.map((v) => [v.id, km(lat, lon, v.lat, v.lon)]));
        const borderline = (id: number) => Math.abs((distance.get(id) ?? 0) - radius) < 1e-6;
        const inside = venues.filter((v) => (distance.get(v.id) ?? Infinity) <= radius && !borderline(v.id)).map((v) => v.id);
        const near = `cerca=${lat},${lon}&radio_km=${radius}`;
        assert.deepEqual((await answered(near)).filter((id) => !borderline(id)), inside, near);
        const nearest = (await answered(`${near}&_sort=distancia`)).filter((id) => !borderline(id));
        assert.deepEqual(nearest, [...inside].sort((a, b) => (distance.get(a) ?? 0) - (distance.get(b) ?? 0) || a - b), `${near}&_sort=distancia`);
      }
      for (let q = 0; q < 15; q++) {
        const [lat0, lon0] = centers[q % centers.length] ?? [0, 0];
        const sur = Math.round((lat0 - random()) * 1e4) / 1e4;
        const norte = Math.round((lat0 + random()) * 1e4) / 1e4;
        const oeste = Math.round(wrap(lon0 - (random() * 2) / Math.cos(rad(lat0))) * 1e4) / 1e4;
        const este = Math.round(wrap(lon0 + (random() * 2) / Math.cos(rad(lat0))) * 1e4) / 1e4;
        const inBox = (v: { lat: number; lon: number }) => v.lat >= sur && v.lat <= norte && (oeste <= este ? v.lon >= oeste && v.lon <= este : v.lon >= oeste || v.lon <= este);
        const bbox = `bbox=${oeste},${sur},${este},${norte}`;
        assert.deepEqual(await answered(bbox), venues.filter(inBox).map((v) => v.id), bbox);
      }
    } finally {
      await own.close();
    }
  });
});

describe(`/lugares: the store's own rules (${backend})`, () => {
  it('when a row breaks a field rule behind the service\'s back, then the store refuses it', () =>
    withMigratedStore(async ({ db }) => {
      const insert = (values: string) => sql.raw(`insert into lugares (nombre, nombre_clave, direccion, direccion_clave, latitud, longitud, accesible, url) values ${values}`).execute(db);
      await insert(`('a', 'a', 'd', 'd', 1, 2, 1, 'https://x.example')`);
      for (const bad of [
        `('b', 'b', 'd', 'd', 1, null, 0, null)`, // coordinates both or neither
        `('c', 'c', 'd', 'd', 91, 0, 0, null)`, // latitude range
        `('d', 'd', 'd', 'd', 0, -181, 0, null)`, // longitude range
        `('e', 'e', 'd', 'd', null, null, 2, null)`, // accesible 0 or 1
        `('f', 'f', 'd', 'd', null, null, 0, 'ftp://x')`, // url scheme
        `('g', 'a', 'd', 'd', null, null, 0, null)`, // unique name
      ]) await assert.rejects(insert(bad), bad);
    }));
});
