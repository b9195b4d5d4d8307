// The live feed: GET /cambios as Server-Sent Events over real sockets, resumed with Last-Event-ID,
// filtered, and refused. Concurrent writers and processes: feedProcesses.test.ts; slow readers: feedPace.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { follow, post, serve } from '../feedClient.js';
import { freshStore, backend } from '../stores.js';

describe(`the live change feed (${backend})`, () => {
  it('when a stream opens, then it gets only what is committed after; resumed with Last-Event-ID, what it missed, then what comes, once each', async () => {
    const store = await freshStore();
    const { app, base } = await serve(store);
    try {
      await post(base, '/categorias', { nombre: 'Antes' });
      const first = follow(`${base}/cambios`);
      await first.until(() => first.status === 200, 'its headers');
      assert.equal(first.contentType, 'text/event-stream; charset=utf-8');
      await post(base, '/categorias', { nombre: 'Después' });
      await first.until((e) => e.length === 1, 'the change after it opened');
      assert.deepEqual(first.events.map((e) => [e.id, e.event, e.data.id, e.data.recurso]), [[2, 'cambio', 2, 'categorias']]);
      first.stop();

      await post(base, '/categorias', { nombre: 'Mientras tanto' });
      const resumed = follow(`${base}/cambios`, { 'last-event-id': '1' });
      await resumed.until((e) => e.length === 2, 'the changes it missed');
      await post(base, '/peliculas', { titulo: 'Roma', sipnosis: 'x', duracion: 135, categoria_id: 1 });
      await resumed.until((e) => e.length === 3, 'the next change');
      assert.deepEqual(resumed.events.map((e) => e.id), [2, 3, 4]);

      const filtered = follow(`${base}/cambios?recurso=peliculas`, {});
      const fromQuery = follow(`${base}/cambios?desde=0&recurso=categorias`);
      await fromQuery.until((e) => e.length === 3, 'the categories since 0');
      assert.deepEqual(fromQuery.events.map((e) => e.id), [1, 2, 3]);
      await filtered.until(() => filtered.status === 200, 'its headers');
      await post(base, '/categorias', { nombre: 'Otra' });
      await post(base, '/peliculas', { titulo: 'Zama', sipnosis: 'x', duracion: 115, categoria_id: 1 });
      await filtered.until((e) => e.length === 1, 'the movie');
      assert.deepEqual(filtered.events.map((e) => e.data.recurso), ['peliculas']);
      // Streams of different resources and of every resource, fed from the same reads of the log.
      await fromQuery.until((e) => e.length === 4, 'the new category');
      await resumed.until((e) => e.length === 5, 'both new changes');
      assert.deepEqual(fromQuery.events.map((e) => e.data.recurso), ['categorias', 'categorias', 'categorias', 'categorias']);
      assert.deepEqual(resumed.events.map((e) => e.data.recurso).slice(-2), ['categorias', 'peliculas']);
      for (const s of [resumed, filtered, fromQuery]) s.stop();
    } finally {
      await app.close();
      await store.drop();
    }
  });

  it("when an image is uploaded, edited, deleted, brought back by undo, and taken by its record's deletion and undo, then a stream of imagenes carries each change in order", async () => {
    const store = await freshStore();
    const { app, base } = await serve(store);
    const write = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(base + path, {
        method, headers: { connection: 'close', ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      assert.equal(response.status, 200, text);
      return JSON.parse(text) as unknown;
    };
    try {
      const images = follow(`${base}/cambios?recurso=imagenes`);
      await images.until(() => images.status === 200, 'its headers');
      const { dni } = (await post(base, '/artistas', { dni: 27000001, nombre: 'Ana', apellido: 'Pérez', tipo: 'actriz', descripcion: 'Actriz.' })) as unknown as { dni: number };
      const form = new FormData();
      form.append('recurso', 'artistas');
      form.append('clave', String(dni));
      form.append('alt', 'Retrato');
      form.append('archivo', new Blob([await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 0, g: 0, b: 255 } } }).png().toBuffer()]), 'retrato.png');
      const uploaded = await fetch(`${base}/imagenes`, { method: 'POST', headers: { connection: 'close' }, body: form });
      assert.equal(uploaded.status, 201, await uploaded.clone().text());
      const { id } = (await uploaded.json()) as { id: number };

      await write('PATCH', `/imagenes/${id}`, { alt: 'Retrato de Ana' });
      await write('DELETE', `/imagenes/${id}`);
      await images.until((e) => e.length === 3, 'the upload, the edit and the delete');
      await write('POST', `/cambios/${images.events[2]?.id}/deshacer`);
      await write('DELETE', `/artistas/${dni}`);
      await images.until((e) => e.length === 5, "the undo and the record's deletion");
      // The artist's baja, logged just before the image's baja that it caused.
      await write('POST', `/cambios/${(images.events[4]?.id ?? 0) - 1}/deshacer`);
      await images.until((e) => e.length === 6, "the undo of the record's deletion");

      assert.deepEqual(
        images.events.map((e) => [e.data.recurso, e.data.clave, e.data.operacion]),
        ['alta', 'modificacion', 'baja', 'alta', 'baja', 'alta'].map((operacion) => ['imagenes', id, operacion]),
      );
      assert.deepEqual(images.events.map((e) => e.id), [...images.events.map((e) => e.id)].sort((a, b) => a - b));
      const back = await fetch(`${base}/imagenes/${id}`, { headers: { connection: 'close' } });
      assert.equal(back.status, 200);
      assert.equal(((await back.json()) as { alt: string }).alt, 'Retrato de Ana');
      images.stop();
    } finally {
      await app.close();
      await store.drop();
    }
  });

  it('when a stream opens while others are followed, then it leaves out what was committed just before, though the poller has not read it yet', async () => {
    const store = await freshStore();
    const { app, base } = await serve(store);
    try {
      // A first stream keeps the poller running, so its last look at the log is up to 250 ms old.
      const earlier = follow(`${base}/cambios`);
      await earlier.until(() => earlier.status === 200, 'its headers');
      for (let round = 0; round < 5; round++) {
        await post(base, '/categorias', { nombre: `Antes ${round}` });
        const later = follow(`${base}/cambios`);
        await later.until(() => later.status === 200, 'its headers');
        const after = await post(base, '/categorias', { nombre: `Después ${round}` });
        await later.until((e) => e.length >= 1, 'the change after it opened');
        assert.deepEqual(later.events.map((e) => e.data.clave), [after.id]);
        later.stop();
      }
      await earlier.until((e) => e.length === 10, 'all ten changes');
      earlier.stop();
    } finally {
      await app.close();
      await store.drop();
    }
  });

  it('when streams are at CHANGES_MAX_STREAMS (whatever the case of Accept), or the start is not an id, then the refusal is in the error body; on close, open streams end', async () => {
    const store = await freshStore();
    const { app, base } = await serve(store, { CHANGES_MAX_STREAMS: '1' });
    try {
      const open = follow(`${base}/cambios`);
      await open.until(() => open.status === 200, 'its headers');
      const refused = await fetch(`${base}/cambios`, { headers: { accept: 'text/event-stream' } });
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '5');
      assert.equal(((await refused.json()) as { details: string }).details, 'Hay demasiados flujos de cambios abiertos; vuelva a intentarlo en unos segundos.');
      // Media types are case-insensitive (RFC 9110): this asks for a stream too, not for the JSON list.
      const shouted = await fetch(`${base}/cambios`, { headers: { accept: 'TEXT/EVENT-STREAM' } });
      assert.equal(shouted.status, 503);
      await shouted.body?.cancel();
      const bad = await fetch(`${base}/cambios`, { headers: { accept: 'text/event-stream', 'last-event-id': 'ayer' } });
      assert.equal(bad.status, 400);
      assert.match(((await bad.json()) as { details: string }).details, /'ayer' no es un id de cambio/);
      await app.close();
      await open.done;
      assert.equal(open.events.length, 0);
    } finally {
      await app.close();
      await store.drop();
    }
  });
});
