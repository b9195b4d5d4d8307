// The staff's round trip with the command line, step by step as docs/data.md tells it ("Ida y
// vuelta"), and the exports it starts from: one resource's CSV, a narrowed export, LibreOffice's .ods.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import readXlsxFile from 'read-excel-file/node';
import { harness } from '../harness.js';
import { root } from '../service.js';
import { backend } from '../stores.js';
import { appOn, cartelera, everyList, withoutInstant } from './cli.js';
import { tempDir } from '../tempDir.js';

const started = harness();
const fixture = (name: string) => join(root, 'test', 'fixtures', 'spreadsheets', name);
const dir = tempDir('cartelera-ida-y-vuelta-');

/** What the fixtures' export was made from: catalogo.xlsx imported, and Relatos salvajes' synopsis given Windows' line ending through the API. */
async function catalogue(): Promise<string> {
  const { url } = await started.store();
  const run = await cartelera(['import', '--create', fixture('catalogo.xlsx')], url);
  assert.equal(run.code, 0, run.stderr);
  const app = await appOn(url);
  try {
    const res = await app.inject({ method: 'PATCH', url: '/peliculas/2', payload: { sipnosis: 'Seis relatos.\r\nVenganza y humor.' } });
    assert.equal(res.statusCode, 200, res.body);
  } finally {
    await app.close();
  }
  return url;
}

/** One such catalogue for the tests that only export it: making one takes a process and an app. */
let readOnly: Promise<string> | undefined;
const catalogueToRead = () => (readOnly ??= catalogue());

async function exported(url: string): Promise<Record<string, Record<string, unknown>[]>> {
  const run = await cartelera(['export'], url);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(withoutInstant(run.stdout)) as Record<string, Record<string, unknown>[]>;
}

async function changes(url: string): Promise<Record<string, unknown>[]> {
  const app = await appOn(url);
  try {
    return (await app.inject({ method: 'GET', url: '/cambios' })).json<Record<string, unknown>[]>();
  } finally {
    await app.close();
  }
}

const sheetsOf = async (file: string) => (await readXlsxFile(readFileSync(file))).map(({ sheet, data }) => ({ sheet, data }));

describe(`Ida y vuelta: export, edit in LibreOffice, import (${backend})`, () => {
  for (const format of ['xlsx', 'ods'] as const) {
    it(`when the steps of docs/data.md are followed with .${format}, then exactly the edited cells change, everything else stays, and the change log holds those changes alone`, async () => {
      const url = await catalogue();
      // 1. Export the catalogue as a workbook: the file ida-y-vuelta-editado was made from.
      const out = join(dir, `catalogo.${format}`);
      const run = await cartelera(['export', '--out', out], url);
      assert.equal(run.code, 0, run.stderr);
      // 2. Edited in LibreOffice: a movie's title and another's duration; saving writes its line breaks as \n.
      const file = fixture(`ida-y-vuelta-editado.${format}`);
      if (format === 'xlsx') {
        // The fixture was saved before venues, showtimes and images had sheets: the export's are empty but for their headers.
        const exportedSheets = await sheetsOf(out);
        assert.deepEqual(exportedSheets.slice(6).map(({ sheet, data }) => [sheet, data.length]), [['Lugares', 1], ['Funciones', 1], ['Imágenes', 1]]);
        const edited = exportedSheets.slice(0, 6).map(({ sheet, data }) => ({
          sheet,
          data: data.map((row, r) => row.map((cell, c) => {
            if (sheet === 'Películas' && r === 1 && c === 1) return 'La ciénaga (2001)';
            if (sheet === 'Películas' && r === 2 && c === 3) return '125';
            return typeof cell === 'string' ? cell.replace(/\r\n/g, '\n') : cell;
          })),
        }));
        assert.deepEqual(await sheetsOf(file), edited);
      }
      const before = await exported(url);
      const logged = (await changes(url)).length;

      // 3. Check, then import with --on-conflict update.
      const check = await cartelera(['import', '--dry-run', '--on-conflict', 'update', file], url);
      assert.equal(check.code, 0, check.stderr);
      assert.match(check.stderr, /peliculas: 0 new, 2 updated, 0 already there; eventosUrbanos: 0 new, 0 updated, 2 already there/);
      assert.deepEqual(await exported(url), before);
      const done = await cartelera(['import', '--on-conflict', 'update', file], url);
      assert.equal(done.code, 0, done.stderr);

      const [cienaga, relatos] = before.peliculas ?? [];
      assert.deepEqual(await exported(url), {
        ...before,
        peliculas: [{ ...cienaga, titulo: 'La ciénaga (2001)' }, { ...relatos, duracion: 125 }],
      });
      assert.equal(relatos?.sipnosis, 'Seis relatos.\r\nVenganza y humor.');
      assert.deepEqual((await changes(url)).slice(logged).map(({ recurso, clave, operacion, campos }) => ({ recurso, clave, operacion, campos })), [
        { recurso: 'peliculas', clave: 1, operacion: 'modificacion', campos: ['titulo'] },
        { recurso: 'peliculas', clave: 2, operacion: 'modificacion', campos: ['duracion'] },
      ]);
    });

    it(`when the .${format} export is saved again by LibreOffice with nothing changed (its \\r\\n now \\n), then importing it changes nothing and logs nothing`, async () => {
      const url = await catalogue();
      const before = await exported(url);
      const logged = await changes(url);
      const run = await cartelera(['import', '--on-conflict', 'update', fixture(`ida-y-vuelta-guardado.${format}`)], url);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /categorias: 0 new, 0 updated, 3 already there; peliculas: 0 new, 0 updated, 2 already there; eventosUrbanos: 0 new, 0 updated, 2 already there; artistas: 0 new, 0 updated, 2 already there/);
      assert.deepEqual(await exported(url), before);
      assert.deepEqual(await changes(url), logged);
    });
  }
});

describe(`exporting one resource, and .ods (${backend})`, () => {
  it('when one resource is exported to a .csv file, then it is staff\'s CSV, and it imports back unchanged, into its store and into an empty one', async () => {
    const url = await catalogue();
    const peliculas = join(dir, 'peliculas.csv');
    const run = await cartelera(['export', '--recurso', 'peliculas', '--out', peliculas], url);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      readFileSync(peliculas, 'utf8'),
      '\uFEFFId;Título;Sinopsis;Duración (minutos);Categoría\r\n' +
        '1;La ciénaga;Una familia en Salta, en verano.;103;Drama\r\n' +
        '2;Relatos salvajes;"Seis relatos.\r\nVenganza y humor.";122;Comedia\r\n',
    );
    const eventos = join(dir, 'eventosUrbanos.csv');
    assert.equal((await cartelera(['export', '--out', eventos], url)).code, 0);
    assert.deepEqual(readFileSync(eventos, 'utf8').split('\r\n').map((line) => line.split(';')[3]), ['Fecha y hora', '14/11/2026 20:30', '20/11/2026', undefined]);

    const back = await cartelera(['import', '--on-conflict', 'update', peliculas, eventos], url);
    assert.equal(back.code, 0, back.stderr);
    assert.match(back.stderr, /peliculas: 0 new, 0 updated, 2 already there; eventosUrbanos: 0 new, 0 updated, 2 already there/);

    const categorias = join(dir, 'categorias.csv');
    assert.equal((await cartelera(['export', '--format', 'csv', '--recurso', 'categorias', '--out', categorias], url)).code, 0);
    const empty = await started.store();
    const restored = await cartelera(['import', '--create', categorias, peliculas, eventos], empty.url);
    assert.equal(restored.code, 0, restored.stderr);
    const [source, copy] = [await everyList(url), await everyList(empty.url)];
    for (const path of ['/categorias', '/peliculas', '/eventosUrbanos']) assert.equal(copy[path], source[path]);
  });

  it('when --recurso narrows an export, then a workbook holds that one sheet, an .ods that one table, and a JSON document that one list', async () => {
    const url = await catalogueToRead();
    const [xlsx, ods, json] = [join(dir, 'uno.xlsx'), join(dir, 'uno.ods'), join(dir, 'uno.json')];
    for (const out of [xlsx, ods, json]) assert.equal((await cartelera(['export', '--recurso', 'eventosUrbanos', '--out', out], url)).code, 0);
    assert.deepEqual((await sheetsOf(xlsx)).map((s) => s.sheet), ['Eventos urbanos']);
    const content = strFromU8(unzipSync(readFileSync(ods))['content.xml'] ?? new Uint8Array());
    assert.deepEqual([...content.matchAll(/<table:table table:name="([^"]*)"/g)].map((m) => m[1]), ['Eventos urbanos']);
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(json, 'utf8')) as object), ['formato', 'version', 'exportado', 'eventosUrbanos']);
    const wrong = await cartelera(['export', '--recurso', 'libros', '--out', json], url);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /--recurso libros names no resource \(categorias, peliculas, Obras, eventosUrbanos, artistas, participaciones, lugares, funciones, imagenes\)/);
  });

  it('when the catalogue is exported as .ods, then it imports back unchanged, and into an empty store as the same catalogue, its line breaks as \\n', async () => {
    const url = await catalogue();
    const out = join(dir, 'vuelta.ods');
    assert.equal((await cartelera(['export', '--out', out], url)).code, 0);
    const back = await cartelera(['import', '--on-conflict', 'update', out], url);
    assert.equal(back.code, 0, back.stderr);
    assert.match(back.stderr, /categorias: 0 new, 0 updated, 3 already there; peliculas: 0 new, 0 updated, 2 already there; eventosUrbanos: 0 new, 0 updated, 2 already there; artistas: 0 new, 0 updated, 2 already there/);
    const empty = await started.store();
    const restored = await cartelera(['import', '--create', out], empty.url);
    assert.equal(restored.code, 0, restored.stderr);
    const source = await exported(url);
    assert.deepEqual(await exported(empty.url), { ...source, peliculas: source.peliculas?.map((p) => ({ ...p, sipnosis: String(p.sipnosis).replace(/\r\n/g, '\n') })) });
  });

  it('when the catalogue is exported as .ods, then it is an OpenDocument package with the workbook\'s sheets, date cells of the wall clock, numbers, and lines as paragraphs', async () => {
    const url = await catalogueToRead();
    const out = join(dir, 'catalogo.ods');
    const run = await cartelera(['export', '--out', out], url);
    assert.equal(run.code, 0, run.stderr);
    const bytes = readFileSync(out);
    // The first part is `mimetype`, stored (method 0), so that its type can be read at byte 38.
    assert.equal(bytes.readUInt32LE(0), 0x04034b50);
    assert.equal(bytes.readUInt16LE(8), 0);
    assert.equal(bytes.subarray(30, 38).toString(), 'mimetype');
    assert.equal(bytes.subarray(38, 84).toString(), 'application/vnd.oasis.opendocument.spreadsheet');
    const parts = unzipSync(bytes);
    assert.deepEqual(Object.keys(parts), ['mimetype', 'META-INF/manifest.xml', 'content.xml', 'styles.xml']);
    const content = strFromU8(parts['content.xml'] ?? new Uint8Array());
    assert.deepEqual([...content.matchAll(/<table:table table:name="([^"]*)"/g)].map((m) => m[1]), ['Categorías', 'Películas', 'Obras', 'Eventos urbanos', 'Artistas', 'Participaciones', 'Lugares', 'Funciones', 'Imágenes']);
    assert.ok(content.includes('<table:table-cell table:style-name="datetime" office:value-type="date" office:date-value="2026-11-14T20:30:00"><text:p>14/11/2026 20:30</text:p></table:table-cell>'));
    assert.ok(content.includes('<table:table-cell table:style-name="date" office:value-type="date" office:date-value="2026-11-20"><text:p>20/11/2026</text:p></table:table-cell>'));
    assert.ok(content.includes('<number:date-style style:name="n-datetime"><number:day number:style="long"/><number:text>/</number:text><number:month number:style="long"/><number:text>/</number:text><number:year number:style="long"/><number:text> </number:text><number:hours number:style="long"/><number:text>:</number:text><number:minutes number:style="long"/></number:date-style>'));
    assert.ok(content.includes('<table:table-cell office:value-type="float" office:value="122"><text:p>122</text:p></table:table-cell>'));
    assert.ok(content.includes('<table:table-cell office:value-type="string"><text:p>Seis relatos.</text:p><text:p>Venganza y humor.</text:p></table:table-cell>'));
  });
});
