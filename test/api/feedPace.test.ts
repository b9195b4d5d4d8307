// The live feed at the pace of its reader: a reader far behind gets the whole log however slowly it
// reads, the service holding little of it at a time; one that stops reading is let go.
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { allLogIds, post, rawFollow, serve } from '../feedClient.js';
import { backend, freshStore, type TestStore } from '../stores.js';

/**
 * Movies created, then each replaced once: about 9 MB of changes, more than the 1 MiB a stream
 * could once hold for its reader, and than the kernel's socket buffers (4 MB at most to send).
 */
const MOVIES = 200;
const CHANGES = 1 + 2 * MOVIES;
/** What the service may hold for one stream beyond the socket's own buffer: its high-water mark and one event. */
const HELD = 256 * 1024;

describe(`the live feed's pace (${backend})`, () => {
  let store: TestStore;
  let app: FastifyInstance;
  let base: string;
  /** The service's side of each connection, by the client's port. */
  const sockets = new Map<number, Socket>();

  before(async () => {
    store = await freshStore();
    ({ app, base } = await serve(store, { CHANGES_STALL_SECONDS: '2' }));
    app.server.on('connection', (socket: Socket) => sockets.set(socket.remotePort ?? 0, socket));
  });
  after(async () => {
    await app.close();
    await store.drop();
  });

  /** The log the tests read: written by the first test, while a reader follows it live. */
  async function writeLog(): Promise<void> {
    const { id } = await post(base, '/categorias', { nombre: 'Cine' });
    // Three bytes a character in UTF-8: 15 KB a movie, 30 KB a replacement (before and after).
    const sipnosis = (c: string) => c.repeat(5000);
    const movie = (i: number, c: string) => ({ titulo: `Película ${i}`, sipnosis: sipnosis(c), duracion: 90, categoria_id: id });
    for (let i = 0; i < MOVIES; i += 50) {
      const created = await Promise.all(Array.from({ length: 50 }, (_, j) => post(base, '/peliculas', movie(i + j, '€'))));
      await Promise.all(created.map(async ({ id: key }, j) => {
        const replaced = await fetch(`${base}/peliculas/${key}`, { method: 'PUT', headers: { 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify(movie(i + j, '¥')) });
        assert.equal(replaced.status, 200, await replaced.text());
      }));
    }
  }

  /** The most bytes the service held for the reader on `port` while `during` ran, sampled every 10 ms. */
  async function mostHeld(port: number, during: Promise<void>): Promise<number> {
    let most = 0;
    let running = true;
    const sampled = (async () => {
      while (running) {
        most = Math.max(most, sockets.get(port)?.writableLength ?? 0);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    try {
      await during;
    } finally {
      running = false;
      await sampled;
    }
    return most;
  }

  it('when a live reader takes a little each half second while 9 MB of changes are written, then the service holds a bounded part for it, and it gets every change in order once it reads', async () => {
    const reader = rawFollow(base, '/cambios');
    await reader.until(() => reader.head !== undefined, 'the answer');
    reader.socket.pause();
    const sipping = setInterval(() => {
      reader.socket.resume();
      setImmediate(() => reader.socket.pause());
    }, 500);
    const held = await mostHeld(reader.socket.localPort ?? 0, writeLog()).finally(() => clearInterval(sipping));
    reader.socket.resume();
    await reader.until(() => reader.events.length === CHANGES, 'every change');
    assert.deepEqual(reader.events.map((e) => e.id), await allLogIds(base));
    assert.ok(held <= HELD, `the service held ${held} bytes for a slow reader`);
    reader.socket.destroy();
  });

  it('when a reader starts at desde=0 on a log over 1 MiB and pauses its reading, then it gets every change in order once it reads again, the service holding a bounded part', async () => {
    const log = await allLogIds(base);
    assert.equal(log.length, CHANGES);
    const reader = rawFollow(base, '/cambios?desde=0');
    await reader.until(() => reader.events.length > 0, 'a first event');
    reader.socket.pause();
    const port = reader.socket.localPort ?? 0;
    // Paused for a second, under the two the service waits for a reader that takes nothing.
    const held = await mostHeld(port, new Promise((resolve) => setTimeout(resolve, 1000)));
    reader.socket.resume();
    await reader.until(() => reader.events.length === CHANGES, 'the whole log');
    assert.deepEqual(reader.events.map((e) => e.id), log);
    assert.ok(held <= HELD, `the service held ${held} bytes for a paused reader`);
    assert.equal(reader.closed, false);
    reader.socket.destroy();
  });

  it('when a reader at desde=0 stops reading, then the service disconnects it after CHANGES_STALL_SECONDS, having held a bounded part of the log', async () => {
    const reader = rawFollow(base, '/cambios?desde=0');
    await reader.until(() => reader.head !== undefined, 'the answer');
    reader.socket.pause();
    const port = reader.socket.localPort ?? 0;
    const opened = Date.now();
    const server = sockets.get(port);
    assert.ok(server, 'the service saw the connection');
    const closed = new Promise<void>((resolve, reject) => {
      const late = setTimeout(() => reject(new Error('the service never let go of a reader that stopped reading')), 60_000);
      server.once('close', () => resolve(clearTimeout(late)));
    });
    const held = await mostHeld(port, closed);
    const waited = Date.now() - opened;
    assert.ok(waited >= 2000, `disconnected after ${waited} ms`);
    assert.ok(held <= HELD, `the service held ${held} bytes for a reader that stopped`);
    reader.socket.destroy();
  });
});
