// Files a spreadsheet program wrote (LibreOffice Calc: test/fixtures/spreadsheets/README.md says
// how), imported and exported with `cartelera`: what a cell says is what is stored, or the import
// says exactly why not.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import readXlsxFile from 'read-excel-file/node';
import writeXlsxFile from 'write-excel-file/node';
import { harness } from '../harness.js';
import { root } from '../service.js';
import { backend } from '../stores.js';
import { cartelera, everyList } from './cli.js';
import { tempDir } from '../tempDir.js';

const started = harness();
const fixtures = join(root, 'test', 'fixtures', 'spreadsheets');
const fixture = (name: string) => join(fixtures, name);
const dir = tempDir('cartelera-libros-');

async function lists(url: string) {
  const all = await everyList(url);
  return (name: string) => JSON.parse(all[`/${name}`] ?? '[]') as Record<string, unknown>[];
}

describe(`importing and exporting workbooks (${backend})`, () => {
  it('when LibreOffice wrote the workbook, then numbers, date cells, multi-line cells and names by label are stored as the sheet shows them', async () => {
    const { url } = await started.store();
    const run = await cartelera(['import', '--create', fixture('catalogo.xlsx')], url);
    assert.equal(run.code, 0, run.stderr);
    const list = await lists(url);
    const drama = list('categorias').find((c) => c.nombre === 'Drama')?.id;
    assert.deepEqual(list('categorias').map((c) => c.nombre), ['Drama', 'Comedia', 'Música']);
    assert.deepEqual(list('peliculas').map(({ titulo, sipnosis, duracion }) => ({ titulo, sipnosis, duracion })), [
      { titulo: 'La ciénaga', sipnosis: 'Una familia en Salta, en verano.', duracion: 103 },
      { titulo: 'Relatos salvajes', sipnosis: 'Seis relatos.\nVenganza y humor.', duracion: 122 },
    ]);
    assert.deepEqual(list('eventosUrbanos').map(({ titulo, fecha, lugar, categoria_id }) => ({ titulo, fecha, lugar, categoria_id })), [
      { titulo: 'Noche de los museos', fecha: '2026-11-14T20:30:00.000+00:00', lugar: 'Museos de la ciudad', categoria_id: list('categorias')[2]?.id },
      { titulo: 'Feria del libro', fecha: '2026-11-20T00:00:00.000+00:00', lugar: 'Centro cultural', categoria_id: drama },
    ]);
    assert.deepEqual(list('artistas').map((a) => [a.dni, a.apellido, a.descripcion]), [
      [27444555, 'Darín', 'Actor de cine y teatro.'],
      [30111222, 'Sosa', 'Cantante argentina, la voz de América Latina.'],
    ]);
  });

  it('when a row has a bad cell, then the problem names the file, the sheet, the row, the value and an example, and nothing is stored', async () => {
    const { url } = await started.store();
    const run = await cartelera(['import', '--create', fixture('catalogo-con-error.xlsx')], url);
    assert.equal(run.code, 1);
    assert.deepEqual(run.stderr.split('\n').filter((l) => l.includes(', row ')), [
      `${fixture('catalogo-con-error.xlsx')}, Películas, row 3, Duración (minutos): peliculas.duracion: El campo 'Duración (minutos)' debe ser un número entero. Valor recibido: "dos horas". Ejemplos: 95, 1:35, 1h35.`,
    ]);
    assert.deepEqual((await lists(url))('categorias'), []);
  });

  it('when the workbook is exported, edited in LibreOffice and imported with --on-conflict update, then only the edited cells change', async () => {
    const { url } = await started.store();
    assert.equal((await cartelera(['import', '--create', fixture('catalogo.xlsx')], url)).code, 0);
    const before = await lists(url);
    const run = await cartelera(['import', '--on-conflict', 'update', fixture('ida-y-vuelta.xlsx')], url);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /eventosUrbanos: 0 new, 1 updated, 1 already there; artistas: 0 new, 1 updated, 1 already there/);
    const after = await lists(url);
    for (const name of ['categorias', 'peliculas']) assert.deepEqual(after(name), before(name));
    assert.deepEqual(after('eventosUrbanos'), before('eventosUrbanos').map((e) => (e.titulo === 'Feria del libro' ? { ...e, fecha: '2026-11-21T10:00:00.000+00:00' } : e)));
    assert.deepEqual(
      after('artistas'),
      before('artistas').map((a) => (a.dni === 30111222 ? { ...a, descripcion: 'Cantante argentina, la voz de América Latina; nacida en Tucumán.' } : a)),
    );
  });

  it('when the catalogue is exported as a workbook, then each resource is a sheet with the admin\'s labels, dates are date cells of the wall clock in any time zone, and importing it gives the same catalogue', async () => {
    const { url } = await started.store();
    assert.equal((await cartelera(['import', '--create', fixture('catalogo.xlsx')], url)).code, 0);
    const out = join(dir, 'exportado.xlsx');
    const run = await cartelera(['export', '--out', out], url, { TZ: 'America/Argentina/Buenos_Aires' });
    assert.equal(run.code, 0, run.stderr);
    const sheets = await readXlsxFile(readFileSync(out));
    assert.deepEqual(sheets.map((s) => s.sheet), ['Categorías', 'Películas', 'Obras', 'Eventos urbanos', 'Artistas', 'Participaciones', 'Lugares', 'Funciones', 'Imágenes']);
    const eventos = sheets.find((s) => s.sheet === 'Eventos urbanos')?.data ?? [];
    assert.deepEqual(eventos[0], ['Id', 'Título', 'Descripción', 'Fecha y hora', 'Lugar', 'Categoría']);
    assert.deepEqual(eventos.slice(1).map((row) => [row[3], row[5]]), [
      [new Date('2026-11-14T20:30:00Z'), 'Música'],
      [new Date('2026-11-20T00:00:00Z'), 'Drama'],
    ]);
    const copy = await started.store();
    const back = await cartelera(['import', '--create', out], copy.url, { TZ: 'Asia/Tokyo' });
    assert.equal(back.code, 0, back.stderr);
    assert.deepEqual(await everyList(copy.url), await everyList(url));
  });

  it('when a date cell stands where no date belongs, or a sheet names no resource, then each is a problem, and nothing is stored', async () => {
    const { url } = await started.store();
    const file = join(dir, 'fechas.xlsx');
    await writeXlsxFile([
      { sheet: 'Categorías', data: [['Nombre'], [{ value: new Date('2026-05-01T00:00:00Z'), type: Date, format: 'dd/mm/yyyy' }]] },
      { sheet: 'Borrador', data: [['Notas'], ['llamar a la sala']] },
    ]).toFile(file);
    const run = await cartelera(['import', '--create', file], url);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /fechas\.xlsx, Borrador: No se reconoce la hoja 'Borrador'; cada hoja lleva el nombre de un recurso: Categorías \(categorias\), Películas \(peliculas\)/);
    assert.match(run.stderr, /fechas\.xlsx, Categorías, row 2, Nombre: categorias\.nombre: El campo 'Nombre' tiene una celda de fecha \(01\/05\/2026\) y no es una fecha: si es un texto, escríbalo como texto en la hoja\. Valor recibido: "01\/05\/2026"\./);
    assert.deepEqual((await lists(url))('categorias'), []);
  });

  it('when a file only looks like a workbook, then the import reports it as a problem of that file, with exit 1', async () => {
    const { url } = await started.store();
    const file = join(dir, 'roto.xlsx');
    writeFileSync(file, 'titulo;duracion\nRoma;135\n');
    const run = await cartelera(['import', '--create', file], url);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /roto\.xlsx: No es un libro \.xlsx válido\./);
  });

  it('when a JSON document has a bad record, then its place counts from 1 within its list', async () => {
    const { url } = await started.store();
    const file = join(dir, 'doc.json');
    writeFileSync(file, JSON.stringify({ formato: 'cartelera', version: 1, categorias: [{ nombre: 'Drama' }, { nombre: '' }] }));
    const run = await cartelera(['import', '--create', file], url);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /doc\.json, categorias #2: categorias\.nombre: /);
  });

  it('when a record carries a field its resource does not have, then the import says so instead of dropping it', async () => {
    const { url } = await started.store();
    const file = join(dir, 'extra.json');
    writeFileSync(file, JSON.stringify({ formato: 'cartelera', version: 1, categorias: [{ nombre: 'Drama', color: 'rojo' }] }));
    const run = await cartelera(['import', '--create', file], url);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /extra\.json, categorias #1: categorias\.color: El campo 'color' no existe aquí; los campos son: id, nombre\./);
  });
});

describe(`importing the spreadsheet program's CSV (${backend})`, () => {
  it('when LibreOffice saved ;-separated UTF-8 with a BOM, then headers by label, a comma in the last column and a multi-line cell are stored whole', async () => {
    const { url } = await started.store();
    const run = await cartelera(['import', '--create', fixture('utf8-bom')], url);
    assert.equal(run.code, 0, run.stderr);
    const list = await lists(url);
    assert.deepEqual(list('peliculas').map((p) => p.sipnosis), ['Una familia en Salta, en verano.', 'Seis relatos.\nVenganza y humor.']);
    assert.equal(list('artistas').find((a) => a.dni === 30111222)?.descripcion, 'Cantante argentina, la voz de América Latina.');
    assert.deepEqual(list('categorias').map((c) => c.nombre), ['Drama', 'Comedia', 'Música']);
  });

  it('when LibreOffice saved Windows-1252, then accents are stored as written, and a title also in another file names that file and row', async () => {
    const { url } = await started.store();
    const run = await cartelera(['import', '--create', fixture('windows-1252')], url);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /peliculas\.csv: No está en UTF-8: se leyó como Windows-1252/);
    assert.deepEqual((await lists(url))('peliculas').map((p) => p.titulo), ['La ciénaga', 'Relatos salvajes']);

    const both = await started.store();
    const twice = await cartelera(['import', '--create', fixture('utf8-bom'), fixture('windows-1252/peliculas.csv')], both.url);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, new RegExp(`windows-1252/peliculas\\.csv, row 2, Título: peliculas\\.titulo: La ciénaga ya viene en ${fixture('utf8-bom/peliculas.csv').replace(/[.]/g, '\\.')}, fila 2\\.`));
  });
});
