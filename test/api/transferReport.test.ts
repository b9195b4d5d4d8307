// POST /importar's report: LibreOffice's .ods beside .xlsx, columns as the sheet names them,
// ignored columns, and a CSV file's syntax in Spanish, as the admin's Comprobar and Importar show them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { withApp, type Json } from '../helpers.js';
import { root } from '../service.js';
import { backend } from '../stores.js';

const fixture = (name: string) => readFileSync(join(root, 'test', 'fixtures', 'spreadsheets', name));

async function importar(app: FastifyInstance, query: string, files: { name: string; bytes: Buffer | string }[]) {
  const form = new FormData();
  for (const f of files) form.append('archivo', new Blob([f.bytes]), f.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const headers = { 'content-type': request.headers.get('content-type') ?? '' };
  return app.inject({ method: 'POST', url: `/importar${query}`, headers, payload: Buffer.from(await request.arrayBuffer()) });
}

const list = async (app: FastifyInstance, path: string) => (await app.inject({ method: 'GET', url: path })).json<Json[]>();

describe(`POST /importar, the report (${backend})`, () => {
  it('when LibreOffice\'s .ods is checked and then imported, then the report counts what it holds and the store holds it', () =>
    withApp(async (app) => {
      const files = [{ name: 'catalogo.ods', bytes: fixture('catalogo.ods') }];
      const check = await importar(app, '?comprobar=true', files);
      assert.equal(check.statusCode, 200, check.body);
      assert.deepEqual(check.json<Json>().recuentos, {
        categorias: { nuevos: 3, actualizados: 0, sin_cambios: 0 },
        peliculas: { nuevos: 2, actualizados: 0, sin_cambios: 0 },
        eventosUrbanos: { nuevos: 2, actualizados: 0, sin_cambios: 0 },
        artistas: { nuevos: 2, actualizados: 0, sin_cambios: 0 },
      });
      assert.deepEqual(await list(app, '/peliculas'), []);
      const run = await importar(app, '', files);
      assert.equal(run.statusCode, 200, run.body);
      assert.equal(run.json<Json>().guardado, true);
      assert.deepEqual((await list(app, '/eventosUrbanos')).map((e) => e.fecha), ['2026-11-14T20:30:00.000+00:00', '2026-11-20T00:00:00.000+00:00']);
    }));

  it('when a sheet has columns no field has, then Comprobar and Importar name them once, by sheet, and store the rest', () =>
    withApp(async (app) => {
      const files = [{ name: 'columnas-de-mas.ods', bytes: fixture('columnas-de-mas.ods') }];
      const aviso = { archivo: 'columnas-de-mas.ods', hoja: 'Películas', aviso: 'Se ignoraron las columnas Año y Director.' };
      const check = await importar(app, '?comprobar=true', files);
      assert.equal(check.statusCode, 200, check.body);
      assert.deepEqual(check.json<Json>().avisos, [aviso]);
      const run = await importar(app, '', files);
      assert.equal(run.statusCode, 200, run.body);
      assert.deepEqual(run.json<Json>().avisos, [aviso]);
      assert.deepEqual((await list(app, '/peliculas')).map((p) => [p.titulo, p.duracion]), [['La ciénaga', 103], ['Relatos salvajes', 122]]);
    }));

  it('when rows have bad cells and a column is missing, then each problem carries the column as the sheet names it, and a sentence that uses it', () =>
    withApp(async (app) => {
      const res = await importar(app, '?comprobar=true', [
        { name: 'categorias.csv', bytes: 'Nombre\nDrama\n' },
        { name: 'peliculas.csv', bytes: 'Título;Sinopsis;Duración (minutos);Categoría\nRoma;;dos horas;Drama\n' },
        { name: 'Obras.csv', bytes: 'Título;Descripción;Categoría\nYerma;Poema trágico.;Drama\nLa Celestina;Tragicomedia.;Drama\n' },
      ]);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json<Json>().problemas, [
        { archivo: 'peliculas.csv', fila: 2, recurso: 'peliculas', campo: 'sipnosis', columna: 'Sinopsis', frase: "El campo 'Sinopsis' es obligatorio." },
        {
          archivo: 'peliculas.csv',
          fila: 2,
          recurso: 'peliculas',
          campo: 'duracion',
          columna: 'Duración (minutos)',
          valor: 'dos horas',
          frase: "El campo 'Duración (minutos)' debe ser un número entero. Ejemplos: 95, 1:35, 1h35.",
        },
        {
          archivo: 'Obras.csv',
          fila: 1,
          campo: 'duracion',
          columna: 'Duración (minutos)',
          frase: 'Falta la columna Duración (minutos), que es obligatoria: ninguna fila se puede importar sin ella.',
        },
      ]);
    }));

  it('when a CSV file has a quote left open, then Importar answers 400 with the report, in Spanish, at the sheet\'s row', () =>
    withApp(async (app) => {
      const res = await importar(app, '', [{ name: 'categorias.csv', bytes: 'Nombre\nDrama\n"Comedia\nMúsica\n' }]);
      assert.equal(res.statusCode, 400, res.body);
      const body = res.json<Json>();
      assert.equal(body.details, 'La importación tiene 1 problema; no se guardó nada.');
      assert.deepEqual(body.problemas, [
        {
          archivo: 'categorias.csv',
          fila: 3,
          columna: 'Nombre',
          frase: 'La fila 3 (columna Nombre) tiene comillas sin cerrar: una celda empieza con comillas y el archivo termina antes de que se cierren.',
        },
      ]);
      assert.deepEqual(await list(app, '/categorias'), []);
    }));

  it('when an import has more than 1,000 problems, then the report lists the first 1,000 and counts the rest', () =>
    withApp(async (app) => {
      const rows = Array.from({ length: 1002 }, (_, i) => `${i}${'x'.repeat(255)}`).join('\n');
      const res = await importar(app, '', [{ name: 'categorias.csv', bytes: `Nombre\n${rows}\n` }]);
      assert.equal(res.statusCode, 400, res.body);
      const body = res.json<Json>();
      assert.equal(body.details, 'La importación tiene 1002 problemas; no se guardó nada.');
      assert.equal((body.problemas as Json[]).length, 1000);
      assert.equal(body.problemas_sin_listar, 2);
    }));
});
