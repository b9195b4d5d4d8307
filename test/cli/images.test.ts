import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import readXlsxFile from 'read-excel-file/node';
import sharp from 'sharp';
import { imageLabels } from '../../src/catalogue/labels.js';
import { messages } from '../../src/catalogue/messages.js';
import { openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/schema.js';
import { exportCsv } from '../../src/transfer/export.js';
import { importCatalogue, type ImportOptions } from '../../src/transfer/import.js';
import { readImport, readSpreadsheets } from '../../src/transfer/read/index.js';
import { exportWorkbook } from '../../src/transfer/write/xlsx.js';
import { importar, upload } from '../api/uploads.js';
import { harness } from '../harness.js';
import { buildTestApp, createArtista, createPelicula, send, type Json } from '../helpers.js';
import { backend, withMigratedStore } from '../stores.js';
import { appOn, cartelera } from './cli.js';
import { tempDir } from '../tempDir.js';

// Images everywhere a record goes: export and import with their files, spreadsheets that list them, and what a restore serves.

const dir = tempDir('cartelera-images-');
const { store } = harness();

/** A `width`×`height` picture, left half red and right half blue (with alpha: half transparent), in `format`. */
async function picture(width: number, height: number, format: 'jpeg' | 'png' | 'webp' | 'gif', alpha = false): Promise<Buffer> {
  const channels = alpha ? 4 : 3;
  const blue = await sharp({ create: { width: width - Math.floor(width / 2), height, channels, background: { r: 0, g: 0, b: 255, alpha: 0.5 } } }).png().toBuffer();
  return sharp({ create: { width, height, channels, background: { r: 255, g: 0, b: 0, alpha: 0.5 } } })
    .composite([{ input: blue, left: Math.floor(width / 2), top: 0 }])
    .toFormat(format)
    .toBuffer();
}

async function uploaded(app: FastifyInstance, fields: Json, bytes: Buffer): Promise<Json> {
  const res = await app.inject({ method: 'POST', url: '/imagenes', ...(await upload([{ name: 'foto', bytes }], fields)) });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<Json>();
}

/** What a client gets of an image's picture: its bytes and its ETag. */
async function rendition(app: FastifyInstance, id: unknown) {
  const res = await app.inject({ method: 'GET', url: `/imagenes/${String(id)}/archivo?ancho=64&formato=webp` });
  assert.equal(res.statusCode, 200, res.body);
  return { etag: res.headers.etag, bytes: res.rawPayload.toString('base64') };
}

const options = (files?: ImportOptions['files']): ImportOptions => ({ onConflict: 'error', dryRun: false, quien: 'ana', timeZone: 'UTC', ...(files && { files }) });

describe(`images in exports and imports (${backend})`, () => {
  let source: { url: string };
  let app: FastifyInstance;
  let db: Db;
  /** The originals uploaded, by image id. */
  const originals = new Map<number, Buffer>();
  before(async () => {
    source = await store();
    app = await buildTestApp({ DATABASE_URL: source.url });
    db = openDatabase(source.url);
    const movie = await createPelicula(app, { titulo: 'Roma' });
    const artist = await createArtista(app, { dni: 27444555 });
    const files = [await picture(120, 80, 'jpeg'), await picture(90, 60, 'png', true), await picture(60, 90, 'webp')];
    const images = [
      await uploaded(app, { recurso: 'peliculas', clave: movie.id, alt: 'Afiche', credito: 'Netflix', foco_x: 30 }, files[0] as Buffer),
      await uploaded(app, { recurso: 'peliculas', clave: movie.id, alt: 'Escena' }, files[1] as Buffer),
      await uploaded(app, { recurso: 'artistas', clave: artist.dni, alt: 'Retrato' }, files[2] as Buffer),
    ];
    images.forEach((image, i) => originals.set(image.id as number, files[i] as Buffer));
    // The second becomes the poster: ids and places in different orders.
    assert.equal((await send(app, 'PATCH', `/imagenes/${String(images[1]?.id)}`, { orden: 1 })).statusCode, 200);
  });
  after(async () => {
    await db.destroy();
    await app.close();
  });

  for (const format of ['json', 'ndjson'] as const) {
    it(`when a catalogue with images is exported as ${format} and imported into an empty store, then the images come back with their ids, places and originals, serve identical renditions, and a new upload takes the next id`, async () => {
      const out = join(dir, `catalogo-${format}.${format}`);
      const exported = await cartelera(['export', '--out', out], source.url);
      assert.equal(exported.code, 0, exported.stderr);
      const text = readFileSync(out, 'utf8');
      const images: Json[] = format === 'json'
        ? (JSON.parse(text) as { imagenes: Json[] }).imagenes
        : text.trim().split('\n').map((line) => JSON.parse(line) as { recurso: string; registro: Json }).filter((l) => l.recurso === 'imagenes').map((l) => l.registro);
      const listed = (await send(app, 'GET', '/imagenes')).json<Json[]>();
      // Each image as the API answers it, then its original as uploaded.
      assert.deepEqual(images, listed.map((image) => ({ ...image, archivo_base64: originals.get(image.id as number)?.toString('base64') })));

      const target = await store();
      const imported = await cartelera(['import', '--create', out], target.url);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stderr, /imagenes: 3 new, 0 updated, 0 already there/);
      const restored = await appOn(target.url);
      try {
        assert.deepEqual((await send(restored, 'GET', '/imagenes')).json(), listed);
        assert.deepEqual((await send(restored, 'GET', '/peliculas/Roma?_embed=imagenes')).json(), (await send(app, 'GET', '/peliculas/Roma?_embed=imagenes')).json());
        for (const { id } of listed) assert.deepEqual(await rendition(restored, id), await rendition(app, id));
        const next = await uploaded(restored, { recurso: 'artistas', clave: 27444555, alt: 'Otro retrato' }, await picture(64, 64, 'jpeg'));
        assert.equal(next.id, Math.max(...listed.map((image) => image.id as number)) + 1);
        assert.equal(next.orden, 2);
      } finally {
        await restored.close();
      }
      // The reader hands on each record that carries a file at once: an import holds one original at a time.
      for await (const batch of readImport([out])) {
        const files = batch.map((item) => 'record' in item && 'archivo_base64' in item.record);
        assert.ok(files.slice(0, -1).every((file) => !file), `a batch of ${batch.length} holds a file before its end`);
      }
      const checked = await cartelera(['check'], target.url);
      assert.match(checked.stdout, /imagenes: 4\n[^]*integrity: ok\n$/, checked.stdout);
    });
  }

  it('when imported images have a bad file or name no record, then every problem names its line, field and value, and nothing is stored', async () => {
    const b64 = (bytes: Buffer) => bytes.toString('base64');
    const small = await picture(40, 40, 'jpeg');
    // Noise (a fixed sequence: the test draws nothing at random) makes a JPEG of many bytes and few pixels.
    let state = 1;
    const noisy = Buffer.from(Array.from({ length: 300 * 300 * 3 }, () => (state = (state * 1103515245 + 12345) % 2147483648) >> 23));
    const noise = await sharp(noisy, { raw: { width: 300, height: 300, channels: 3 } }).jpeg({ quality: 100 }).toBuffer();
    const wide = await picture(400, 300, 'png');
    const gif = await picture(20, 20, 'gif');
    const whole = await sharp(noisy.subarray(0, 100 * 100 * 3), { raw: { width: 100, height: 100, channels: 3 } }).jpeg().toBuffer();
    const truncated = whole.subarray(0, Math.floor(whole.length * 0.7));
    const image = (fields: Json) => ({ recurso: 'imagenes', registro: { recurso: 'peliculas', clave: 1, alt: 'Afiche', credito: null, foco_x: 50, foco_y: 50, orden: 1, ...fields } });
    const lines = [
      { recurso: 'categorias', registro: { id: 1, nombre: 'Drama' } },
      { recurso: 'peliculas', registro: { id: 1, titulo: 'Zama', sipnosis: 'Un funcionario espera.', duracion: 115, categoria_id: 1 } },
      image({ id: 1, archivo_base64: b64(small) }),
      image({ id: 2, archivo_base64: 'esto no es base64!' }),
      image({ id: 3, archivo_base64: b64(gif) }),
      image({ id: 4, archivo_base64: b64(noise) }),
      image({ id: 5, archivo_base64: b64(wide) }),
      image({ id: 6, clave: 99, archivo_base64: b64(small) }),
      image({ id: 7, recurso: 'artistas', clave: 5, archivo_base64: b64(small) }),
      image({ id: 8, bytes: small.length + 1, archivo_base64: b64(small) }),
      image({ id: 9 }),
      image({ id: 10, archivo_base64: b64(truncated) }),
    ];
    const maxBytes = 104_858; // 0,1 MB
    assert.ok(noise.length > maxBytes && small.length < maxBytes, `${noise.length} ${small.length}`);
    const file = join(dir, 'imagenes-con-problemas.ndjson');
    writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n'));
    await withMigratedStore(async ({ db: target }) => {
      const result = await importCatalogue(target, readImport([file]), options({ maxBytes, maxPixels: 100_000 }));
      assert.deepEqual(result.problems.map(({ place, field, sentence, value }) => ({ line: place.line, field, sentence, value })), [
        { line: 4, field: 'archivo_base64', sentence: "El campo 'archivo_base64' debe ser el archivo en base64: solo A-Z, a-z, 0-9, + y /, con = al final para completar.", value: 'esto no es base64!' },
        { line: 5, field: 'archivo_base64', sentence: 'El archivo no es una imagen JPEG, PNG, WebP ni AVIF.', value: `${b64(gif).slice(0, 40)}…` },
        { line: 6, field: 'archivo_base64', sentence: 'El archivo supera el máximo de 0,1 MB.', value: `${b64(noise).slice(0, 40)}…` },
        { line: 7, field: 'archivo_base64', sentence: 'La imagen supera el máximo de 0,1 millones de píxeles.', value: `${b64(wide).slice(0, 40)}…` },
        { line: 8, field: 'clave', sentence: 'No existe la película con id: 99.', value: undefined },
        { line: 9, field: 'clave', sentence: 'No existe el artista con el dni: 5.', value: undefined },
        { line: 10, field: 'bytes', sentence: `El campo 'bytes' no coincide con el archivo, que dice ${small.length}.`, value: String(small.length + 1) },
        { line: 11, field: 'archivo_base64', sentence: "El campo 'archivo_base64' es obligatorio.", value: undefined },
        { line: 12, field: 'archivo_base64', sentence: 'El archivo no es una imagen válida.', value: `${b64(truncated).slice(0, 40)}…` },
      ]);
      assert.equal((await target.selectFrom('imagenes').select('id').execute()).length, 0);
      assert.equal((await target.selectFrom('imagen_archivos').select('imagen_id').execute()).length, 0);
      assert.equal((await target.selectFrom('peliculas').select('id').execute()).length, 0);
    });
  });

  it('when an image already stored comes again, then skip leaves it, update takes its new fields, and another file is a problem', async () => {
    const exported = join(dir, 'una-imagen.ndjson');
    assert.equal((await cartelera(['export', '--out', exported], source.url)).code, 0);
    const limits = { maxBytes: 1024 * 1024, maxPixels: 1_000_000 };
    await withMigratedStore(async ({ db: target }) => {
      assert.deepEqual((await importCatalogue(target, readImport([exported]), options(limits))).problems, []);
      const again = await importCatalogue(target, readImport([exported]), { ...options(limits), onConflict: 'skip' });
      assert.deepEqual(again.counts.imagenes, { created: 0, updated: 0, skipped: 3 });
      const lines = readFileSync(exported, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { recurso: string; registro: Json }).filter((l) => l.recurso === 'imagenes');
      const [first, second] = lines;
      const edited = join(dir, 'imagen-editada.ndjson');
      writeFileSync(edited, `${JSON.stringify({ ...first, registro: { ...first?.registro, alt: 'Afiche nuevo', orden: 2 } })}\n`);
      const updated = await importCatalogue(target, readImport([edited]), { ...options(limits), onConflict: 'update' });
      assert.deepEqual([updated.problems, updated.counts.imagenes], [[], { created: 0, updated: 1, skipped: 0 }]);
      const stored = await target.selectFrom('imagenes').select(['id', 'alt', 'orden']).where('recurso', '=', 'peliculas').orderBy('orden').execute();
      assert.deepEqual(stored.map((row) => [row.id, row.alt, row.orden]), [[second?.registro.id, 'Escena', 1], [first?.registro.id, 'Afiche nuevo', 2]]);
      writeFileSync(edited, `${JSON.stringify({ ...first, registro: { ...first?.registro, archivo_base64: second?.registro.archivo_base64, ancho: second?.registro.ancho, alto: second?.registro.alto, tipo: second?.registro.tipo, bytes: second?.registro.bytes } })}\n`);
      const refused = await importCatalogue(target, readImport([edited]), { ...options(limits), onConflict: 'update' });
      assert.deepEqual(refused.problems.map((p) => [p.place.line, p.field, p.sentence]), [
        [1, 'archivo_base64', `El archivo no es el de la imagen con id: ${String(first?.registro.id)}, y el archivo de una imagen no cambia: suba una imagen nueva.`],
      ]);
    });
  });

  it('when the catalogue is exported as a workbook or CSV, then a sheet and a file list the images without their files, and importing them says they were ignored', async () => {
    const workbook = await exportWorkbook(db, {});
    const sheet = (await readXlsxFile(workbook.bytes)).find((s) => s.sheet === 'Imágenes');
    const [header, ...rows] = sheet?.data ?? [];
    assert.deepEqual(header, Object.values(imageLabels.fields));
    const listed = (await send(app, 'GET', '/imagenes')).json<Json[]>();
    assert.deepEqual(rows, listed.map((image) => Object.values(image)));

    const folder = join(dir, 'csv');
    await exportCsv(db, { folder });
    assert.ok(existsSync(join(folder, 'imagenes.csv')));
    assert.equal(readFileSync(join(folder, 'imagenes.csv'), 'utf8').split('\r\n')[0], `\uFEFF${Object.values(imageLabels.fields).join(';')}`);

    const checkedUpload = await importar(app, '?comprobar=true&existentes=omitir', [{ name: 'catalogo.xlsx', bytes: workbook.bytes }]);
    assert.equal(checkedUpload.statusCode, 200, checkedUpload.body);
    assert.deepEqual(checkedUpload.json<Json>().avisos, [{ archivo: 'catalogo.xlsx', hoja: 'Imágenes', aviso: messages.spreadsheet.imagesIgnored('la hoja Imágenes') }]);

    for (const [read, place, what] of [
      [readSpreadsheets([{ name: 'catalogo.xlsx', bytes: Buffer.from(workbook.bytes) }]), { file: 'catalogo.xlsx', sheet: 'Imágenes' }, 'la hoja Imágenes'],
      [readImport([folder]), { file: join(folder, 'imagenes.csv') }, 'el archivo imagenes.csv'],
    ] as const) {
      await withMigratedStore(async ({ db: target }) => {
        const result = await importCatalogue(target, read, options());
        assert.deepEqual(result.problems, []);
        assert.deepEqual(result.notices, [{
          place,
          notice: `Se ignoró ${what}: una hoja de cálculo no lleva los archivos de las imágenes, así que no se importan desde ella; las imágenes guardadas quedan como están, y un export JSON o NDJSON las trae con sus archivos.`,
        }]);
        assert.deepEqual(result.counts.peliculas, { created: 1, updated: 0, skipped: 0 });
        assert.equal(result.counts.imagenes, undefined);
        assert.equal((await target.selectFrom('imagenes').select('id').execute()).length, 0);
      });
    }
  });
});
