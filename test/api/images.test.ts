import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import http from 'node:http';
import { text } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { encodings, RenditionCache } from '../../src/images/cache.js';
import { RecentOriginals } from '../../src/images/originals.js';
import { tempDir } from '../tempDir.js';
import { holdEveryUploadSlot, upload as multipart } from './uploads.js';
import { assertError, buildTestApp, createArtista, createEventoUrbano, createPelicula, send, type Json } from '../helpers.js';

// /imagenes: upload, read, edit, delete, the picture, and every refusal the contract names.

const CREATE_FAILED = 'No se pudo ingresar una nueva imagen error en: /imagenes';

/** A small picture of `width`×`height`, left half red, right half blue, in `format`. */
async function picture(width: number, height: number, format: 'jpeg' | 'png' | 'webp' | 'avif' | 'gif' = 'jpeg', alpha = false): Promise<Buffer> {
  const half = Math.floor(width / 2);
  const channels = alpha ? 4 : 3;
  const left = alpha ? { r: 255, g: 0, b: 0, alpha: 0.5 } : { r: 255, g: 0, b: 0 };
  const right = await sharp({ create: { width: width - half, height, channels, background: alpha ? { r: 0, g: 0, b: 255, alpha: 0.5 } : { r: 0, g: 0, b: 255 } } }).png().toBuffer();
  return sharp({ create: { width, height, channels, background: left } }).composite([{ input: right, left: half, top: 0 }]).toFormat(format).toBuffer();
}

/** The share of a picture's pixels that are mostly red. */
async function redShare(image: Buffer): Promise<number> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let red = 0;
  for (let i = 0; i < data.length; i += 3) if ((data[i] ?? 0) > 128 && (data[i + 2] ?? 255) < 128) red++;
  return red / (info.width * info.height);
}

const form = (fields: Json, file?: Buffer, part = 'archivo') => multipart(file ? [{ name: 'foto.bin', bytes: file, part }] : [], fields);

async function upload(app: FastifyInstance, fields: Json, file?: Buffer, part?: string) {
  return app.inject({ method: 'POST', url: '/imagenes', ...(await form(fields, file, part)) });
}

async function uploaded(app: FastifyInstance, fields: Json, file: Buffer): Promise<Json> {
  const res = await upload(app, fields, file);
  assert.equal(res.statusCode, 201, res.body);
  return res.json<Json>();
}

describe('images', () => {
  let app: FastifyInstance;
  let jpeg: Buffer;
  before(async () => {
    app = await buildTestApp({ IMAGE_MAX_BYTES: String(200 * 1024), IMAGE_MAX_PIXELS: '2500000' });
    jpeg = await picture(300, 200);
  });
  after(() => app.close());

  it('when a JPEG is uploaded for a movie, then it answers 201 with its fields read from the content and reads back', async () => {
    const movie = await createPelicula(app);
    const res = await upload(app, { recurso: 'peliculas', clave: movie.id, alt: '  Afiche  ', credito: '' }, jpeg);
    assert.equal(res.statusCode, 201, res.body);
    const image = res.json<Json>();
    assert.equal(res.headers.location, `/imagenes/${image.id}`);
    assert.deepEqual(image, {
      id: image.id, recurso: 'peliculas', clave: movie.id, alt: 'Afiche', credito: null, foco_x: 50, foco_y: 50, orden: 1,
      ancho: 300, alto: 200, tipo: 'image/jpeg', bytes: jpeg.length, url: `/imagenes/${image.id}/archivo`,
    });
    assert.deepEqual((await send(app, 'GET', `/imagenes/${image.id}`)).json(), image);
    assert.deepEqual((await send(app, 'GET', `/imagenes?clave=${movie.id}&recurso=peliculas`)).json(), [image]);
  });

  it('when a record has several images, then uploads go last, a move shifts the others and each move is logged', async () => {
    const artist = await createArtista(app);
    const images: Json[] = [];
    for (const alt of ['uno', 'dos', 'tres']) images.push(await uploaded(app, { recurso: 'artistas', clave: artist.dni, alt }, jpeg));
    assert.deepEqual(images.map((i) => i.orden), [1, 2, 3]);
    const [, , last = {}] = images;
    const moved = await app.inject({ method: 'PATCH', url: `/imagenes/${last.id}`, payload: { orden: 1 } });
    assert.equal(moved.statusCode, 200, moved.body);
    const listed = (await send(app, 'GET', `/imagenes?recurso=artistas&clave=${artist.dni}&_sort=orden`)).json<Json[]>();
    assert.deepEqual(listed.map((i) => i.alt), ['tres', 'uno', 'dos']);
    const changes = (await send(app, 'GET', `/cambios?recurso=imagenes&operacion=modificacion&_sort=id&_order=desc&_limit=3`)).json<Json[]>();
    assert.deepEqual(changes.map((x) => x.clave).sort(), images.map((i) => i.id).sort());
    for (const change of changes) assert.deepEqual(change.campos, ['orden']);
    const deleted = await send(app, 'DELETE', `/imagenes/${last.id}`);
    assert.equal(deleted.statusCode, 200);
    assert.equal(deleted.json<Json>().details, `la imagen con el id: ${last.id}. fue eliminada correctamente.`);
    const after = (await send(app, 'GET', `/imagenes?recurso=artistas&clave=${artist.dni}&_sort=orden`)).json<Json[]>();
    assert.deepEqual(after.map((i) => [i.alt, i.orden]), [['uno', 1], ['dos', 2]]);
  });

  it('when an upload lacks its file, a field or its record, then it answers 400 naming each', async () => {
    const movie = await createPelicula(app);
    assertError(await upload(app, { recurso: 'peliculas', clave: movie.id, alt: 'x' }), 400, {
      details: "Falta el archivo de la imagen: envíelo en la parte 'archivo' del formulario.", moreInfo: CREATE_FAILED,
    });
    assertError(await upload(app, { recurso: 'peliculas', clave: movie.id }, jpeg), 400, { details: "El campo 'alt' es obligatorio.", moreInfo: CREATE_FAILED });
    assertError(await upload(app, { recurso: 'peliculas', clave: 2147483000, alt: 'x' }, jpeg), 400, { details: 'No existe la película con id: 2147483000.' });
    assertError(await upload(app, { recurso: 'artistas', clave: 30111222, alt: 'x' }, jpeg), 400, { details: 'No existe el artista con el dni: 30111222.' });
    assertError(await upload(app, { recurso: 'categorias', clave: 1, alt: 'x' }, jpeg), 400, { details: /recurso/ });
  });

  it('when the file is no image, damaged, too large or has too many pixels, then it is refused with the sentence the contract names', async () => {
    const movie = await createPelicula(app);
    const fields = { recurso: 'peliculas', clave: movie.id, alt: 'x' };
    assertError(await upload(app, fields, await picture(20, 20, 'gif')), 415, { details: 'El archivo no es una imagen JPEG, PNG, WebP ni AVIF.', moreInfo: CREATE_FAILED });
    assertError(await upload(app, fields, Buffer.from('%PDF-1.4 no soy una imagen')), 415, { details: 'El archivo no es una imagen JPEG, PNG, WebP ni AVIF.' });
    assertError(await upload(app, fields, jpeg.subarray(0, Math.floor(jpeg.length / 2))), 400, { details: 'El archivo no es una imagen válida.' });
    assertError(await upload(app, fields, Buffer.concat([jpeg, Buffer.alloc(200 * 1024)])), 413, { details: 'El archivo supera el máximo de 0,2 MB.' });
    // 2000×2000 of one colour compresses to a few kB: judged by its header alone.
    const many = await sharp({ create: { width: 2000, height: 2000, channels: 3, background: '#888' } }).png().toBuffer();
    assertError(await upload(app, fields, many), 413, { details: 'La imagen supera el máximo de 2,5 millones de píxeles.' });
    assert.deepEqual((await send(app, 'GET', `/imagenes?clave=${movie.id}&recurso=peliculas`)).json(), []);
  });

  it('when a rendition is asked for, then it has the box, the format Accept chooses, no metadata, and a strong ETag that gets 304', async () => {
    const movie = await createPelicula(app);
    const withGps = await sharp(await picture(600, 400)).withExif({ IFD0: { Copyright: 'secreto' } }).jpeg().toBuffer();
    const image = await uploaded(app, { recurso: 'peliculas', clave: movie.id, alt: 'x', foco_x: 100 }, withGps);
    const url = String(image.url);
    const webp = await app.inject({ method: 'GET', url: `${url}?ancho=128&alto=128`, headers: { accept: 'image/webp,*/*' } });
    assert.equal(webp.statusCode, 200);
    assert.equal(webp.headers['content-type'], 'image/webp');
    assert.equal(webp.headers.vary, 'Accept');
    assert.equal(webp.headers['cache-control'], 'public, max-age=86400');
    const meta = await sharp(webp.rawPayload).metadata();
    assert.deepEqual([meta.width, meta.height, meta.exif], [128, 128, undefined]);
    // Scaled to 192×128, the crop keeps columns 64 to 192 with the focal point at the right edge: a quarter red.
    assert.ok(Math.abs((await redShare(webp.rawPayload)) - 0.25) < 0.05);
    const etag = String(webp.headers.etag);
    assert.match(etag, /^"/);
    const again = await app.inject({ method: 'GET', url: `${url}?ancho=128&alto=128`, headers: { accept: 'image/webp', 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    const plain = await app.inject({ method: 'GET', url: `${url}?ancho=960&ajuste=contener` });
    assert.equal(plain.headers['content-type'], 'image/jpeg');
    const fitted = await sharp(plain.rawPayload).metadata();
    assert.deepEqual([fitted.width, fitted.height], [600, 400], 'never enlarged');
    const head = await app.inject({ method: 'HEAD', url: `${url}?formato=png` });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-type'], 'image/png');
    await app.inject({ method: 'PATCH', url: `/imagenes/${image.id}`, payload: { foco_x: 0 } });
    const left = await app.inject({ method: 'GET', url: `${url}?ancho=128&alto=128`, headers: { accept: 'image/webp', 'if-none-match': etag } });
    assert.equal(left.statusCode, 200, 'a new focal point changes the crop and its ETag');
    assert.ok(Math.abs((await redShare(left.rawPayload)) - 0.75) < 0.05);
    assertError(await send(app, 'GET', `${url}?ancho=100`), 400, { details: "El parámetro 'ancho' admite: 64, 128, 256, 320, 480, 640, 960, 1280, 1920, 2560." });
    assertError(await send(app, 'GET', `${url}?formato=gif`), 400, { details: "El parámetro 'formato' admite: avif, webp, jpeg, png." });
  });

  it('when cubrir\'s box has the picture\'s own ratio, then it answers the same pixels as contener: nothing is encoded between the resize and the crop', async () => {
    const movie = await createPelicula(app);
    const image = await uploaded(app, { recurso: 'peliculas', clave: movie.id, alt: 'x' }, jpeg);
    const pixels = async (ajuste: string) => {
      const res = await send(app, 'GET', `/imagenes/${image.id}/archivo?ancho=480&alto=320&ajuste=${ajuste}&formato=png`);
      assert.equal(res.statusCode, 200);
      return sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
    };
    const [cubrir, contener] = [await pixels('cubrir'), await pixels('contener')];
    assert.deepEqual([cubrir.info.width, cubrir.info.height], [300, 200]);
    assert.ok(cubrir.data.equals(contener.data));
  });

  it('when an image is edited, then PUT resets what it omits, a recurso or clave change is refused, and a missing image is 404', async () => {
    const movie = await createPelicula(app);
    const image = await uploaded(app, { recurso: 'peliculas', clave: movie.id, alt: 'x', credito: 'Ana', foco_x: 10 }, jpeg);
    const put = await app.inject({ method: 'PUT', url: `/imagenes/${image.id}`, payload: { alt: 'nuevo' } });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(put.json(), { ...image, alt: 'nuevo', credito: null, foco_x: 50 });
    assertError(await app.inject({ method: 'PATCH', url: `/imagenes/${image.id}`, payload: { clave: movie.id + 1 } }), 400, {
      details: "El campo 'clave' no puede cambiar: suba una imagen nueva.", moreInfo: `No se pudo actualizar la imagen error en: /imagenes/${image.id}`,
    });
    assertError(await app.inject({ method: 'PATCH', url: '/imagenes/2147483000', payload: { alt: 'y' } }), 404, { details: 'No se encontró la imagen con id: 2147483000' });
  });

  it('when a movie is deleted, then its images go in the same transaction, caused by its baja, and undoing it brings them back with their files', async () => {
    const movie = await createPelicula(app);
    const first = await uploaded(app, { recurso: 'peliculas', clave: movie.id, alt: 'afiche' }, jpeg);
    const second = await uploaded(app, { recurso: 'peliculas', clave: movie.id, alt: 'foto' }, await picture(64, 64, 'png', true));
    const embedded = await send(app, 'GET', `/peliculas?id=${movie.id}&_embed=imagenes`);
    assert.deepEqual(embedded.json<Json[]>()[0]?.imagenes, [first, second]);
    const before = await app.inject({ method: 'GET', url: `${String(second.url)}?formato=png` });
    assert.equal((await send(app, 'DELETE', `/peliculas/${movie.id}`)).statusCode, 200);
    assert.equal((await send(app, 'GET', `/imagenes/${first.id}`)).statusCode, 404);
    const [baja] = (await send(app, 'GET', `/cambios?recurso=peliculas&clave=${movie.id}&operacion=baja`)).json<Json[]>();
    const caused = (await send(app, 'GET', `/cambios?recurso=imagenes&operacion=baja&_sort=id`)).json<Json[]>().filter((c) => c.causa === baja?.id);
    assert.deepEqual(caused.map((c) => [c.clave, c.antes]), [[first.id, first], [second.id, second]]);
    const undo = await send(app, 'POST', `/cambios/${baja?.id}/deshacer`);
    assert.equal(undo.statusCode, 200, undo.body);
    assert.deepEqual((await send(app, 'GET', `/peliculas?id=${movie.id}&_embed=imagenes`)).json<Json[]>()[0]?.imagenes, [first, second]);
    const after = await app.inject({ method: 'GET', url: `${String(second.url)}?formato=png` });
    assert.equal(after.statusCode, 200);
    assert.ok(after.rawPayload.equals(before.rawPayload), 'the same file renders the same picture');
  });

  it('when a rendition is asked for again, or twice at once, then it is encoded once; a new focal point makes it anew', async () => {
    const movie = await createPelicula(app);
    const image = await uploaded(app, { recurso: 'peliculas', clave: movie.id, alt: 'x' }, jpeg);
    const url = `${String(image.url)}?ancho=64&formato=webp`;
    const before = encodings.count;
    const [a, b] = await Promise.all([app.inject({ method: 'GET', url }), app.inject({ method: 'GET', url })]);
    assert.equal(encodings.count - before, 1);
    const c = await app.inject({ method: 'GET', url });
    assert.equal(encodings.count - before, 1, 'kept: asking again costs no encoding');
    assert.ok(a.rawPayload.equals(b.rawPayload) && a.rawPayload.equals(c.rawPayload));
    assert.equal(c.headers.etag, a.headers.etag);
    await app.inject({ method: 'PATCH', url: `/imagenes/${image.id}`, payload: { foco_y: 0 } });
    const d = await app.inject({ method: 'GET', url });
    assert.equal(encodings.count - before, 2);
    assert.notEqual(d.headers.etag, a.headers.etag);
  });

  it('when several sizes of an image are asked for in turn, then each is encoded once, and asking again costs none', async () => {
    const movie = await createPelicula(app);
    const image = await uploaded(app, { recurso: 'peliculas', clave: movie.id, alt: 'x' }, jpeg);
    const urls = [64, 128, 256].map((ancho) => `${String(image.url)}?ancho=${ancho}&formato=jpeg`);
    const before = encodings.count;
    const first = await Promise.all(urls.map((url) => app.inject({ method: 'GET', url })));
    for (const url of urls) await app.inject({ method: 'GET', url, headers: { 'if-none-match': '"x"' } });
    assert.equal(encodings.count - before, urls.length);
    const again = await Promise.all(urls.map((url) => app.inject({ method: 'GET', url })));
    assert.deepEqual(again.map((r) => r.headers.etag), first.map((r) => r.headers.etag));
    assert.ok(again.every((r, n) => r.rawPayload.equals(first[n]?.rawPayload ?? Buffer.alloc(0))));
  });

  it('when more uploads arrive at once than there are cores, then each waits its turn and is stored', async () => {
    const movie = await createPelicula(app);
    const answers = await Promise.all(Array.from({ length: 5 }, (_, n) => upload(app, { recurso: 'peliculas', clave: movie.id, alt: `foto ${n}` }, jpeg)));
    assert.deepEqual(answers.map((r) => r.statusCode), [201, 201, 201, 201, 201]);
    const listed = (await send(app, 'GET', `/peliculas?id=${movie.id}&_embed=imagenes`)).json<Json[]>()[0]?.imagenes as Json[];
    assert.deepEqual(listed.map((i) => i.orden), [1, 2, 3, 4, 5]);
    assert.deepEqual(new Set(listed.map((i) => i.alt)), new Set(['foto 0', 'foto 1', 'foto 2', 'foto 3', 'foto 4']));
  });

  it('when an urban event has images, then its VEVENT names the first as IMAGE at the request\'s host, folded as any line', async () => {
    const event = await createEventoUrbano(app);
    const first = await uploaded(app, { recurso: 'eventosUrbanos', clave: event.id, alt: 'x' }, jpeg);
    await uploaded(app, { recurso: 'eventosUrbanos', clave: event.id, alt: 'y' }, jpeg);
    const res = await app.inject({ method: 'GET', url: `/eventosUrbanos.ics?id=${event.id}`, headers: { host: 'cartelera.test' } });
    assert.equal(res.statusCode, 200, res.body);
    const lines = res.body.replaceAll('\r\n ', '').split('\r\n');
    assert.deepEqual(lines.filter((l) => l.startsWith('IMAGE')), [
      `IMAGE;VALUE=URI;DISPLAY=BADGE;FMTTYPE=image/jpeg:http://cartelera.test/imagenes/${String(first.id)}/archivo?ancho=640&formato=jpeg`,
    ]);
    assert.ok(res.body.split('\r\n').every((l) => Buffer.byteLength(l) <= 75));
  });

  it('when an image\'s deletion is undone, then it comes back at its place; when its upload is undone, the others move up', async () => {
    const artist = await createArtista(app);
    const images: Json[] = [];
    for (const alt of ['uno', 'dos', 'tres']) images.push(await uploaded(app, { recurso: 'artistas', clave: artist.dni, alt }, jpeg));
    const [uno = {}, dos = {}] = images;
    const order = async () => (await send(app, 'GET', `/imagenes?recurso=artistas&clave=${artist.dni}&_sort=orden`)).json<Json[]>().map((i) => [i.alt, i.orden]);
    assert.equal((await send(app, 'DELETE', `/imagenes/${dos.id}`)).statusCode, 200);
    const [baja] = (await send(app, 'GET', `/cambios?recurso=imagenes&clave=${dos.id}&operacion=baja`)).json<Json[]>();
    const undone = await send(app, 'POST', `/cambios/${baja?.id}/deshacer`);
    assert.equal(undone.statusCode, 200, undone.body);
    assert.deepEqual(await order(), [['uno', 1], ['dos', 2], ['tres', 3]]);
    assert.deepEqual(undone.json<Json[]>().map((c) => [c.clave, c.operacion, c.deshace]), [[images[2]?.id, 'modificacion', baja?.id], [dos.id, 'alta', baja?.id]]);
    const [alta] = (await send(app, 'GET', `/cambios?recurso=imagenes&clave=${uno.id}&operacion=alta`)).json<Json[]>();
    assert.equal((await send(app, 'POST', `/cambios/${alta?.id}/deshacer`)).statusCode, 200);
    assert.deepEqual(await order(), [['dos', 1], ['tres', 2]]);
  });

  it('when a file over IMAGE_MAX_BYTES is sent over HTTP, then the 413 comes before the body is sent whole and nothing is stored', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const movie = await createPelicula(app);
    const before = (await send(app, 'GET', '/imagenes')).json<Json[]>().length;
    // 32 MiB against a 200 KiB limit: far more than the sockets' buffers hold, so the client only gets to send it all if the service reads it all.
    const { headers, payload } = await form({ recurso: 'peliculas', clave: movie.id, alt: 'Grande' }, Buffer.concat([jpeg, Buffer.alloc(32 * 1024 * 1024)]));
    const request = http.request(`${address}/imagenes`, { method: 'POST', headers: { ...headers, 'content-length': payload.length } });
    request.on('error', () => {}); // the service closes the connection once it has answered
    const answered = once(request, 'response').then(([res]) => res as http.IncomingMessage);
    const PIECE = 64 * 1024;
    let sent = 0;
    let res: http.IncomingMessage | undefined;
    while (!res && sent < payload.length) {
      const piece = payload.subarray(sent, sent + PIECE);
      res = await Promise.race([answered, new Promise<undefined>((resolve) => request.write(piece, () => resolve(undefined)))]);
      if (!res) sent += piece.length;
    }
    if (!res) {
      request.end();
      res = await answered;
    }
    const body = JSON.parse((await text(res)) || '{}') as Json;
    assert.equal(res.statusCode, 413);
    assert.equal(body.details, 'El archivo supera el máximo de 0,2 MB.');
    assert.ok(sent < payload.length, `answered after ${sent} of ${payload.length} bytes were sent`);
    request.destroy();
    assert.equal((await send(app, 'GET', '/imagenes')).json<Json[]>().length, before);
  });
});

describe('uploads waiting their turn', () => {
  it('when an upload waits for a slot past REQUEST_TIMEOUT_MS, then its wait does not count: it is stored, not cut with 408', async () => {
    const app = await buildTestApp({ REQUEST_TIMEOUT_MS: '500', HEADERS_TIMEOUT_MS: '500', IMAGE_MAX_BYTES: String(4 * 1024 * 1024) });
    // The waiting uploads' temporary files go here, to be seen gone afterwards.
    const temporary = tempDir('cartelera-uploads-');
    const systemTemporary = process.env.TMPDIR;
    process.env.TMPDIR = temporary;
    try {
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      const movie = await createPelicula(app);
      // An uncompressed PNG of about 1 MB: far more than the buffers between a client and the route hold.
      const png = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#804020' } }).png({ compressionLevel: 0 }).toBuffer();
      const slots = await holdEveryUploadSlot(app, { recurso: 'peliculas', clave: movie.id }, png);
      const { headers, payload } = await form({ recurso: 'peliculas', clave: movie.id, alt: 'en espera' }, png);
      const waiting = http.request(`${address}/imagenes`, { method: 'POST', headers: { ...headers, 'content-length': payload.length } });
      let answered = false;
      const answer = once(waiting, 'response').then(async ([res]) => {
        answered = true;
        const r = res as http.IncomingMessage;
        return { status: r.statusCode, body: JSON.parse(await text(r)) as Json };
      });
      waiting.end(payload);
      await once(waiting, 'finish');
      // A request begun after it, cut for its clock: the waiting upload's REQUEST_TIMEOUT_MS has passed too.
      const later = connect(Number(new URL(address).port), '127.0.0.1');
      later.write('GET /health HTTP/1.1\r\nHost: x\r\n');
      later.setEncoding('utf8');
      const [cut] = (await once(later, 'data')) as [string];
      later.destroy();
      assert.match(cut, /^HTTP\/1\.1 408 /);
      assert.equal(answered, false, 'the upload was answered (cut) while it waited for its slot');
      assert.equal(readdirSync(temporary).length, 1, 'its file waits in a temporary file');
      // One over IMAGE_MAX_BYTES is refused while it is written there, and leaves nothing.
      assertError(await upload(app, { recurso: 'peliculas', clave: movie.id, alt: 'grande' }, Buffer.alloc(4 * 1024 * 1024 + 1)), 413, { details: 'El archivo supera el máximo de 4 MB.' });
      assert.equal(readdirSync(temporary).length, 1);
      assert.deepEqual(await slots.release(), Array.from({ length: slots.count }, () => 201));
      const { status, body } = await answer;
      assert.equal(status, 201, JSON.stringify(body));
      assert.equal(body.bytes, png.length);
      const listed = (await send(app, 'GET', `/imagenes?recurso=peliculas&clave=${movie.id}`)).json<Json[]>();
      assert.equal(listed.length, slots.count + 1);
      assert.deepEqual(readdirSync(temporary), []);
    } finally {
      if (systemTemporary === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = systemTemporary;
      await app.close();
    }
  });
});

describe('the renditions kept on disk', () => {
  it('when an image\'s renditions are made in turn, then each stays kept until one is made from a new state of the image', async () => {
    const cache = new RenditionCache(join(tempDir('cartelera-renditions-'), 'kept'), 1024 * 1024);
    const made: string[] = [];
    const get = (state: string, tag: string) => cache.get(7, state, tag, async () => (made.push(tag), Buffer.from(`${state} ${tag}`)));
    for (const tag of ['a', 'b', 'a', 'b']) await get('s1', tag);
    assert.deepEqual(made, ['a', 'b']);
    assert.equal((await get('s2', 'c')).toString(), 's2 c');
    assert.equal((await get('s2', 'a')).toString(), 's2 a');
    assert.deepEqual(made, ['a', 'b', 'c', 'a'], 'renditions of the image before it changed are made anew');
    cache.clear();
  });
});

describe('the originals kept in memory', () => {
  it('when renditions of the same images are made in turn, then each original is read once while it fits, the least recently used going first', async () => {
    const originals = new RecentOriginals(10);
    const reads: string[] = [];
    const get = (digest: string, bytes: number) => originals.get(digest, async () => (reads.push(digest), new Uint8Array(bytes).fill(digest.charCodeAt(0))));
    for (const digest of ['a', 'b', 'a', 'b', 'a']) await get(digest, 4);
    assert.deepEqual(reads, ['a', 'b']);
    assert.deepEqual([...(await get('a', 4))], [97, 97, 97, 97], 'the bytes as the store gave them');
    await get('c', 4); // 12 bytes: b, the least recently used, goes
    await get('a', 4);
    await get('b', 4);
    assert.deepEqual(reads, ['a', 'b', 'c', 'b']);
    await get('d', 11); // larger than the whole budget: read each time, never kept
    await get('d', 11);
    await get('a', 4);
    assert.deepEqual(reads, ['a', 'b', 'c', 'b', 'd', 'd']);
  });
});
