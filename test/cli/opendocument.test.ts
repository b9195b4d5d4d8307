// LibreOffice's own files (test/fixtures/spreadsheets/README.md says how each was made): its
// default format, .ods, beside .xlsx, and cells as a person types them into LibreOffice Calc.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { zipSync, strToU8 } from 'fflate';
import { harness } from '../harness.js';
import { root } from '../service.js';
import { backend } from '../stores.js';
import { cartelera, everyList } from './cli.js';
import { tempDir } from '../tempDir.js';

const started = harness();
const fixture = (name: string) => join(root, 'test', 'fixtures', 'spreadsheets', name);
const dir = tempDir('cartelera-ods-');

async function lists(url: string) {
  const all = await everyList(url);
  return (name: string) => JSON.parse(all[`/${name}`] ?? '[]') as Record<string, unknown>[];
}

/** An .ods file of one sheet whose content.xml's body is `rows`, zipped as LibreOffice zips one. */
function ods(name: string, sheet: string, rows: string): string {
  const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" office:version="1.3"><office:body><office:spreadsheet><table:table table:name="${sheet}">${rows}</table:table></office:spreadsheet></office:body></office:document-content>`;
  const file = join(dir, name);
  writeFileSync(file, zipSync({ mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }], 'content.xml': strToU8(content) }));
  return file;
}
const text = (...paragraphs: string[]) => `<table:table-cell office:value-type="string">${paragraphs.map((p) => `<text:p>${p}</text:p>`).join('')}</table:table-cell>`;

describe(`importing LibreOffice's .ods and typed cells (${backend})`, () => {
  it('when LibreOffice saved the catalogue as .ods, then the store holds exactly what the same catalogue as .xlsx gives', async () => {
    const fromOds = await started.store();
    const ods = await cartelera(['import', '--create', fixture('catalogo.ods')], fromOds.url);
    assert.equal(ods.code, 0, ods.stderr);
    assert.match(ods.stderr, /categorias: 3 new.*peliculas: 2 new.*eventosUrbanos: 2 new.*artistas: 2 new/);
    const fromXlsx = await started.store();
    assert.equal((await cartelera(['import', '--create', fixture('catalogo.xlsx')], fromXlsx.url)).code, 0);
    const list = await lists(fromOds.url);
    assert.deepEqual(list('peliculas').map((p) => p.sipnosis), ['Una familia en Salta, en verano.', 'Seis relatos.\nVenganza y humor.']);
    assert.deepEqual(list('eventosUrbanos').map((e) => e.fecha), ['2026-11-14T20:30:00.000+00:00', '2026-11-20T00:00:00.000+00:00']);
    assert.deepEqual(await everyList(fromOds.url), await everyList(fromXlsx.url));
  });

  it('when a folder holds an .ods workbook and CSV files, then all of them are imported, references across them included', async () => {
    const { url } = await started.store();
    const folder = mkdtempSync(join(dir, 'carpeta-'));
    copyFileSync(fixture('duracion-tecleada.ods'), join(folder, 'duracion-tecleada.ods'));
    writeFileSync(join(folder, 'Obras.csv'), 'Título;Descripción;Duración (minutos);Categoría\nYerma;Poema trágico.;1:45;Comedia\n');
    const run = await cartelera(['import', '--create', folder], url);
    assert.equal(run.code, 0, run.stderr);
    const list = await lists(url);
    assert.deepEqual(list('peliculas').map((p) => p.duracion), [112, 122]);
    assert.deepEqual(list('Obras').map((o) => [o.titulo, o.duracion, o.categoria_id]), [['Yerma', 105, list('categorias')[1]?.id]]);
  });

  for (const ext of ['xlsx', 'ods']) {
    it(`when 1:52 was typed into a duration in LibreOffice (a time cell, .${ext}), then it is stored as 112 minutes`, async () => {
      const { url } = await started.store();
      const run = await cartelera(['import', '--create', fixture(`duracion-tecleada.${ext}`)], url);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual((await lists(url))('peliculas').map((p) => [p.titulo, p.duracion]), [['La ciénaga', 112], ['Relatos salvajes', 122]]);
    });

    it(`when dates were typed 25/12/26 and 25/12/2026 21:30 under Spanish (Argentina) settings (.${ext}), then they are the 25th of December 2026, whole day and 21:30`, async () => {
      const { url } = await started.store();
      const run = await cartelera(['import', '--create', fixture(`fechas-es-AR.${ext}`)], url);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual((await lists(url))('eventosUrbanos').map((e) => e.fecha), ['2026-12-25T21:30:00.000+00:00', '2026-12-25T00:00:00.000+00:00']);
    });
  }

  it('when a sheet has columns Año and Director, one merged over two rows, and a column painted to the last row, then a check and an import name them once and store the rest', async () => {
    const { url } = await started.store();
    const file = fixture('columnas-de-mas.ods');
    const notice = `${file}, Películas: Se ignoraron las columnas Año y Director.`;
    const check = await cartelera(['import', '--create', '--dry-run', file], url);
    assert.equal(check.code, 0, check.stderr);
    assert.deepEqual(check.stderr.split('\n').filter((l) => l.includes('ignor')), [notice]);
    assert.match(check.stderr, /import \(dry run, nothing stored\): categorias: 3 new, .*peliculas: 2 new/);
    assert.deepEqual((await lists(url))('peliculas'), []);
    const run = await cartelera(['import', file], url);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.stderr.split('\n').filter((l) => l.includes('ignor')), [notice]);
    assert.deepEqual((await lists(url))('peliculas').map(({ titulo, sipnosis, duracion }) => [titulo, sipnosis, duracion]), [
      ['La ciénaga', 'Una familia en Salta, en verano.', 103],
      ['Relatos salvajes', 'Seis relatos.\nVenganza y humor.', 122],
    ]);
  });

  it('when a cell holds several paragraphs, spaces, a tab, a line break and a comment, then its text is stored as the sheet shows it, without the comment', async () => {
    const { url } = await started.store();
    const cell = `<table:table-cell office:value-type="string"><office:annotation><dc:creator>Ana</dc:creator><text:p>revisar</text:p></office:annotation><text:p>Uno<text:s text:c="3"/>dos<text:tab/>tres</text:p><text:p>cuatro<text:line-break/><text:span>cinco</text:span></text:p></table:table-cell>`;
    const file = ods('categorias.ods', 'Categorías', `<table:table-row>${text('Nombre')}</table:table-row><table:table-row>${cell}</table:table-row>`);
    const run = await cartelera(['import', '--create', file], url);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual((await lists(url))('categorias').map((c) => c.nombre), ['Uno   dos\ttres\ncuatro\ncinco']);
  });

  it('when a date and time column holds a time alone (a time cell), then it is a problem quoting it, never a date of 1899', async () => {
    const { url } = await started.store();
    const hora = '<table:table-cell office:value-type="time" office:time-value="PT20H30M00S"><text:p>20:30</text:p></table:table-cell>';
    const header = ['Título', 'Descripción', 'Fecha y hora', 'Lugar', 'Categoría'].map((t) => text(t)).join('');
    const file = ods('eventos.ods', 'Eventos urbanos', `<table:table-row>${header}</table:table-row><table:table-row>${text('Murga')}${text('Tablado.')}${hora}${text('Barrio Sur')}${text('Drama')}</table:table-row>`);
    const run = await cartelera(['import', '--create', '--dry-run', file], url);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr.split('\n').find((l) => l.includes('Fecha y hora:')),
      `${file}, Eventos urbanos, row 2, Fecha y hora: eventosUrbanos.fecha: El campo 'Fecha y hora' tiene una celda de hora (20:30) sin fecha: escriba la fecha y la hora, como 14/11/2026 20:30. Valor recibido: "20:30". Ejemplos: 14/11/2026, 14/11/2026 20:30, 14/11/26 8:30 p. m.`,
    );
  });

  it('when a formula failed (#DIV/0!, which LibreOffice writes as the number 0), then its cell is empty, as in an .xlsx', async () => {
    const { url } = await started.store();
    const failed = '<table:table-cell table:formula="of:=1/0" office:value-type="float" office:value="0" calcext:value-type="error"><text:p>#DIV/0!</text:p></table:table-cell>';
    const file = ods('obras.ods', 'Obras', `<table:table-row>${['Título', 'Descripción', 'Duración (minutos)', 'Categoría'].map((t) => text(t)).join('')}</table:table-row><table:table-row>${text('Yerma')}${text('Poema.')}${failed}${text('Drama')}</table:table-row>`);
    const run = await cartelera(['import', '--create', '--dry-run', file], url);
    assert.equal(run.code, 1);
    assert.deepEqual(run.stderr.split('\n').filter((l) => l.includes(', row ')), [
      `${file}, Obras, row 2, Duración (minutos): Obras.duracion: El campo 'Duración (minutos)' es obligatorio.`,
      `${file}, Obras, row 2, Categoría: Obras.categoria: No existe la categoría con el nombre: Drama. Valor recibido: "Drama".`,
    ]);
  });

  it('when a sheet repeats empty cells and rows past a million, and a filled row three times, then the import reads them without expanding the empty ones and numbers rows as the sheet does', async () => {
    const { url } = await started.store();
    const empty = '<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>';
    const rows = [
      `<table:table-row>${text('Nombre')}<table:table-cell table:number-columns-repeated="16383"/></table:table-row>`,
      empty,
      `<table:table-row table:number-rows-repeated="3">${text('Drama')}<table:table-cell table:number-columns-repeated="16383"/></table:table-row>`,
      `<table:table-row>${text('Comedia')}<table:table-cell table:number-columns-repeated="16383"/></table:table-row>`,
      empty,
    ].join('');
    const file = ods('repetidas.ods', 'Categorías', rows);
    const run = await cartelera(['import', '--create', file], url);
    assert.equal(run.code, 1);
    assert.deepEqual(run.stderr.split('\n').filter((l) => l.includes(', row ')), [
      `${file}, Categorías, row 1048003, Nombre: categorias.nombre: Drama está repetido en la fila 1048002 de este archivo. Valor recibido: "Drama".`,
      `${file}, Categorías, row 1048004, Nombre: categorias.nombre: Drama está repetido en la fila 1048002 de este archivo. Valor recibido: "Drama".`,
    ]);
  });

  it('when a file named .ods is another zip, or no zip at all, then each is a problem of that file, and nothing is stored', async () => {
    const { url } = await started.store();
    const xlsx = join(dir, 'libro.ods');
    writeFileSync(xlsx, zipSync({ 'content.xml': strToU8('<x/>') }));
    const pdf = join(dir, 'informe.ods');
    writeFileSync(pdf, '%PDF-1.7\n');
    const good = ods('bien.ods', 'Categorías', `<table:table-row>${text('Nombre')}</table:table-row><table:table-row>${text('Drama')}</table:table-row>`);
    const run = await cartelera(['import', '--create', good, xlsx, pdf], url);
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`${xlsx}: No es una hoja de cálculo \\.ods válida\\.\\n${pdf}: No es una hoja de cálculo \\.ods válida\\.`));
    assert.deepEqual((await lists(url))('categorias'), []);
  });
});
