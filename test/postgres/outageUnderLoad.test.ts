import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { openDatabase } from '../../src/db/connect.js';
import { startEmbeddedPostgres, type RunningPostgres } from '../embedded-postgres.js';
import { ERROR_TIMESTAMP, type Json } from '../helpers.js';
import { seededRandom, seedFor } from '../random.js';
import { startService, type Service } from '../service.js';

// A real PostgreSQL server of this test's own, shut down for a few seconds and started again on
// the same data, while a real service process (npm start) serves readers and writers throughout.

/** The service's waits, set explicitly below. */
const STATEMENT_TIMEOUT_MS = 1000;
const DATABASE_WAIT_MS = 10000;
/** How long the pg pool waits for a connection, fixed in src/db/connect.ts (connectionTimeoutMillis). */
const CONNECT_TIMEOUT_MS = 5000;
/**
 * No answer may take longer: at worst a request waits for a connection, then runs into a
 * statement timeout, with room for a busy machine. (A refused connection answers at once.)
 */
const ANSWER_BOUND_MS = CONNECT_TIMEOUT_MS + STATEMENT_TIMEOUT_MS + 1000;
/** Past the bound, so that a hung request is measured as such rather than holding up the test. */
const GIVE_UP_MS = ANSWER_BOUND_MS + 10000;
/** Longer than the bound: a service that held requests until the database came back would break it. */
const OUTAGE_MS = ANSWER_BOUND_MS + 1000;
const WRITERS = 4;
const READERS = 4;

const UNAVAILABLE = 'La base de datos no está disponible.';

interface Call {
  method: string;
  path: string;
  started: number;
  ended: number;
  /** 0: no answer within GIVE_UP_MS. */
  status: number;
  retryAfter: string | null;
  answer: unknown;
}

/** A record's possible states in the store: one once a write of it is acknowledged, more while a 503'd write may or may not have committed. */
interface Slot {
  table: 'peliculas' | 'artistas';
  /** Its key, once a create was acknowledged; else it is found by `titulo`. */
  key?: number;
  titulo?: string;
  /** null: not there. An `id` of undefined stands for any id. */
  states: (Json | null)[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ok = (call: Call) => call.status >= 200 && call.status <= 299;

describe('when the PostgreSQL server stops under load and starts again', () => {
  let database: RunningPostgres | undefined;
  let service: Service | undefined;
  before(async () => {
    database = await startEmbeddedPostgres();
    service = await startService({
      DATABASE_URL: database.url,
      LOG_LEVEL: 'warn',
      DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      DATABASE_WAIT_MS: String(DATABASE_WAIT_MS),
      // Load shedding answers 503 too; off, so that every 503 here is the database's.
      UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    });
    await service.healthy(30000);
  });
  after(async () => {
    await service?.stop('SIGKILL');
    await database?.stop();
  });

  it('then it answers 503 quickly while the server is down, never 500, keeps running, and serves normally once it is back', { timeout: 120000 }, async (t) => {
    // Which acknowledged record each lookup checks.
    const random = seededRandom(seedFor(t));
    assert.ok(database && service);
    const db = database;
    const { base } = service;
    const calls: Call[] = [];

    async function call(method: string, path: string, body?: Json): Promise<Call> {
      const started = Date.now();
      let status = 0;
      let retryAfter: string | null = null;
      let answer: unknown;
      try {
        const res = await fetch(`${base}${path}`, {
          method,
          ...(body && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(GIVE_UP_MS),
        });
        answer = await res.json();
        status = res.status;
        retryAfter = res.headers.get('retry-after');
      } catch {
        // Left as status 0: no answer, which fails the test below.
      }
      const done: Call = { method, path, started, ended: Date.now(), status, retryAfter, answer };
      calls.push(done);
      return done;
    }

    const categoria = await call('POST', '/categorias', { nombre: 'Cine de la caída' });
    assert.equal(categoria.status, 201);
    const categoria_id = (categoria.answer as Json).id;

    const slots: Slot[] = [];
    /** Movies whose every write was acknowledged, with when: any read that starts later must see them so. */
    const settled: { since: number; record: Json }[] = [];
    let running = true;

    /**
     * What `write` leaves of `slot`: its answer, once acknowledged. A 503 may have cut off the
     * answer to a commit, so then each state so far stays possible, with `change` made to it or not.
     */
    function track(slot: Slot, write: Call, change: (state: Json | null) => Json): Json | undefined {
      if (ok(write)) {
        slot.states = [write.answer as Json];
        return write.answer as Json;
      }
      if (write.status === 503) slot.states = [...slot.states, ...slot.states.map(change)];
      return undefined;
    }

    async function writer(w: number) {
      for (let n = 1; running; n++) {
        const titulo = `Película w${w} n${n}`;
        const body = { titulo, sipnosis: 'Antes del corte.', duracion: 90, categoria_id };
        const movie: Slot = { table: 'peliculas', titulo, states: [null] };
        slots.push(movie);
        const created = track(movie, await call('POST', '/peliculas', body), () => ({ id: undefined, ...body }));
        if (created) {
          const id = Number(created.id);
          movie.key = id;
          // Several fields at once, then a PATCH, which runs in a transaction.
          const replacement = { titulo: `${titulo} v2`, sipnosis: 'Después del corte.', duracion: 91, categoria_id };
          const replaced = track(movie, await call('PUT', `/peliculas/${id}`, replacement), () => ({ id, ...replacement }));
          const patched = track(movie, await call('PATCH', `/peliculas/${id}`, { duracion: 92 }), (state) => ({ ...state, duracion: 92 }));
          if (replaced && patched) settled.push({ since: Date.now(), record: patched });
        }
        const dni = 30_000_000 + w * 100_000 + n;
        const artist = { dni, nombre: 'Leonor', apellido: `Benedetto ${w}`, tipo: 'actriz', descripcion: 'Actriz de reparto.' };
        const artistSlot: Slot = { table: 'artistas', key: dni, states: [null] };
        slots.push(artistSlot);
        track(artistSlot, await call('POST', '/artistas', artist), () => artist);
        // A client of an unavailable service does not spin.
        if (calls.at(-1)?.status === 503) await sleep(20);
      }
    }

    async function reader() {
      while (running) {
        const since = Date.now();
        const known = settled.filter((s) => s.since < since);
        const list = await call('GET', '/peliculas');
        if (ok(list)) {
          const byId = new Map((list.answer as Json[]).map((m) => [m.id, m]));
          for (const { record } of known) assert.deepEqual(byId.get(record.id), record, 'a list misses or misstates an acknowledged write');
        }
        const one = known[Math.floor(random() * known.length)];
        if (one) {
          const read = await call('GET', `/peliculas/${encodeURIComponent(String(one.record.titulo))}`);
          if (ok(read)) assert.deepEqual(read.answer, one.record, 'a lookup misstates an acknowledged write');
        }
        const page = await call('GET', '/artistas?_limit=5&_sort=-dni');
        if (ok(page)) assert.ok(Array.isArray(page.answer) && page.answer.length <= 5);
        if (calls.at(-1)?.status === 503) await sleep(20);
      }
    }

    const health: { at: number; status: number }[] = [];
    async function monitor() {
      while (running) {
        const probe = await call('GET', '/health');
        health.push({ at: probe.ended, status: probe.status });
        await sleep(100);
      }
    }

    const load = Promise.all([
      ...Array.from({ length: WRITERS }, (_, w) => writer(w + 1)),
      ...Array.from({ length: READERS }, () => reader()),
      monitor(),
    ]);
    let healthyAgain = 0;
    let stoppedAt = 0;
    let backAt = 0;
    let live: Call | undefined;
    try {
      // Deliberate pacing, the test's subject being time: the load runs 1.5 s before the outage,
      // OUTAGE_MS during it, and 1.5 s once /health is 200 again.
      await sleep(1500);
      stoppedAt = Date.now();
      await db.halt();
      await sleep(OUTAGE_MS);
      live = await call('GET', '/health/live');
      await db.resume();
      backAt = Date.now();
      const deadline = Date.now() + 15000;
      while (!healthyAgain && Date.now() < deadline) {
        healthyAgain = health.find((h) => h.at > backAt && h.status === 200)?.at ?? 0;
        await sleep(50);
      }
      await sleep(1500);
    } finally {
      running = false;
      await load;
    }

    const exited = service.child.exitCode ?? service.child.signalCode;
    assert.equal(exited, null, `the service is still running; it printed:\n${service.output().slice(-3000)}`);
    assert.ok(healthyAgain, '/health is 200 again within 15 s of the database being back');
    assert.equal(live?.status, 200, '/health/live answers while the database is down');

    // Every answer: quick, and either a success or the contract's 503.
    const hung = calls.filter((c) => c.status === 0);
    assert.deepEqual(hung.map((c) => `${c.method} ${c.path}`), [], `requests with no answer within ${GIVE_UP_MS} ms`);
    const slow = calls.filter((c) => c.ended - c.started > ANSWER_BOUND_MS);
    assert.deepEqual(slow.map((c) => `${c.method} ${c.path}: ${c.ended - c.started} ms`), [], `answers slower than ${ANSWER_BOUND_MS} ms`);
    const unavailable = calls.filter((c) => c.status === 503);
    for (const c of calls.filter((c) => !ok(c))) {
      assert.equal(c.status, 503, `${c.method} ${c.path}: ${c.status} ${JSON.stringify(c.answer)}`);
      const path = c.path.split('?')[0] ?? '';
      const body = c.answer as Json;
      assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'location', 'moreInfo', 'timestamp', 'type']);
      assert.deepEqual({ ...body, timestamp: undefined }, {
        type: 'error', code: '503', details: UNAVAILABLE, location: `uri=${path}`, moreInfo: `Servicio no disponible en la ruta: ${path}`, timestamp: undefined,
      });
      assert.match(String(body.timestamp), ERROR_TIMESTAMP);
      assert.equal(c.retryAfter, '1');
    }
    // 503 only while the database was away: before it stopped and once /health was back, all succeed.
    const outside = calls.filter((c) => c.ended < stoppedAt || c.started > healthyAgain);
    assert.deepEqual(outside.filter((c) => !ok(c)).map((c) => `${c.method} ${c.path}: ${c.status}`), [], 'failures while the database was up');
    assert.ok(outside.filter((c) => c.started > healthyAgain && c.method !== 'GET').length > 0, 'writes after the recovery');

    const during = calls.filter((c) => c.started < backAt && c.ended > stoppedAt);
    assert.ok(unavailable.length > 0, 'the outage was felt');
    assert.ok(health.some((h) => h.at > stoppedAt && h.at < backAt && h.status === 503), '/health was 503 during the outage');

    // Every acknowledged write is in the database; a 503'd one wholly or not at all; nothing else is there.
    const store = openDatabase(db.url, { poolMax: 1, statementTimeoutMs: 30000 });
    let cutOffButDone = 0;
    try {
      const movies = await store.selectFrom('peliculas').select(['id', 'titulo', 'sipnosis', 'duracion', 'categoria_id']).execute();
      const artists = await store.selectFrom('artistas').select(['dni', 'nombre', 'apellido', 'tipo', 'descripcion']).execute();
      const unclaimed = new Map<string, Json>([
        ...movies.map((m): [string, Json] => [`peliculas/${m.id}`, m]),
        ...artists.map((a): [string, Json] => [`artistas/${a.dni}`, a]),
      ]);
      for (const slot of slots) {
        const found =
          slot.key !== undefined
            ? unclaimed.get(`${slot.table}/${slot.key}`)
            : [...unclaimed].find(([k, row]) => k.startsWith('peliculas/') && row.titulo === slot.titulo)?.[1];
        const matches = (state: Json | null) =>
          state === null ? found === undefined : found !== undefined && isDeepStrictEqual(state.id === undefined && 'id' in state ? { ...found, id: undefined } : found, state);
        assert.ok(slot.states.some(matches), `${slot.table} ${slot.key ?? slot.titulo}: found ${JSON.stringify(found)}, expected one of ${JSON.stringify(slot.states)}`);
        if (slot.states.length > 1 && !matches(slot.states[0] ?? null)) cutOffButDone++;
        if (found) unclaimed.delete(`${slot.table}/${found.id ?? found.dni}`);
      }
      assert.deepEqual([...unclaimed.values()], [], 'rows that no write made');
    } finally {
      await store.destroy();
    }

    assert.equal(await service.stop('SIGTERM'), 0, 'and it still stops cleanly');
    const slowest = Math.max(...during.map((c) => c.ended - c.started));
    t.diagnostic(
      `outage: database down ${backAt - stoppedAt} ms, /health 200 again ${healthyAgain - backAt} ms after it was back; ` +
        `${during.length} requests during the outage, ${unavailable.length} answered 503, none other than 2xx or 503; slowest answer during it ${slowest} ms (bound ${ANSWER_BOUND_MS} ms); ` +
        `${calls.length} requests in all; all ${calls.filter((c) => c.method !== 'GET' && ok(c)).length} acknowledged writes found in the database, ` +
        `and ${cutOffButDone} of those answered 503 had committed`,
    );
  });
});
