// A client of the live feed for tests: a service on a store over a real socket, a stream followed
// with fetch, and writes that ask for `connection: close`.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { TestStore } from './stores.js';

export interface Event {
  id: number;
  event: string;
  data: { id: number; recurso: string; clave: number; operacion: string };
}

/** A service on `store`, listening on 127.0.0.1. */
export async function serve(store: TestStore, env: Record<string, string> = {}): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildApp(loadConfig({ DATABASE_URL: store.url, LOG_LEVEL: 'silent', UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0', ...env }));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, base: address };
}

/**
 * Follows the feed at `url`; `stop` closes it. Events are collected as they come; `until` waits
 * (at most 20 s) for a condition on them.
 */
export function follow(url: string, headers: Record<string, string> = {}) {
  const events: Event[] = [];
  const controller = new AbortController();
  const comments: string[] = [];
  let status = 0;
  let contentType = '';
  const done = (async () => {
    const response = await fetch(url, { headers: { accept: 'text/event-stream', connection: 'close', ...headers }, signal: controller.signal });
    status = response.status;
    contentType = response.headers.get('content-type') ?? '';
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body) {
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
        if (block.startsWith(':')) comments.push(block);
        if (fields.data !== undefined) events.push({ id: Number(fields.id), event: String(fields.event), data: JSON.parse(String(fields.data)) as Event['data'] });
      }
    }
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) throw error;
  });
  return {
    events,
    comments,
    get status() {
      return status;
    },
    get contentType() {
      return contentType;
    },
    done,
    stop: () => controller.abort(),
    async until(holds: (events: Event[]) => boolean, what: string) {
      const deadline = Date.now() + 20_000;
      while (!holds(events)) {
        if (Date.now() > deadline) assert.fail(`the feed never delivered ${what}; got ${events.map((e) => e.id).join(',')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

// The test's requests ask for `connection: close`: on Node.js 24, closing a service waits for the
// client's idle keep-alive sockets to time out (60 s), which says nothing of the feed.
export async function post(base: string, path: string, body: unknown) {
  const response = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify(body) });
  const text = await response.text();
  assert.equal(response.status, 201, text);
  return JSON.parse(text) as { id: number };
}

/** An event as a raw stream received it, and when. */
export interface Received extends Event {
  at: number;
}

/**
 * Follows the feed at `base + path` over a raw socket, decoding the chunked answer itself, so that
 * a test sees what fetch hides: whether the answer ended with its last chunk (`0\r\n\r\n`), and
 * when each event arrived. `socket` can be paused (a reader that stops reading) and destroyed.
 */
export function rawFollow(base: string, path: string, headers: Record<string, string> = {}) {
  const url = new URL(path, base);
  const socket = connect(Number(url.port), url.hostname);
  const lines = Object.entries({ host: url.host, accept: 'text/event-stream', ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\n${lines.join('')}\r\n`);
  const connectedAt = Date.now();
  const events: Received[] = [];
  let head: string | undefined;
  let pending = Buffer.alloc(0);
  let body = '';
  let lastChunk = false;
  let closed = false;
  const decoder = new TextDecoder();
  const waiters = new Set<() => void>();
  const changed = () => waiters.forEach((wake) => wake());

  /** Takes whole chunks off `pending` into `body`. */
  const dechunk = () => {
    for (;;) {
      const eol = pending.indexOf('\r\n');
      if (eol < 0) return;
      const size = parseInt(pending.subarray(0, eol).toString('latin1'), 16);
      if (pending.length < eol + 2 + size + 2) return;
      if (size === 0) lastChunk = true;
      body += decoder.decode(pending.subarray(eol + 2, eol + 2 + size), { stream: true });
      pending = pending.subarray(eol + 2 + size + 2);
    }
  };
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    if (head === undefined) {
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      head = pending.subarray(0, end).toString('latin1');
      pending = pending.subarray(end + 4);
    }
    dechunk();
    let end: number;
    while ((end = body.indexOf('\n\n')) >= 0) {
      const block = body.slice(0, end);
      body = body.slice(end + 2);
      const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
      if (fields.data !== undefined) events.push({ id: Number(fields.id), event: String(fields.event), data: JSON.parse(String(fields.data)) as Event['data'], at: Date.now() });
    }
    changed();
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    closed = true;
    changed();
  });
  return {
    socket,
    events,
    connectedAt,
    /** The answer's status line and headers, once they came. */
    get head() {
      return head;
    },
    /** Whether the answer's last chunk came: the service ended it, rather than the connection being cut. */
    get ended() {
      return lastChunk;
    },
    get closed() {
      return closed;
    },
    /** Resolves when `holds` does, checked as data comes; fails after `ms`, or if the connection closes first. */
    until(holds: () => boolean, what: string, ms = 20_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (holds()) finish();
          else if (closed) finish(new Error(`the connection closed before ${what}; got ${events.length} events, the last ${events.at(-1)?.id}`));
        };
        const timer = setTimeout(() => finish(new Error(`no ${what} within ${ms} ms; got ${events.length} events, the last ${events.at(-1)?.id}`)), ms);
        const finish = (error?: Error) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolve();
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** Every change id of the log, a page at a time. */
export async function allLogIds(base: string): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const rows = (await (await fetch(`${base}/cambios?_page=${page}&_limit=1000`, { headers: { connection: 'close' } })).json()) as { id: number }[];
    ids.push(...rows.map((c) => c.id));
    if (rows.length < 1000) return ids;
  }
}
