// A client of the live feed for tests: a service on a store over a real socket, a stream followed
// with fetch, and writes that ask for `connection: close`.
import assert from 'node:assert/strict';
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
export const logIds = async (base: string) => ((await (await fetch(`${base}/cambios?_limit=1000`)).json()) as { id: number }[]).map((c) => c.id);
