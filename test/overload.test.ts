import assert from 'node:assert/strict';
import { once } from 'node:events';
import { get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import { startService, type Service } from './service.js';
import { backend, freshStore, type TestStore } from './stores.js';

const MAX_CONNECTIONS = 10;
const HEADERS_TIMEOUT_MS = 2000;
// Past HEADERS_TIMEOUT_MS + CUT_SLACK_MS, so that a headers cut cannot be the request timeout's.
const REQUEST_TIMEOUT_MS = 5000;
const MAX_HEADER_BYTES = 8192;
// Node looks for expired requests once a second; the rest is for a busy machine.
const CUT_SLACK_MS = 2500;
const REQUEST_TIMEOUT = 'La petición no llegó completa a tiempo; se cerró la conexión.';

/** A connection the test holds open, recording what the service sends and when it closes it. */
interface Held {
  socket: Socket;
  opened: number;
  received: string;
  closedAt?: number;
  /** Resolves once the connection is made (in the service's queue of connections to accept), or has failed. */
  connected: Promise<void>;
  closed: Promise<void>;
}

/** Every connection held, so that a failing test leaves none behind for the next. */
const holding: Held[] = [];

/** Connects, sends `first`, then `trickle` every 200 ms (keeping the connection busy) until the service closes it. */
function hold(port: number, first: string, trickle = ''): Held {
  const socket: Socket = connect(port, '127.0.0.1');
  const held: Held = { socket, opened: Date.now(), received: '', connected: Promise.resolve(), closed: Promise.resolve() };
  holding.push(held);
  const timer = setInterval(() => trickle && socket.writable && socket.write(trickle), 200);
  held.closed = new Promise((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      held.closedAt = Date.now();
      resolve();
    });
  });
  held.connected = Promise.race([once(socket, 'connect').then(() => {}, () => {}), held.closed]);
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (held.received += chunk));
  // A refused or cut connection may be reset; 'close' records it.
  socket.on('error', () => {});
  if (first) socket.write(first);
  return held;
}

/** GET over a connection of its own (no keep-alive pool), so that the test knows every connection it holds. */
function fetchAlone(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = get(`${base}${path}`, { agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error(`GET ${path}: no answer in 5 s`)));
  });
}

/**
 * Waits until the connections are made, in order: the service accepts them in the order they were
 * made, so that those opened later are the ones past its cap.
 */
const connected = (held: Held[]) => Promise.all(held.map((h) => h.connected));

/** Waits until the service has closed `count` of `held` (all by default), or fails after `ms`. */
async function closedWithin(held: Held[], ms: number, count = held.length): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let enough: () => void = () => {};
  const reached = new Promise<void>((resolve) => (enough = resolve));
  const check = () => held.filter((h) => h.closedAt !== undefined).length >= count && enough();
  for (const h of held) void h.closed.then(check);
  check();
  await Promise.race([reached, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
  const closed = held.filter((h) => h.closedAt !== undefined).length;
  assert.ok(closed >= count, `${closed} of ${held.length} connections closed after ${ms} ms; expected ${count}`);
}

/** The status and the error body of a raw HTTP answer. */
function parseAnswer(raw: string): { status: number; body: Record<string, unknown> } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]), body: JSON.parse(body) as Record<string, unknown> };
}

describe(`slow and excess clients, over a real port (${backend})`, () => {
  let store: TestStore;
  let service: Service;
  let port: number;
  before(async () => {
    store = await freshStore();
    service = await startService({
      DATABASE_URL: store.url,
      LOG_LEVEL: 'warn',
      MAX_CONNECTIONS: String(MAX_CONNECTIONS),
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      MAX_HEADER_BYTES: String(MAX_HEADER_BYTES),
    });
    await service.healthy();
    port = Number(new URL(service.base).port);
  });
  afterEach(() => {
    for (const h of holding.splice(0)) h.socket.destroy();
  });
  after(async () => {
    await service?.stop();
    await store?.drop();
  });

  it('when slow clients hold connections, then others are served, excess connections are refused, and the slow ones are cut with 408', async () => {
    // Headers that never end, one line every 200 ms; bodies that never end, one byte every 200 ms.
    const slowHeaders = Array.from({ length: 3 }, () => hold(port, 'GET /peliculas HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Lento: si\r\n'));
    const slowBodies = Array.from({ length: 3 }, () =>
      hold(port, 'POST /categorias HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"nombre":"', 'a'),
    );
    await connected([...slowHeaders, ...slowBodies]);

    // (b) While they are held, a normal client is served.
    const served = await fetchAlone(service.base, '/health');
    assert.equal(served.status, 200, served.body);
    assert.deepEqual(JSON.parse(served.body), { status: 'ok' });
    assert.equal((await fetchAlone(service.base, '/categorias')).status, 200);

    // (c) Connections past MAX_CONNECTIONS are closed at once, without an answer. At most the
    // MAX_CONNECTIONS - 6 left are accepted (fewer if healthy()'s keep-alive connection holds one).
    const idle = Array.from({ length: MAX_CONNECTIONS }, () => hold(port, ''));
    await connected(idle);
    await closedWithin(idle, HEADERS_TIMEOUT_MS - 100, idle.length - (MAX_CONNECTIONS - 6));
    await assert.rejects(fetchAlone(service.base, '/health'), 'a new client is refused while every connection is taken');
    for (const h of [...slowHeaders, ...slowBodies]) assert.equal(h.closedAt, undefined, 'the slow ones are still held');

    // (a) Each slow connection is answered 408 in the error body and closed, once its timeout has passed.
    const cut = async (held: Held[], timeoutMs: number, location: string) => {
      await closedWithin(held, timeoutMs + CUT_SLACK_MS);
      for (const h of held) {
        const lived = (h.closedAt ?? 0) - h.opened;
        assert.ok(lived >= timeoutMs - 100 && lived <= timeoutMs + CUT_SLACK_MS, `closed after ${lived} ms`);
        const { status, body } = parseAnswer(h.received);
        assert.equal(status, 408);
        assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'location', 'moreInfo', 'timestamp', 'type']);
        assert.equal(body.code, '408');
        assert.equal(body.details, REQUEST_TIMEOUT);
        assert.equal(body.location, location);
      }
    };
    await cut(slowHeaders, HEADERS_TIMEOUT_MS, 'uri=');
    await cut(slowBodies, REQUEST_TIMEOUT_MS, 'uri=/categorias');
    await closedWithin(idle, HEADERS_TIMEOUT_MS + CUT_SLACK_MS);
    // Each was either refused at once, with nothing sent, or accepted and cut like the slow ones.
    const refused = idle.filter((h) => h.received === '');
    assert.ok(refused.length >= idle.length - (MAX_CONNECTIONS - 6), `refused ${refused.length} of ${idle.length}`);
    for (const h of refused) assert.ok((h.closedAt ?? 0) - h.opened < HEADERS_TIMEOUT_MS - 100, `refused after ${(h.closedAt ?? 0) - h.opened} ms`);
    for (const h of idle.filter((h) => !refused.includes(h))) assert.equal(parseAnswer(h.received).status, 408, 'a connection that sends nothing is cut too');

    // Capacity is back, and the cut writes stored nothing.
    assert.equal((await fetchAlone(service.base, '/health')).status, 200);
    assert.deepEqual(JSON.parse((await fetchAlone(service.base, '/categorias')).body), []);
  });

  it('when the headers are over MAX_HEADER_BYTES, then 431 in the error body', async () => {
    const held = hold(port, `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Grande: ${'a'.repeat(MAX_HEADER_BYTES)}\r\n\r\n`);
    await closedWithin([held], 2000);
    const { status, body } = parseAnswer(held.received);
    assert.equal(status, 431);
    assert.equal(body.code, '431');
    assert.equal(body.details, `Las cabeceras de la petición superan el límite de ${MAX_HEADER_BYTES} bytes.`);
    assert.equal(body.location, 'uri=/health');
    assert.equal(body.moreInfo, 'No se pudo leer la petición en: /health');
    // Just under the limit is fine.
    assert.equal((await fetchAlone(service.base, '/health', { 'x-grande': 'a'.repeat(MAX_HEADER_BYTES - 500) })).status, 200);
  });
});

describe(`many slow clients at the default connection cap, over a real port (${backend})`, () => {
  const SLOW = 400;
  const NORMAL = 100;
  let store: TestStore;
  let service: Service;
  before(async () => {
    store = await freshStore();
    service = await startService({
      DATABASE_URL: store.url,
      LOG_LEVEL: 'warn',
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    });
    await service.healthy();
  });
  afterEach(() => {
    for (const h of holding.splice(0)) h.socket.destroy();
  });
  after(async () => {
    await service?.stop();
    await store?.drop();
  });

  it(`when ${SLOW} slow clients trickle headers and bodies, then ${NORMAL} normal requests meanwhile are answered, and every slow one is cut with 408`, async (t) => {
    const port = Number(new URL(service.base).port);
    const held = Array.from({ length: SLOW }, (_, i) =>
      i % 2 === 0
        ? hold(port, 'GET /peliculas HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Lento: si\r\n')
        : hold(port, 'POST /categorias HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"nombre":"', 'a'),
    );
    await connected(held);

    // Ten at a time, while every slow connection is held.
    const times: number[] = [];
    for (let batch = 0; batch < NORMAL / 10; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const started = Date.now();
          const res = await fetchAlone(service.base, i % 2 === 0 ? '/health' : '/categorias');
          times.push(Date.now() - started);
          assert.equal(res.status, 200, res.body);
        }),
      );
    }
    const stillHeld = held.filter((h) => h.closedAt === undefined).length;
    assert.equal(stillHeld, SLOW, 'every slow connection was still held while the normal requests were served');
    const slowest = Math.max(...times);
    assert.ok(slowest < 2000, `the slowest normal request took ${slowest} ms`);

    await closedWithin(held, REQUEST_TIMEOUT_MS + CUT_SLACK_MS);
    for (const h of held) assert.equal(parseAnswer(h.received).status, 408);
    assert.deepEqual(JSON.parse((await fetchAlone(service.base, '/categorias')).body), [], 'the cut writes stored nothing');
    t.diagnostic(`${SLOW} slow connections held; ${NORMAL} normal requests served meanwhile, slowest ${slowest} ms; every slow one cut with 408`);
  });
});
