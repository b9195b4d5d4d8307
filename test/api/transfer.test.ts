// POST /importar and GET /exportar.xlsx: the admin's import and export, over the same engines as
// the command line, with the same limits as every write.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { strFromU8, unzipSync } from 'fflate';
import readXlsxFile from 'read-excel-file/node';
import { assertError, buildTestApp, createCategoria, createPelicula, withApp, type Json } from '../helpers.js';
import { root } from '../service.js';
import { backend } from '../stores.js';
import { importar, upload } from './uploads.js';

const fixture = (name: string) => readFileSync(join(root, 'test', 'fixtures', 'spreadsheets', name));

/** An import refused: the error body, with the report beside it, nothing stored. */
function assertRefused(res: Awaited<ReturnType<typeof importar>>, status: number, details: string) {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json<Json>();
  assert.deepEqual([body.type, body.code, body.details, body.location, body.guardado], ['error', String(status), details, 'uri=/importar', false]);
}

const titles = async (app: FastifyInstance, path: string) => (await app.inject({ method: 'GET', url: path })).json<Json[]>().map((r) => r.titulo ?? r.nombre);

describe(`POST /importar (${backend})`, () => {
  it('when a workbook is checked, then the report says what would be stored, and nothing is', () =>
    withApp(async (app) => {
      const res = await importar(app, '?comprobar=true', [{ name: 'catalogo.xlsx', bytes: fixture('catalogo.xlsx') }]);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        guardado: false,
        problemas: [],
        avisos: [],
        recuentos: {
          categorias: { nuevos: 3, actualizados: 0, sin_cambios: 0 },
          peliculas: { nuevos: 2, actualizados: 0, sin_cambios: 0 },
          eventosUrbanos: { nuevos: 2, actualizados: 0, sin_cambios: 0 },
          artistas: { nuevos: 2, actualizados: 0, sin_cambios: 0 },
        },
      });
      assert.deepEqual(await titles(app, '/categorias'), []);
    }));

  it('when a workbook with a bad row is imported, then 400 lists the problem with its sheet, row, field and value, and nothing is stored', () =>
    withApp(async (app) => {
      const res = await importar(app, '', [{ name: 'catalogo-con-error.xlsx', bytes: fixture('catalogo-con-error.xlsx') }]);
      assert.equal(res.statusCode, 400, res.body);
      const body = res.json<Json>();
      assert.equal(body.type, 'error');
      assert.equal(body.details, 'La importación tiene 1 problema; no se guardó nada.');
      assert.equal(body.location, 'uri=/importar');
      assert.equal(body.guardado, false);
      assert.deepEqual(body.problemas, [
        {
          archivo: 'catalogo-con-error.xlsx',
          hoja: 'Películas',
          fila: 3,
          recurso: 'peliculas',
          campo: 'duracion',
          columna: 'Duración (minutos)',
          valor: 'dos horas',
          frase: "El campo 'Duración (minutos)' debe ser un número entero. Ejemplos: 95, 1:35, 1h35.",
        },
      ]);
      assert.deepEqual(await titles(app, '/categorias'), []);
    }));

  it('when CSV files are imported, then they are stored all together, and existentes=actualizar replaces only what changed', () =>
    withApp(async (app) => {
      const files = ['categorias.csv', 'peliculas.csv', 'artistas.csv'].map((name) => ({ name, bytes: fixture(`utf8-bom/${name}`) }));
      const res = await importar(app, '', files);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json<Json>().guardado, true);
      assert.deepEqual(await titles(app, '/peliculas'), ['La ciénaga', 'Relatos salvajes']);

      const again = await importar(app, '?existentes=actualizar', [{ name: 'peliculas.csv', bytes: fixture('windows-1252/peliculas.csv') }]);
      assert.equal(again.statusCode, 200, again.body);
      assert.deepEqual(again.json<Json>().avisos, [{ archivo: 'peliculas.csv', aviso: 'No está en UTF-8: se leyó como Windows-1252, como Excel guarda "CSV".' }]);
      assert.deepEqual(again.json<Json>().recuentos, { peliculas: { nuevos: 0, actualizados: 0, sin_cambios: 2 } });
    }));

  it('when a file is not a spreadsheet, is empty, is no workbook, or is named after no resource, then each is a problem of that file in the report, in one answer', () =>
    withApp(async (app) => {
      const files = [
        { name: 'notas.txt', bytes: 'hola' },
        { name: 'roto.xlsx', bytes: '%PDF-1.7 no soy un libro' },
        { name: 'roto.ods', bytes: fixture('catalogo.xlsx') },
        { name: 'peliculas.csv', bytes: '' },
        { name: 'cosas.csv', bytes: 'a\n1\n' },
        { name: 'categorias.csv', bytes: 'nombre\nDrama\n' },
      ];
      const res = await importar(app, '', files);
      assertRefused(res, 400, 'La importación tiene 5 problemas; no se guardó nada.');
      assert.deepEqual(res.json<Json>().problemas, [
        { archivo: 'notas.txt', frase: 'No es un archivo .csv, .xlsx ni .ods.' },
        { archivo: 'peliculas.csv', frase: 'El archivo está vacío.' },
        {
          archivo: 'cosas.csv',
          frase: 'Un archivo CSV lleva el nombre de su recurso (categorias.csv, peliculas.csv, Obras.csv, eventosUrbanos.csv, artistas.csv, participaciones.csv, lugares.csv, funciones.csv).',
        },
        { archivo: 'roto.xlsx', frase: 'No es un libro .xlsx válido.' },
        { archivo: 'roto.ods', frase: 'No es una hoja de cálculo .ods válida.' },
      ]);
      assertError(await importar(app, '', [{ name: 'peliculas.csv', bytes: 'titulo\nRoma\n', part: 'otro' }]), 400, {
        details: "Solo se aceptan archivos en partes llamadas archivo; se recibió 'otro'.",
      });
      assertError(await importar(app, '', []), 400, { details: 'No se recibió ningún archivo: elija archivos CSV o un libro .xlsx u .ods.' });
      assertError(await app.inject({ method: 'POST', url: '/importar', payload: { nombre: 'Drama' } }), 415, {
        details: 'Envíe los archivos como multipart/form-data, en partes llamadas archivo.',
      });
      assertError(await importar(app, '?existentes=quizas', [{ name: 'catalogo.xlsx', bytes: fixture('catalogo.xlsx') }]), 400, { details: /existentes/ });
      assert.deepEqual(await titles(app, '/categorias'), []);
    }));

  it('when the import is asked with a parameter it does not know, then it is ignored, as on every route', () =>
    withApp(async (app) => {
      const res = await importar(app, '?comprobar=true&existentes=actualizar&foo=1', [{ name: 'catalogo.xlsx', bytes: fixture('catalogo.xlsx') }]);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json<{ guardado: boolean }>().guardado, false);
    }));

  it('when the files are larger than IMPORT_MAX_BYTES, then 413 in the error body, which carries the report naming the file and the limit in MB, and nothing is stored', async () => {
    const app = await buildTestApp({ IMPORT_MAX_BYTES: '4000' });
    try {
      const big = `nombre\n${Array.from({ length: 600 }, (_, i) => `Categoría ${i}`).join('\n')}\n`;
      const whole = await importar(app, '', [{ name: 'categorias.csv', bytes: big }]);
      assertRefused(whole, 413, 'Los archivos superan el máximo de 0,0038 MB.');
      assert.deepEqual(whole.json<Json>().problemas, [{ archivo: 'categorias.csv', frase: 'Los archivos superan el máximo de 0,0038 MB.' }]);
      const halves = [big.slice(0, 2500), `nombre\n${big.slice(2500)}`];
      const split = await importar(app, '', halves.map((bytes, i) => ({ name: `categorias-${i}.csv`, bytes })));
      assertRefused(split, 413, 'Los archivos superan el máximo de 0,0038 MB.');
      assert.deepEqual(split.json<Json>().problemas, [{ archivo: 'categorias-1.csv', frase: 'Los archivos superan el máximo de 0,0038 MB.' }]);
      assert.deepEqual(await titles(app, '/categorias'), []);
    } finally {
      await app.close();
    }
  });

  it('when API_KEYS is set, then an import needs the write key, as every write does', async () => {
    const app = await buildTestApp({ API_KEYS: 'clave-de-importacion-0001' });
    try {
      const files = [{ name: 'catalogo.xlsx', bytes: fixture('catalogo.xlsx') }];
      assert.equal((await importar(app, '', files)).statusCode, 401);
      assert.deepEqual(await titles(app, '/categorias'), []);
      const res = await importar(app, '', files, { authorization: 'Bearer clave-de-importacion-0001' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(await titles(app, '/categorias'), ['Drama', 'Comedia', 'Música']);
    } finally {
      await app.close();
    }
  });

  it('when a multipart body is sent to an interface route, then it is still a 415: multipart is parsed on /importar alone', () =>
    withApp(async (app) => {
      const body = await upload([{ name: 'x.csv', bytes: 'nombre\nDrama\n' }]);
      const res = await app.inject({ method: 'POST', url: '/categorias', headers: body.headers, payload: body.payload });
      assert.equal(res.statusCode, 415, res.body);
    }));
});

describe(`GET /exportar.xlsx (${backend})`, () => {
  it('when the catalogue is exported, then the answer is a workbook to download, which imports back as the same catalogue', () =>
    withApp(async (app) => {
      assert.equal((await importar(app, '', [{ name: 'catalogo.xlsx', bytes: fixture('catalogo.xlsx') }])).statusCode, 200);
      const res = await app.inject({ method: 'GET', url: '/exportar.xlsx' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      assert.match(String(res.headers['content-disposition']), /^attachment; filename="cartelera-\d{4}-\d{2}-\d{2}\.xlsx"$/);
      const sheets = await readXlsxFile(res.rawPayload);
      assert.deepEqual(sheets.find((s) => s.sheet === 'Películas')?.data.slice(1).map((row) => row.slice(1, 3)), [
        ['La ciénaga', 'Una familia en Salta, en verano.'],
        ['Relatos salvajes', 'Seis relatos.\nVenganza y humor.'],
      ]);
      await withApp(async (copy) => {
        const back = await importar(copy, '', [{ name: 'exportado.xlsx', bytes: res.rawPayload }]);
        assert.equal(back.statusCode, 200, back.body);
        for (const path of ['/categorias', '/peliculas', '/eventosUrbanos', '/artistas']) {
          assert.equal((await copy.inject({ method: 'GET', url: path })).body, (await app.inject({ method: 'GET', url: path })).body);
        }
      });
    }));
});

describe(`GET /exportar.xlsx, .ods and .csv of one list (${backend})`, () => {
  /** Three movies of two categories, and one in a third: the list's filter and sort pick from them. */
  async function movies(app: FastifyInstance) {
    const drama = await createCategoria(app, { nombre: 'Drama' });
    const comedia = await createCategoria(app, { nombre: 'Comedia' });
    await createPelicula(app, { titulo: 'Zama', duracion: 115, categoria_id: drama.id, sipnosis: 'Un funcionario espera.\r\nY espera.' });
    await createPelicula(app, { titulo: 'Relatos salvajes', duracion: 122, categoria_id: comedia.id });
    await createPelicula(app, { titulo: 'La ciénaga', duracion: 103, categoria_id: drama.id });
    return { drama, comedia };
  }

  it('when a list is exported with its filter and sort, then the workbook holds one sheet with the records GET /peliculas answers, in its order', () =>
    withApp(async (app) => {
      const { drama } = await movies(app);
      const query = `categoria_id=${drama.id}&_sort=titulo&_order=asc`;
      const listed = (await app.inject({ method: 'GET', url: `/peliculas?${query}` })).json<Json[]>();
      const res = await app.inject({ method: 'GET', url: `/exportar.xlsx?recurso=peliculas&${query}` });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-disposition']), /^attachment; filename="cartelera-peliculas-\d{4}-\d{2}-\d{2}\.xlsx"$/);
      const sheets = await readXlsxFile(res.rawPayload);
      assert.deepEqual(sheets.map((s) => s.sheet), ['Películas']);
      assert.deepEqual(sheets[0]?.data, [
        ['Id', 'Título', 'Sinopsis', 'Duración (minutos)', 'Categoría'],
        ...listed.map((p) => [p.id, p.titulo, p.sipnosis, p.duracion, 'Drama']),
      ]);
      assert.deepEqual(listed.map((p) => p.titulo), ['La ciénaga', 'Zama']);
    }));

  it('when a list is exported as CSV, then it is staff\'s CSV: a BOM, ; between cells, CRLF rows, labels, names and the list\'s order', () =>
    withApp(async (app) => {
      await movies(app);
      const res = await app.inject({ method: 'GET', url: '/exportar.csv?recurso=peliculas&q=a&_sort=duracion&_order=desc' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
      assert.match(String(res.headers['content-disposition']), /filename="cartelera-peliculas-\d{4}-\d{2}-\d{2}\.csv"$/);
      const ids = (await app.inject({ method: 'GET', url: '/peliculas?q=a&_sort=duracion&_order=desc' })).json<Json[]>().map((p) => p.id);
      assert.equal(
        res.rawPayload.toString('utf8'),
        '\uFEFFId;Título;Sinopsis;Duración (minutos);Categoría\r\n' +
          `${ids[0]};Relatos salvajes;Una historia.;122;Comedia\r\n` +
          `${ids[1]};Zama;"Un funcionario espera.\r\nY espera.";115;Drama\r\n` +
          `${ids[2]};La ciénaga;Una historia.;103;Drama\r\n`,
      );
    }));

  it('when a list is exported as .ods, then it is an OpenDocument package with the one sheet', () =>
    withApp(async (app) => {
      await movies(app);
      const res = await app.inject({ method: 'GET', url: '/exportar.ods?recurso=peliculas&duracion_gte=110' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/vnd.oasis.opendocument.spreadsheet');
      const parts = unzipSync(res.rawPayload);
      assert.equal(strFromU8(parts.mimetype ?? new Uint8Array()), 'application/vnd.oasis.opendocument.spreadsheet');
      const content = strFromU8(parts['content.xml'] ?? new Uint8Array());
      assert.deepEqual([...content.matchAll(/<table:table table:name="([^"]*)"/g)].map((m) => m[1]), ['Películas']);
      assert.match(content, /<text:p>Zama<\/text:p>/);
      assert.match(content, /<text:p>Relatos salvajes<\/text:p>/);
      assert.doesNotMatch(content, /La ciénaga/);
    }));

  it('when a text holds a control character, which a sheet cannot hold, then .xlsx and .ods are refused naming it, and the CSV carries it', () =>
    withApp(async (app) => {
      const bell = await createCategoria(app, { nombre: 'Cine\u0007club' });
      const details = `categorias ${bell.id}: el campo 'nombre' tiene un carácter de control (U+0007) que una hoja de cálculo no puede guardar: expórtelo como JSON o CSV.`;
      assertError(await app.inject({ method: 'GET', url: '/exportar.xlsx' }), 422, { details });
      assertError(await app.inject({ method: 'GET', url: '/exportar.ods?recurso=categorias' }), 422, { details });
      const csv = await app.inject({ method: 'GET', url: '/exportar.csv?recurso=categorias' });
      assert.equal(csv.body, `\uFEFFId;Nombre\r\n${bell.id};Cine\u0007club\r\n`);
    }));

  it('when recurso names no resource, a CSV names none, or a list parameter is bad, then 400 says which in Spanish', () =>
    withApp(async (app) => {
      const names = 'categorias, peliculas, Obras, eventosUrbanos, artistas, participaciones, lugares, funciones';
      assertError(await app.inject({ method: 'GET', url: '/exportar.xlsx?recurso=libros' }), 400, { details: `No existe el recurso 'libros'; los recursos son: ${names}.` });
      assertError(await app.inject({ method: 'GET', url: '/exportar.ods?recurso=libros' }), 400, { details: /'libros'/ });
      assertError(await app.inject({ method: 'GET', url: '/exportar.csv' }), 400, { details: "El parámetro 'recurso' es obligatorio." });
      assertError(await app.inject({ method: 'GET', url: '/exportar.xlsx?recurso=peliculas&_sort=color' }), 400, { details: /'_sort' nombra un campo que no existe: color/ });
    }));
});
