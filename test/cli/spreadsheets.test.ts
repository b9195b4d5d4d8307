// CSV files as spreadsheet programs save them (Excel, LibreOffice, in Spanish locales), imported
// with `cartelera import`: what a cell says is what is stored, or the import says exactly why not.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { harness } from '../harness.js';
import { backend } from '../stores.js';
import { cartelera, everyList } from './cli.js';
import { tempDir } from '../tempDir.js';

const started = harness();
const dir = tempDir('cartelera-hojas-');

/** A folder holding these files, each written as the given bytes or UTF-8 text. */
function folder(files: Record<string, string | Buffer>): string {
  const made = mkdtempSync(join(dir, 'hoja-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(made, name), content);
  return made;
}
async function importInto(files: Record<string, string | Buffer>, ...options: string[]) {
  const { url } = await started.store();
  const path = folder(files);
  const run = await cartelera(['import', '--create', ...options, path], url);
  const lists = await everyList(url);
  const list = (name: string) => JSON.parse(lists[`/${name}`] ?? '[]') as Record<string, unknown>[];
  return { run, path, list, problems: run.stderr.split('\n').filter((l) => l.includes(', row ')) };
}
const CATEGORIAS = 'nombre\r\nDrama\r\n';

describe(`importing spreadsheets' CSV (${backend})`, () => {
  it('when a ;-separated file has an unquoted comma in its last column, then the text is stored whole', async () => {
    const { run, list } = await importInto({
      'artistas.csv': 'dni;nombre;apellido;tipo;descripcion\r\n30111222;Mercedes;Sosa;cantante;Cantante argentina, la voz de América Latina.\r\n',
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(list('artistas')[0]?.descripcion, 'Cantante argentina, la voz de América Latina.');
  });

  it('when a row has more cells than the header, then it is a problem naming the row and the counts, and nothing is stored', async () => {
    const { run, problems, path, list } = await importInto({
      'categorias.csv': CATEGORIAS,
      'peliculas.csv': 'titulo,sipnosis,duracion,categoria\r\nRoma,Cleo, en la colonia Roma,135,Drama\r\n',
    });
    assert.equal(run.code, 1);
    assert.deepEqual(problems, [
      `${join(path, 'peliculas.csv')}, row 2: La fila 2 tiene 5 celdas y la cabecera 4 columnas: revise si un texto con el separador quedó sin comillas.`,
    ]);
    assert.deepEqual(list('categorias'), []);
  });

  it('when a file is Windows-1252 (Excel\'s plain "CSV"), then its accents are stored as written and the report says how it was read', async () => {
    const { run, list } = await importInto({
      'categorias.csv': Buffer.from('nombre\r\nDrama\r\n', 'latin1'),
      'peliculas.csv': Buffer.from('titulo;sipnosis;duracion;categoria\r\nLa ciénaga;Una familia en Salta, en verano.;103;Drama\r\n', 'latin1'),
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(list('peliculas')[0]?.titulo, 'La ciénaga');
    assert.match(run.stderr, /peliculas\.csv: No está en UTF-8: se leyó como Windows-1252, como Excel guarda "CSV"\./);
  });

  it('when --encoding utf-8 is given and a file is not UTF-8, then the import refuses it as a problem of that file and stores nothing', async () => {
    const { run, list } = await importInto({ 'categorias.csv': Buffer.from('nombre\r\nCanción\r\n', 'latin1') }, '--encoding', 'utf-8');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /categorias\.csv: No está en UTF-8, como pide --encoding utf-8: guárdelo como "CSV UTF-8", o no indique --encoding para leerlo como Windows-1252\./);
    assert.deepEqual(list('categorias'), []);
  });

  it('when headers are the admin\'s Spanish labels, and cells hold dates and durations as spreadsheets write them, then they are stored as meant', async () => {
    const { run, list } = await importInto({
      'categorias.csv': '\uFEFFNombre\r\nCarnaval\r\n',
      'Obras.csv': 'Título;Descripción;Duración (minutos);Categoría\r\nLa Celestina;Tragicomedia.;120 min;Carnaval\r\nYerma;Poema trágico.;1:45;Carnaval\r\nBodas de sangre;Tragedia.; 95 ;Carnaval\r\n',
      'eventosUrbanos.csv': 'TITULO;descripcion;Fecha y hora;lugar;categoria\r\nLlamadas;Tambores.;14/11/2026;Barrio Sur;Carnaval\r\nMurga;Murgas.;14/11/2026 20:30;Tablado;Carnaval\r\nCorso;Desfile.;2026-11-15 21:00;18 de Julio;Carnaval\r\n',
    });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(list('Obras').map((o) => o.duracion), [120, 105, 95]);
    assert.deepEqual(list('eventosUrbanos').map((e) => e.fecha), [
      '2026-11-14T00:00:00.000+00:00', '2026-11-14T20:30:00.000+00:00', '2026-11-15T21:00:00.000+00:00',
    ]);
  });

  it('when headers name no field, then those columns are ignored and named once, as the sheet writes them, and the rest is stored', async () => {
    const { run, list, path } = await importInto({ 'categorias.csv': 'Nombre;Color;Notas\r\nDrama;rojo;x\r\nComedia;azul;y\r\n' });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(list('categorias').map((c) => c.nombre), ['Drama', 'Comedia']);
    assert.deepEqual(run.stderr.split('\n').filter((l) => l.includes('ignor')), [`${join(path, 'categorias.csv')}: Se ignoraron las columnas Color y Notas.`]);
  });

  it('when rows are empty (;;;), or a cell spans lines, then empty rows are skipped and problems name the spreadsheet\'s row', async () => {
    const { run, problems, path } = await importInto({
      'categorias.csv': CATEGORIAS,
      'peliculas.csv':
        'titulo;sipnosis;duracion;categoria\r\n"Roma";"Cleo.\r\nMéxico, 1970.\r\nUna familia.";135;Drama\r\n;;;\r\n;;;\r\nRelatos salvajes;Seis relatos.;;Drama\r\nEl secreto de sus ojos;Un crimen.;31/02/2026;Drama\r\n',
    });
    assert.equal(run.code, 1);
    const file = join(path, 'peliculas.csv');
    assert.deepEqual(problems, [
      `${file}, row 5, duracion: peliculas.duracion: El campo 'duracion' es obligatorio.`,
      `${file}, row 6, duracion: peliculas.duracion: El campo 'duracion' debe ser un número entero. Valor recibido: "31/02/2026". Ejemplos: 95, 1:35, 1h35.`,
    ]);
  });

  it('when a date cannot be a date, then the problem quotes it and gives examples', async () => {
    const { run, problems, path } = await importInto({
      'categorias.csv': CATEGORIAS,
      'eventosUrbanos.csv': 'titulo;descripcion;fecha;lugar;categoria\r\nFeria;Libros.;31/02/2026;La Rural;Drama\r\n',
    });
    assert.equal(run.code, 1);
    assert.deepEqual(problems, [
      `${join(path, 'eventosUrbanos.csv')}, row 2, fecha: eventosUrbanos.fecha: El campo 'fecha' debe ser una fecha válida (AAAA-MM-DD o fecha y hora ISO 8601). Valor recibido: "31/02/2026". Ejemplos: 14/11/2026, 14/11/2026 20:30, 14/11/26 8:30 p. m.`,
    ]);
  });

  it('when a title comes twice in a file, then the problem names the row it first came in, not "Ya existe"', async () => {
    const { run, problems, path } = await importInto({
      'categorias.csv': CATEGORIAS,
      'peliculas.csv': 'titulo;sipnosis;duracion;categoria\r\nRoma;Cleo.;135;Drama\r\nZama;Un funcionario.;115;Drama\r\nroma ;Otra vez.;135;Drama\r\n',
    });
    assert.equal(run.code, 1);
    assert.deepEqual(problems, [`${join(path, 'peliculas.csv')}, row 4, titulo: peliculas.titulo: roma está repetido en la fila 2 de este archivo. Valor recibido: "roma ".`]);
  });
});
