// What `cartelera import` makes of cells as people type them, and the report it gives: every
// problem of every row in one pass, each naming its column as the sheet does.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { harness } from '../harness.js';
import { backend } from '../stores.js';
import { cartelera, everyList } from './cli.js';
import { tempDir } from '../tempDir.js';

const started = harness();
const dir = tempDir('cartelera-informe-');

/** Imports these CSV files, written to a folder of their own: the run, its problem lines and the lists after. */
async function importInto(files: Record<string, string>, ...options: string[]) {
  const { url } = await started.store();
  const folder = mkdtempSync(join(dir, 'hoja-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  const run = await cartelera(['import', '--create', ...options, ...Object.keys(files).map((name) => join(folder, name))], url);
  const lists = await everyList(url);
  const list = (name: string) => JSON.parse(lists[`/${name}`] ?? '[]') as Record<string, unknown>[];
  const lines = run.stderr.split('\n').filter((l) => l.startsWith(folder)).map((l) => l.slice(folder.length + 1));
  return { run, list, lines };
}
const CATEGORIAS = 'Nombre\nDrama\n';

describe(`import: cells as typed, and the report (${backend})`, () => {
  it('when durations are typed 1:52, 1h52, 1 h 52 min, 112 min or 2 horas, then each is its minutes', async () => {
    const obras = ['1:52', '1h52', '1 h 52 min', '112 min', '2 horas', '1 hora 5 minutos'].map((d, i) => `Obra ${i};Texto.;${d};Drama`).join('\n');
    const { run, list } = await importInto({ 'categorias.csv': CATEGORIAS, 'Obras.csv': `Título;Descripción;Duración (minutos);Categoría\n${obras}\n` });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(list('Obras').map((o) => o.duracion), [112, 112, 112, 112, 120, 65]);
  });

  it('when dates are typed 25/12/26, 25-12-2026, 25.12.2026 or with a. m./p. m., then each is the wall clock meant', async () => {
    const fechas = ['25/12/26', '25-12-2026', '25.12.2026', '25/12/2026 9:30 p. m.', '25/12/2026 12:15 a. m.', '25/12/2026 12:00 p.m.', '25/12/2026 9:30am', '25/12/26 21:30']
      .map((f, i) => `Evento ${i};Texto.;${f};Plaza;Drama`)
      .join('\n');
    const { run, list } = await importInto({ 'categorias.csv': CATEGORIAS, 'eventosUrbanos.csv': `Título;Descripción;Fecha y hora;Lugar;Categoría\n${fechas}\n` });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(list('eventosUrbanos').map((e) => (e.fecha as string).slice(0, 16)), [
      '2026-12-25T00:00', '2026-12-25T00:00', '2026-12-25T00:00', '2026-12-25T21:30', '2026-12-25T00:15', '2026-12-25T12:00', '2026-12-25T09:30', '2026-12-25T21:30',
    ]);
  });

  it('when a date is impossible or an hour does not fit its p. m., then the problem quotes the cell and names its column', async () => {
    const { run, lines, list } = await importInto({
      'categorias.csv': CATEGORIAS,
      'eventosUrbanos.csv': 'Título;Descripción;Fecha y hora;Lugar;Categoría\nFeria;Libros.;30/02/26;La Rural;Drama\nMurga;Tablado.;25/12/2026 13:00 p. m.;Barrio Sur;Drama\n',
    });
    assert.equal(run.code, 1);
    const sentence = "eventosUrbanos.fecha: El campo 'Fecha y hora' debe ser una fecha válida (AAAA-MM-DD o fecha y hora ISO 8601).";
    const examples = 'Ejemplos: 14/11/2026, 14/11/2026 20:30, 14/11/26 8:30 p. m.';
    assert.deepEqual(lines, [
      `eventosUrbanos.csv, row 2, Fecha y hora: ${sentence} Valor recibido: "30/02/26". ${examples}`,
      `eventosUrbanos.csv, row 3, Fecha y hora: ${sentence} Valor recibido: "25/12/2026 13:00 p. m.". ${examples}`,
    ]);
    assert.deepEqual(list('eventosUrbanos'), []);
  });

  it('when a row has several bad cells, then each is reported in one pass, with its column as the sheet names it and its value', async () => {
    const { run, lines } = await importInto({
      'categorias.csv': CATEGORIAS,
      'peliculas.csv': `Título;Sinopsis;Duración (minutos);Categoría\n;${'x'.repeat(5001)};dos horas;Drama\nZama;Un funcionario.;115;Nada\n`,
    });
    assert.equal(run.code, 1);
    assert.deepEqual(lines, [
      "peliculas.csv, row 2, Título: peliculas.titulo: El campo 'Título' es obligatorio.",
      `peliculas.csv, row 2, Sinopsis: peliculas.sipnosis: El campo 'Sinopsis' no puede tener más de 5000 caracteres. Valor recibido: "${'x'.repeat(5001)}".`,
      `peliculas.csv, row 2, Duración (minutos): peliculas.duracion: El campo 'Duración (minutos)' debe ser un número entero. Valor recibido: "dos horas". Ejemplos: 95, 1:35, 1h35.`,
      'peliculas.csv, row 3, Categoría: peliculas.categoria: No existe la categoría con el nombre: Nada. Valor recibido: "Nada".',
    ]);
  });

  it('when a column has no title but holds values, then it is ignored and named by its letter, never dropped unsaid', async () => {
    const { run, list } = await importInto({ 'categorias.csv': 'Nombre;;\nDrama;rojo;\nComedia;;\n' });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(list('categorias').map((c) => c.nombre), ['Drama', 'Comedia']);
    assert.match(run.stderr, /categorias\.csv: Se ignoró la columna sin título \(B\)\.\n/);
  });

  it('when a required column is missing from the header, then it is one problem for the sheet, not one a row', async () => {
    const { run, lines } = await importInto({
      'categorias.csv': CATEGORIAS,
      'peliculas.csv': 'Título;Sinopsis;Categoría\nRoma;Cleo.;Drama\nZama;Un funcionario.;Drama\nNueve reinas;Estafadores.;Drama\n',
    });
    assert.equal(run.code, 1);
    assert.deepEqual(lines, ['peliculas.csv, row 1, Duración (minutos): duracion: Falta la columna Duración (minutos), que es obligatoria: ninguna fila se puede importar sin ella.']);
    assert.match(run.stderr, /import: 1 problem; nothing stored/);
  });

  it('when a CSV file has a quote left open or text after a closing quote, then the problem is a Spanish sentence naming the sheet row and column', async () => {
    const open = await importInto({ 'categorias.csv': CATEGORIAS, 'peliculas.csv': 'Título;Sinopsis;Duración (minutos);Categoría\nRoma;"Cleo.\nMéxico.";135;Drama\nZama;Un funcionario.;115;Drama\nNueve reinas;"Estafadores.;114;Drama\n' });
    assert.equal(open.run.code, 1);
    assert.deepEqual(open.lines, [
      'peliculas.csv, row 4, Sinopsis: La fila 4 (columna Sinopsis) tiene comillas sin cerrar: una celda empieza con comillas y el archivo termina antes de que se cierren.',
    ]);
    const after = await importInto({ 'categorias.csv': 'Nombre\nDrama\n"Comedia" negra\n' });
    assert.equal(after.run.code, 1);
    assert.deepEqual(after.lines, [
      'categorias.csv, row 3, Nombre: La fila 3 (columna Nombre) tiene texto después de las comillas que cierran una celda: encierre la celda entera entre comillas y duplique las de adentro ("").',
    ]);
    const inside = await importInto({ 'categorias.csv': 'Nombre\nDrama\nLa "nueva" ola\n' });
    assert.match(inside.lines.join('\n'), /^categorias\.csv, row 3, Nombre: La fila 3 \(columna Nombre\) tiene comillas en medio de una celda que no empieza con comillas/);
  });

  it('when a file is empty, or a PDF named .xlsx, then each is a problem of that file beside the rows\' problems, and nothing is stored', async () => {
    const { run, lines, list } = await importInto({ 'categorias.csv': CATEGORIAS, 'peliculas.csv': '', 'catalogo.xlsx': '%PDF-1.7\n%âãÏÓ\n' });
    assert.equal(run.code, 1);
    assert.deepEqual(lines, ['peliculas.csv: El archivo está vacío.', 'catalogo.xlsx: No es un libro .xlsx válido.']);
    assert.deepEqual(list('categorias'), []);
  });

  it('when there are more than 1,000 problems, then the first 1,000 are listed and the rest counted', async () => {
    const rows = Array.from({ length: 1003 }, (_, i) => `${i}${'x'.repeat(255)}`).join('\n');
    const { run, lines } = await importInto({ 'categorias.csv': `Nombre\n${rows}\n` });
    assert.equal(run.code, 1);
    assert.equal(lines.length, 1000);
    assert.match(lines[999] ?? '', /^categorias\.csv, row 1001, Nombre: categorias\.nombre: El campo 'Nombre' no puede tener más de 255 caracteres\./);
    assert.match(run.stderr, /\nY 3 problemas más, que no se listan\.\n/);
    assert.match(run.stderr, /import: 1003 problems; nothing stored/);
  });
});
