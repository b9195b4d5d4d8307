import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { before, describe, it } from 'node:test';
import { harness } from '../harness.js';
import { backend } from '../stores.js';

// Lingering close (src/ops/limits.ts): a request refused before it was read whole gets its answer,
// then the service reads and drops what the client still sends before it closes. Closing at once
// with the client's bytes unread makes the system reset the connection, and a client still
// sending loses the answer (EPIPE or ECONNRESET on its writes, and often no answer to read).

interface Outcome {
  /** Bytes the client wrote before the connection ended. */
  sent: number;
  /** What its writes failed with, if they did. */
  failure: string | undefined;
  /** Everything it read. */
  answer: string;
}

/**
 * A client that writes `head`, then `size` bytes in 16 kB chunks, `pauseMs` apart (a client on a
 * real network is slower than this machine's loopback, whose buffers would otherwise take a
 * whole 2 MB at once), then `tail`, reading all the while; it keeps sending after the service has
 * closed its side (as a client busy uploading does), then closes its own.
 */
async function keepSending(port: number, head: string, size: number, tail = '', pauseMs = 1): Promise<Outcome> {
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  let answer = '';
  let failure: string | undefined;
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
  socket.on('error', (error: NodeJS.ErrnoException) => (failure = error.code ?? error.message));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await once(socket, 'connect');
  let sent = 0;
  const write = async (data: string | Buffer) => {
    if (socket.destroyed) return;
    sent += data.length;
    // A failed write is recorded by the 'error' listener above.
    if (!socket.write(data)) await Promise.race([once(socket, 'drain').catch(() => {}), closed]);
  };
  await write(head);
  const chunk = Buffer.alloc(16 * 1024, 'a');
  for (let left = size; left > 0 && !socket.destroyed; left -= chunk.length) {
    await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  await write(tail);
  if (!socket.destroyed) socket.end();
  await closed;
  return { sent, failure, answer };
}

function errorBodyOf(answer: string): Record<string, unknown> {
  const [, body = ''] = answer.split('\r\n\r\n');
  return JSON.parse(body) as Record<string, unknown>;
}

const started = harness();

describe(`lingering close, over a real socket (${backend})`, () => {
  // The service as npm start runs it, in a process of its own: the client's and the service's
  // sockets then run side by side, as they do in production.
  let port: number;
  before(async () => {
    const store = await started.store();
    const service = await started.service({ DATABASE_URL: store.url, LOG_LEVEL: 'warn' });
    await service.healthy(30000);
    port = Number(new URL(service.base).port);
  });

  it('when a client keeps sending a 2 MB body past the 1 MiB limit, then it sends it all and reads the 413 with its error body', async () => {
    const size = 2 * 1024 * 1024;
    const head = `POST /peliculas HTTP/1.1\r\nHost: cartelera\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`;
    const outcome = await keepSending(port, head, size);
    assert.equal(outcome.failure, undefined, `its writes failed: ${outcome.failure}`);
    assert.equal(outcome.sent, head.length + size);
    assert.match(outcome.answer, /^HTTP\/1\.1 413 /);
    assert.match(outcome.answer, /\r\nconnection: close\r\n/i);
    const body = errorBodyOf(outcome.answer);
    assert.equal(body.code, '413');
    assert.equal(body.location, 'uri=/peliculas');
  });

  it('when a client sends a 100 kB header, then it reads the 431 with its error body', async () => {
    const size = 100 * 1024;
    const head = 'GET /peliculas HTTP/1.1\r\nHost: cartelera\r\nX-Grande: ';
    const outcome = await keepSending(port, head, size, '\r\n\r\n');
    assert.equal(outcome.failure, undefined, `its writes failed: ${outcome.failure}`);
    assert.equal(outcome.sent, head.length + size + 4);
    assert.match(outcome.answer, /^HTTP\/1\.1 431 /);
    const body = errorBodyOf(outcome.answer);
    assert.equal(body.code, '431');
    assert.equal(body.details, 'Las cabeceras de la petición superan el límite de 16384 bytes.');
  });

  it('when a client sends more than the lingering bound, then the service lets it go', async () => {
    // Past LINGER_BYTES (8 MiB; looked at every 10 ms) the connection is closed under the client, which is the bound working.
    const size = 48 * 1024 * 1024;
    const head = `POST /peliculas HTTP/1.1\r\nHost: cartelera\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`;
    const outcome = await keepSending(port, head, size, '', 0);
    assert.ok(outcome.sent < head.length + size, `it sent ${outcome.sent} bytes, all of them`);
    assert.ok(outcome.failure === 'ECONNRESET' || outcome.failure === 'EPIPE', `its writes failed with ${outcome.failure}`);
  });
});
