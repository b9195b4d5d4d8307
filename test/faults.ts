// The fault tests' writers (test/sqlite/faults.test.ts, test/postgres/faults.test.ts): every kind
// of write, over HTTP, throughout a fault of the machine, each answer written down; then what the
// store holds is held to the answers: every 2xx stored, every 503 not, nothing else answered.
import assert from 'node:assert/strict';
import { closeSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/connect.js';
import { follow } from './feedClient.js';
import { startService, type Service } from './service.js';

/**
 * What an answer says of its write. `doubtful`: a 503 for a write whose commit was under way when
 * the fault struck, which the test names (`doubting`): PostgreSQL cut the connection before it
 * answered the commit, or a file system failed while SQLite synced it. The commit may have reached
 * the disk all the same, and no answer can tell. Every other 503 is `refused`.
 */
type Outcome = 'stored' | 'refused' | 'doubtful';

/** A category the writers created (answered 201), and what was done to it since. */
interface Made {
  nombre: string;
  /** Its names the answers allow now (undefined: deleted): one, or two after a doubtful write. */
  may: (string | undefined)[];
  /** The change of an update answered 2xx, which an undo may take back. */
  change?: number;
  touched: boolean;
  /** The writes of it and their outcomes, for a failure's message. */
  writes: string[];
}

type Kind = 'create' | 'put' | 'patch' | 'delete' | 'undo' | 'import' | 'read';
const KINDS: [Kind, number][] = [['create', 4], ['put', 2], ['patch', 2], ['delete', 1], ['undo', 1], ['import', 1], ['read', 2]];

/**
 * Writers at `base`, `concurrency` at a time, from now until `stop()`: creates, PUTs, PATCHes,
 * DELETEs and undos of categories, and imports of a CSV file of two, chosen by `random`; and reads.
 * A write answers 2xx, or 503 with `Retry-After` and one of the `refusals`; a read 200, or 503 with
 * one of them (`readsRefused`). Anything else fails the test.
 */
export function writers(base: string, random: () => number, concurrency = 6) {
  const created = new Map<string, Outcome>();
  const made = new Map<number, Made>();
  const imported = new Map<string, Outcome>();
  const unexpected: string[] = [];
  const counts = { stored: 0, refused: 0, doubtful: 0, reads: 0, readsRefused: 0, changes: 0, doubtfulChanges: 0, byDetails: {} as Record<string, number> };
  let refusals: ReadonlySet<string> = new Set();
  /** Whether a 503 with `details`, for a write sent at `sent`, may hide a commit. */
  let inDoubt: (sent: number, details: string) => boolean = () => false;
  let running = true;
  let sequence = 0;
  const waiters = new Set<() => void>();

  const pick = (): Kind => {
    let roll = random() * KINDS.reduce((sum, [, w]) => sum + w, 0);
    for (const [kind, weight] of KINDS) if ((roll -= weight) < 0) return kind;
    return 'read';
  };
  const untouched = (): [number, Made] | undefined => {
    const candidates = [...made].filter(([, m]) => !m.touched && m.may.length === 1 && m.may[0] !== undefined);
    const chosen = candidates[Math.floor(random() * candidates.length)];
    if (chosen) chosen[1].touched = true;
    return chosen;
  };

  const request = async (method: string, path: string, body?: unknown, form?: FormData) => {
    const sent = Date.now();
    const response = await fetch(base + path, {
      method,
      ...(form ? { body: form } : body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, text, retryAfter: response.headers.get('retry-after'), sent };
  };
  /** What the answer says of the write (`changes`: what it logs when stored); a refusal is checked, anything else noted. */
  const outcome = (what: string, answer: Awaited<ReturnType<typeof request>>, ok: number, changes = 1): Outcome => {
    if (answer.status === ok) {
      counts.stored++;
      counts.changes += changes;
      return 'stored';
    }
    if (answer.status === 503) {
      const body = JSON.parse(answer.text) as Record<string, string>;
      const { details = '' } = body;
      assert.deepEqual([Object.keys(body).sort(), body.type, body.code], [['code', 'details', 'location', 'moreInfo', 'timestamp', 'type'], 'error', '503'], `${what}: the error body`);
      if (refusals.has(details) && answer.retryAfter !== null && Number(answer.retryAfter) >= 1) {
        counts.byDetails[details] = (counts.byDetails[details] ?? 0) + 1;
        if (inDoubt(answer.sent, details)) {
          counts.doubtful++;
          counts.doubtfulChanges += changes;
          return 'doubtful';
        }
        counts.refused++;
        return 'refused';
      }
    }
    unexpected.push(`${what}: ${answer.status} retry-after ${answer.retryAfter} ${answer.text}`);
    return 'refused';
  };
  /** The names a record may have after a write from `before` to `after` with that outcome. */
  const after = (result: Outcome, before: string | undefined, then: string | undefined) => (result === 'stored' ? [then] : result === 'doubtful' ? [before, then] : [before]);

  const once = async () => {
    const n = ++sequence;
    const kind = pick();
    if (kind === 'create') {
      const nombre = `Escrita ${n}`;
      const answer = await request('POST', '/categorias', { nombre });
      const result = outcome(`POST ${nombre}`, answer, 201);
      created.set(nombre, result);
      if (result === 'stored') made.set((JSON.parse(answer.text) as { id: number }).id, { nombre, may: [nombre], touched: false, writes: [`create stored at ${answer.sent}`] });
    } else if (kind === 'put' || kind === 'patch' || kind === 'delete') {
      const target = untouched();
      if (!target) return;
      const [id, record] = target;
      const before = record.may[0];
      const nombre = kind === 'delete' ? undefined : `${record.nombre} ${kind === 'put' ? 'reemplazada' : 'cambiada'}`;
      const answer = await request(kind === 'delete' ? 'DELETE' : kind.toUpperCase(), `/categorias/${id}`, nombre === undefined ? undefined : { nombre });
      const result = outcome(`${kind} ${id}`, answer, 200);
      record.writes.push(`${kind} ${result} at ${answer.sent}`);
      record.may = after(result, before, nombre);
      if (kind === 'delete') return;
      if (result !== 'stored') return;
      // Its change, to undo later; while the store cannot be read, it is not undone.
      const changes = await request('GET', `/cambios?recurso=categorias&clave=${id}&_sort=id&_order=desc&_limit=1`);
      if (changes.status === 200) record.change = (JSON.parse(changes.text) as { id: number }[])[0]?.id;
    } else if (kind === 'undo') {
      const candidates = [...made.values()].filter((m) => m.change !== undefined);
      const record = candidates[Math.floor(random() * candidates.length)];
      if (!record?.change) return;
      const change = record.change;
      delete record.change;
      const answer = await request('POST', `/cambios/${change}/deshacer`);
      const result = outcome(`undo ${change}`, answer, 200);
      record.writes.push(`undo ${result} at ${answer.sent}`);
      record.may = after(result, record.may[0], record.nombre);
    } else if (kind === 'import') {
      const names = [`Importada ${n}a`, `Importada ${n}b`];
      const form = new FormData();
      form.append('archivo', new Blob([`nombre\n${names.join('\n')}\n`], { type: 'text/csv' }), 'categorias.csv');
      imported.set(names.join('\n'), outcome(`import ${n}`, await request('POST', '/importar', undefined, form), 200, names.length));
    } else {
      const answer = await request('GET', '/categorias?_limit=5');
      if (answer.status === 200) counts.reads++;
      else if (answer.status === 503 && refusals.has((JSON.parse(answer.text) as { details: string }).details)) counts.readsRefused++;
      else unexpected.push(`GET /categorias: ${answer.status} ${answer.text}`);
    }
  };

  const loops = Array.from({ length: concurrency }, async () => {
    while (running) {
      await once().catch((error: unknown) => unexpected.push(`no answer: ${String(error)}`));
      waiters.forEach((wake) => wake());
    }
  });

  return {
    counts,
    /** The 503 sentences the fault may answer now (none before it starts). */
    refusing(details: readonly string[]) {
      refusals = new Set(details);
    },
    /** From now on, a write sent at `sent` and refused with `details` may have been stored when `doubt` says so. */
    doubting(doubt: (sent: number, details: string) => boolean) {
      inDoubt = doubt;
    },
    /** Resolves once `holds` holds of the counts, checked after each answer; fails at the first answer neither 2xx nor the fault's 503. */
    until(holds: (c: typeof counts) => boolean): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (unexpected.length > 0) reject(new assert.AssertionError({ message: `an answer neither 2xx nor the fault's 503: ${unexpected.join('; ')}` }));
          else if (!holds(counts)) return;
          else resolve();
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      running = false;
      await Promise.all(loops);
      assert.deepEqual(unexpected, [], 'every write answered 2xx, or 503 with Retry-After and the fault\'s sentence');
    },
    /**
     * Holds the store `url` to the answers: each category created, changed, deleted, undone or
     * imported with a 2xx is there as answered; none answered 503 left any trace (a doubtful one
     * may have, whole); and the change log grew by the changes the answers made, from `changesBefore`.
     */
    async holdTo(url: string, changesBefore: number) {
      const db = openDatabase(url);
      try {
        const rows = await db.selectFrom('categorias').select(['id', 'nombre']).execute();
        const byName = new Map(rows.map((r) => [r.nombre, Number(r.id)]));
        const byId = new Map(rows.map((r) => [Number(r.id), r.nombre]));
        for (const [nombre, result] of created) {
          if (result === 'refused') assert.ok(!byName.has(nombre) && !byName.has(`${nombre} reemplazada`) && !byName.has(`${nombre} cambiada`), `${nombre}: answered 503, not stored`);
        }
        for (const [id, record] of made) assert.ok(record.may.includes(byId.get(id)), `categoria ${id} (${record.nombre}) is ${byId.get(id)}, as its answers left it: ${record.may.join(' or ')} (${record.writes.join(', ')})`);
        for (const [names, result] of imported) {
          const found = names.split('\n').filter((name) => byName.has(name)).length;
          assert.ok(result === 'stored' ? found === 2 : result === 'refused' ? found === 0 : found % 2 === 0, `import of ${names.replace('\n', ', ')} answered ${result}: ${found} of 2 stored`);
        }
        const { rows: [count] } = await sql<{ n: number | string }>`select count(*) as n from cambios`.execute(db);
        const grew = Number(count?.n) - changesBefore;
        assert.ok(grew >= counts.changes && grew <= counts.changes + counts.doubtfulChanges, `the change log grew by ${grew}: a change for each write answered 2xx (${counts.changes}), and for none other but the doubtful (${counts.doubtfulChanges})`);
      } finally {
        await db.destroy();
      }
    },
  };
}

export type Writing = Awaited<ReturnType<typeof writersAndFeed>>;

/** A service (npm start's, with /metrics) on the store `url` with writers running (writersAndFeed) while `during` runs; then it is stopped, if `during` did not. */
export async function whileWriting(url: string, random: () => number, during: (service: Service, writing: Writing) => Promise<void>): Promise<void> {
  // Load shedding answers 503 too; off, so that every 503 here is the store's.
  const service = await startService({ DATABASE_URL: url, METRICS_ENABLED: 'true', UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' });
  try {
    await service.healthy(30000);
    await during(service, await writersAndFeed(service.base, url, random));
  } finally {
    await service.stop('SIGKILL');
  }
}

/**
 * Writers (as `writers` runs them) at the service `base` on the store `url`, beside a reader of the
 * live feed from the store's newest change; resolves once 20 writes are stored.
 */
async function writersAndFeed(base: string, url: string, random: () => number) {
  const start = await newestChange(url);
  const feed = resumingFeed(base, start.id);
  const load = writers(base, random);
  await load.until((c) => c.stored >= 20);
  const holdTo = () => load.holdTo(url, start.count);
  /** Asserts that the feed delivered each change committed since it opened, once and in order, and nothing else; then closes it. */
  const feedDeliveredCommitted = async () => {
    const committed = await changeIdsAfter(url, start.id);
    const deadline = Date.now() + 20_000;
    while (feed.events().length < committed.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    feed.stop();
    assert.deepEqual(feed.events().map((e) => e.id), committed, 'the feed delivered each committed change once, in order, and nothing else');
  };
  return {
    load,
    holdTo,
    feedDeliveredCommitted,
    /** Once the fault is over: 20 more writes stored, then the writers stop (their counts reported), and the store and the feed are held to the answers. */
    async recovered(t: TestContext) {
      const before = load.counts.stored;
      await load.until((c) => c.stored >= before + 20);
      await load.stop();
      t.diagnostic(`writes: ${JSON.stringify(load.counts)}`);
      await holdTo();
      await feedDeliveredCommitted();
    },
  };
}

/**
 * The live feed read as a client should: a stream the service ends (its store could not be read
 * for it) or refuses (503) is opened again from the last change received (Last-Event-ID), after the
 * second Retry-After asks for.
 */
function resumingFeed(base: string, from: number) {
  const streams: ReturnType<typeof follow>[] = [];
  const events = () => streams.flatMap((stream) => stream.events);
  let stopped = false;
  const open = () => {
    const stream = follow(`${base}/cambios`, { 'last-event-id': String(events().at(-1)?.id ?? from) });
    streams.push(stream);
    const again = () => {
      if (!stopped) setTimeout(open, 1000);
    };
    stream.done.then(again, again);
  };
  open();
  return {
    events,
    stop() {
      stopped = true;
      streams.forEach((stream) => stream.stop());
    },
  };
}

/** The change log's newest id in the store `url`: where a feed that must see what follows starts. */
export async function newestChange(url: string): Promise<{ id: number; count: number }> {
  const db = openDatabase(url);
  try {
    const { rows: [row] } = await sql<{ id: number | string | null; n: number | string }>`select max(id) as id, count(*) as n from cambios`.execute(db);
    return { id: Number(row?.id ?? 0), count: Number(row?.n ?? 0) };
  } finally {
    await db.destroy();
  }
}

/** The change ids after `after` in the store `url`, in order. */
export async function changeIdsAfter(url: string, after: number): Promise<number[]> {
  const db = openDatabase(url);
  try {
    const rows = await db.selectFrom('cambios').select('id').where('id', '>', after).orderBy('id').execute();
    return rows.map((r) => Number(r.id));
  } finally {
    await db.destroy();
  }
}

/** A Prometheus counter's value in a /metrics text, 0 when absent. */
export function counterIn(metrics: string, line: string): number {
  const found = metrics.split('\n').find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}

/**
 * Takes every byte left on the file system of `file`'s folder, writing `file` until it refuses
 * (ENOSPC), then gives `leave` bytes back.
 */
export function fillUp(file: string, leave = 0): void {
  const fd = openSync(file, 'a');
  try {
    for (const size of [1 << 20, 1 << 16, 1 << 12, 1 << 9, 1]) {
      const chunk = Buffer.alloc(size);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
    if (leave > 0) ftruncateSync(fd, fstatSync(fd).size - leave);
  } finally {
    closeSync(fd);
  }
}
