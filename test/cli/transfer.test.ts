import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startService } from '../service.js';
import { harness } from '../harness.js';
import { backend } from '../stores.js';
import { appOn, cartelera, everyList, withoutInstant } from './cli.js';
import { tempDir } from '../tempDir.js';

const dir = tempDir('cartelera-cli-');
const started = harness();
const store = async () => (await started.store()).url;
async function seeded(): Promise<string> {
  const url = await store();
  const seed = await cartelera(['seed'], url);
  assert.equal(seed.code, 0, seed.stderr);
  return url;
}
/** One seeded store for the tests that only read it (exports and check): seeding takes a process of its own. */
let readOnly: Promise<string> | undefined;
const seededToRead = () => (readOnly ??= seeded());
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe(`cartelera export and import (${backend})`, () => {
  for (const format of ['json', 'ndjson', 'csv'] as const) {
    it(`when a catalogue is exported as ${format} and imported into an empty store, then exporting that gives the same document and every list answers the same`, async () => {
      const source = await seededToRead();
      const out = join(dir, `export-${format}-${Date.now()}${format === 'csv' ? '' : `.${format}`}`);
      const exported = await cartelera(['export', '--format', format, '--out', out], source);
      assert.equal(exported.code, 0, exported.stderr);
      const target = await store();
      const imported = await cartelera(['import', '--create', out], target);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stderr, /peliculas: 12 new/);
      const [first, again] = await Promise.all([cartelera(['export'], source), cartelera(['export'], target)]);
      assert.equal(withoutInstant(again.stdout), withoutInstant(first.stdout));
      assert.deepEqual(await everyList(target), await everyList(source));
    });
  }

  it('when exported to stdout, then the document is the versioned one with every resource in order, each record as the API answers it', async () => {
    const url = await seededToRead();
    const run = await cartelera(['export'], url);
    assert.equal(run.code, 0, run.stderr);
    const document = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.deepEqual(Object.keys(document), ['formato', 'version', 'exportado', 'categorias', 'peliculas', 'Obras', 'eventosUrbanos', 'artistas', 'participaciones', 'lugares', 'funciones', 'imagenes']);
    assert.equal(document.formato, 'cartelera');
    assert.equal(document.version, 1);
    const lists = await everyList(url);
    assert.equal(JSON.stringify(document.peliculas), lists['/peliculas']);
    assert.equal(JSON.stringify(document.eventosUrbanos), lists['/eventosUrbanos']);
  });

  it('when an import has bad records among good ones, then it exits 1, reports every problem with its place, and stores nothing', async () => {
    const url = await seeded();
    const before = await everyList(url);
    const path = file('bad.ndjson', [
      '{"recurso":"categorias","registro":{"nombre":"Cine nuevo"}}',
      '{"recurso":"peliculas","registro":{"titulo":"Buena","sipnosis":"Bien.","duracion":90,"categoria":"Cine nuevo"}}',
      '{"recurso":"peliculas","registro":{"titulo":"Sin duración","sipnosis":"Mal.","categoria_id":1}}',
      '{"recurso":"peliculas","registro":{"titulo":"Categoría fantasma","sipnosis":"Mal.","duracion":90,"categoria":"No existe"}}',
      '{"recurso":"peliculas","registro":{"titulo":"buena ","sipnosis":"Repetida.","duracion":90,"categoria_id":1}}',
      '{"recurso":"peliculas","registro":{"titulo":"ROMA","sipnosis":"Ya está.","duracion":90,"categoria_id":1}}',
      '{"recurso":"participaciones","registro":{"artistas_dni":99999999,"tipo_evento":"pelicula","evento":"Buena"}}',
      '{"recurso":"Obras","registro":{"titulo":"Demasiado exacta","descripcion":"Mal.","duracion":9007199254740990.5,"categoria_id":1}}',
    ].join('\n'));
    const run = await cartelera(['import', path], url);
    assert.equal(run.code, 1, run.stderr);
    const [opened, ...lines] = run.stderr.trim().split('\n');
    assert.match(opened ?? '', /^cartelera: store (sqlite:\/|postgres:\/\/)/);
    assert.deepEqual(lines.slice(0, -1), [
      `${path}:3: peliculas.duracion: El campo 'duracion' es obligatorio.`,
      `${path}:4: peliculas.categoria: No existe la categoría con el nombre: No existe.`,
      `${path}:5: peliculas.titulo: buena está repetido en la línea 2 de este archivo.`,
      `${path}:6: peliculas.titulo: Ya existe una película con el titulo de: ROMA, por favor, intente con otro distinto`,
      `${path}:7: participaciones.artistas_dni: No existe el artista con el dni: 99999999.`,
      `${path}:8: Obras.duracion: El campo 'duracion' debe ser un número entero.`,
    ]);
    assert.match(lines.at(-1) ?? '', /^cartelera: import: 6 problems; nothing stored$/);
    assert.deepEqual(await everyList(url), before);
  });

  it('when --dry-run is given, then a sound file is checked and reported, and nothing is stored', async () => {
    const url = await store();
    const path = file('dry.ndjson', [
      '{"recurso":"categorias","registro":{"nombre":"Solo mirar"}}',
      '{"recurso":"peliculas","registro":{"titulo":"Vista previa","sipnosis":"Nada más.","duracion":"90","categoria":"solo mirar"}}',
    ].join('\n'));
    const run = await cartelera(['import', '--create', '--dry-run', path], url);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /dry run, nothing stored\): categorias: 1 new, 0 updated, 0 already there; peliculas: 1 new/);
    assert.equal((await everyList(url))['/categorias'], '[]');
    assert.equal((await everyList(url))['/peliculas'], '[]');
  });

  it('when records exist, then --on-conflict skip leaves them and --on-conflict update replaces their fields', async () => {
    const url = await seeded();
    const path = file('conflict.ndjson', '{"recurso":"peliculas","registro":{"titulo":"roma","sipnosis":"Otra sinopsis.","duracion":99,"categoria":"Drama"}}\n');
    const skip = await cartelera(['import', '--on-conflict', 'skip', path], url);
    assert.equal(skip.code, 0, skip.stderr);
    assert.match(skip.stderr, /peliculas: 0 new, 0 updated, 1 already there/);
    const update = await cartelera(['import', '--on-conflict', 'update', path], url);
    assert.equal(update.code, 0, update.stderr);
    const roma = (JSON.parse((await everyList(url))['/peliculas'] ?? '[]') as { id: number; titulo: string; duracion: number }[])[0];
    assert.deepEqual({ id: roma?.id, titulo: roma?.titulo, duracion: roma?.duracion }, { id: 1, titulo: 'roma', duracion: 99 });
  });

  it('when CSV comes from a spreadsheet (BOM, semicolons, quoted newlines, accents, names for references), then it is imported as written', async () => {
    const url = await store();
    const folder = mkdtempSync(join(dir, 'hoja-'));
    writeFileSync(join(folder, 'categorias.csv'), '\uFEFFnombre\r\nCanción popular\r\n');
    writeFileSync(join(folder, 'peliculas.csv'), '\uFEFFtitulo;sipnosis;duracion;categoria\r\n"La Canción";"Primera línea;\r\nsegunda línea, con ""comillas""";95;canción popular\r\n');
    writeFileSync(join(folder, 'artistas.csv'), 'dni;nombre;apellido;tipo;descripcion\r\n30111222;Ñoño;Peña;actor;Actor de reparto\r\n');
    writeFileSync(join(folder, 'participaciones.csv'), 'artistas_dni;tipo_evento;evento\r\n30111222;pelicula;la cancion\r\n');
    const run = await cartelera(['import', '--create', join(folder, 'participaciones.csv'), join(folder, 'peliculas.csv'), join(folder, 'artistas.csv'), join(folder, 'categorias.csv')], url);
    assert.equal(run.code, 0, run.stderr);
    const lists = await everyList(url);
    assert.deepEqual(JSON.parse(lists['/peliculas'] ?? ''), [
      { id: 1, titulo: 'La Canción', sipnosis: 'Primera línea;\r\nsegunda línea, con "comillas"', duracion: 95, categoria_id: 1 },
    ]);
    assert.deepEqual(JSON.parse(lists['/participaciones'] ?? ''), [{ id: 1, artistas_dni: 30111222, tipo_evento: 'pelicula', evento_id: 1 }]);
  });

  it('when a service is running on the store, then it answers what an import by another process stored on its next request', async () => {
    const url = await seeded();
    const service = await startService({ DATABASE_URL: url });
    try {
      await service.healthy();
      const before = (await (await fetch(`${service.base}/peliculas`)).json()) as unknown[];
      const lookup = await fetch(`${service.base}/peliculas/Otra%20Pel%C3%ADcula`);
      assert.equal(lookup.status, 404);
      const path = file(`live-${Date.now()}.ndjson`, '{"recurso":"peliculas","registro":{"titulo":"Otra Película","sipnosis":"Nueva.","duracion":80,"categoria":"Drama"}}\n');
      const run = await cartelera(['import', path], url);
      assert.equal(run.code, 0, run.stderr);
      const after = (await (await fetch(`${service.base}/peliculas`)).json()) as unknown[];
      assert.equal(after.length, before.length + 1);
      assert.equal((await fetch(`${service.base}/peliculas/Otra%20Pel%C3%ADcula`)).status, 200);
      assert.equal((await fetch(`${service.base}/peliculas?_page=1&_limit=100`)).headers.get('x-total-count'), String(before.length + 1));
    } finally {
      await service.stop();
    }
  });
});

describe(`cartelera as a program (${backend})`, () => {
  it('when used wrongly, then it exits 2 with a one-line reason', async () => {
    const url = await store();
    const unknown = await cartelera(['exportar'], url);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command 'exportar'/);
    const missing = await cartelera(['import', '--create', join(dir, 'no-such-file.json')], url);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /\ncartelera: .*no-such-file\.json: no such file or folder\n$/);
    const format = await cartelera(['export', '--format', 'xml'], url);
    assert.equal(format.code, 2);
    const csv = await cartelera(['export', '--format', 'csv'], url);
    assert.equal(csv.code, 2);
    assert.match(csv.stderr, /--out/);
  });

  it("when the demo is seeded, then what's on answers this week's showtimes near the Obelisco, with their movies and venues", async () => {
    const app = await appOn(await seededToRead());
    try {
      const res = await app.inject({ method: 'GET', url: '/cartelera?cerca=-34.6037,-58.3816&radio_km=3' });
      assert.equal(res.statusCode, 200, res.body);
      const week = res.json<{ evento: { titulo: string }; lugar: { nombre: string } }[]>();
      // Three films a day at the two cinemas, for seven days, and two plays on four of them.
      assert.ok(week.length >= 21 + 8, `${week.length} showtimes`);
      assert.ok(week.some((f) => f.evento.titulo === 'Nueve reinas' && f.lugar.nombre === 'Cine Gaumont'));
    } finally {
      await app.close();
    }
  });

  it('when asked, then check reports migrations and counts and migrate --status lists every migration', async () => {
    const url = await seededToRead();
    const check = await cartelera(['check'], url);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /^migration: 0012_updates_that_change_rows \(12 of 12 applied\)\ncategorias: 9\npeliculas: 12\nObras: 8\neventosUrbanos: 6\nartistas: 14\nparticipaciones: 25\nlugares: 6\nfunciones: 93\nimagenes: 0\ncambios: 173\nintegrity: ok\n$/);
    const status = await cartelera(['migrate', '--status'], url);
    assert.equal(status.code, 0, status.stderr);
    assert.deepEqual(status.stdout.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 2).join(' ')), ['0001_catalogue applied', '0002_text_keys applied', '0003_versions applied', '0004_row_counts applied', '0005_change_log applied', '0006_concurrent_versions applied', '0007_undo_index applied', '0008_free_version_slots applied', '0009_images applied', '0010_venues_showtimes applied', '0011_image_records applied', '0012_updates_that_change_rows applied']);
  });

  it('when the store has not been migrated, then migrate --status lists them pending, and migrate applies them', async () => {
    const url = await store();
    // An empty SQLite file is an empty store; a PostgreSQL test store is an empty database already.
    if (url.startsWith('sqlite:')) writeFileSync(url.slice('sqlite:'.length), '');
    const pending = await cartelera(['migrate', '--status'], url);
    assert.match(pending.stdout, /0001_catalogue {2}pending/);
    const run = await cartelera(['migrate'], url);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /applied 0001_catalogue, 0002_text_keys, 0003_versions, 0004_row_counts, 0005_change_log, 0006_concurrent_versions, 0007_undo_index, 0008_free_version_slots, 0009_images, 0010_venues_showtimes, 0011_image_records, 0012_updates_that_change_rows/);
    assert.equal((await cartelera(['check'], url)).code, 0);
  });

  it('when an export is read back, then the file is the same document as stdout gives', async () => {
    const url = await seededToRead();
    const out = join(dir, `file-${Date.now()}.json`);
    assert.equal((await cartelera(['export', '--out', out], url)).code, 0);
    assert.equal(withoutInstant(readFileSync(out, 'utf8')), withoutInstant((await cartelera(['export'], url)).stdout));
  });
});
