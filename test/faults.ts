// The fault tests' writers (test/sqlite/faults.test.ts, test/postgres/faults.test.ts): every kind
// of write, over HTTP, throughout a fault of the machine, each answer written down; then what the
// store holds is held to the answers: every 2xx stored, every 503 not, nothing else answered.
import assert from 'node:assert/strict';
import { closeSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/connect.js';
import { follow } from './feedClient.js';

type Outcome = 'stored' | 'refused';

/** A category the writers created (answered 201), and what was done to it since. */
interface Made {
  nombre: string;
  /** Its name now, as the answers say; undefined once a delete was answered 200. */
  now: string | undefined;
  /** The change of an update answered 2xx, which an undo may take back. */
  change?: number;
  touched: boolean;
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
  const counts = { stored: 0, refused: 0, reads: 0, readsRefused: 0, changes: 0, refusedByDetails: new Map<string, number>() };
  let refusals: ReadonlySet<string> = new Set();
  let running = true;
  let sequence = 0;
  const waiters = new Set<() => void>();

  const pick = (): Kind => {
    let roll = random() * KINDS.reduce((sum, [, w]) => sum + w, 0);
    for (const [kind, weight] of KINDS) if ((roll -= weight) < 0) return kind;
    return 'read';
  };
  const untouched = (): [number, Made] | undefined => {
    const candidates = [...made].filter(([, m]) => !m.touched && m.now !== undefined);
    const chosen = candidates[Math.floor(random() * candidates.length)];
    if (chosen) chosen[1].touched = true;
    return chosen;
  };

  const request = async (method: string, path: string, body?: unknown, form?: FormData) => {
    const response = await fetch(base + path, {
      method,
      ...(form ? { body: form } : body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, text, retryAfter: response.headers.get('retry-after') };
  };
  /** Whether the answer stored the write; a refusal is checked and counted, anything else noted. */
  const stored = (what: string, answer: { status: number; text: string; retryAfter: string | null }, ok: number): boolean => {
    if (answer.status === ok) {
      counts.stored++;
      return true;
    }
    if (answer.status === 503) {
      const details = (JSON.parse(answer.text) as { details: string }).details;
      if (refusals.has(details) && answer.retryAfter !== null && Number(answer.retryAfter) >= 1) {
        counts.refused++;
        counts.refusedByDetails.set(details, (counts.refusedByDetails.get(details) ?? 0) + 1);
        return false;
      }
    }
    unexpected.push(`${what}: ${answer.status} retry-after ${answer.retryAfter} ${answer.text}`);
    return false;
  };

  const once = async () => {
    const n = ++sequence;
    const kind = pick();
    if (kind === 'create') {
      const nombre = `Escrita ${n}`;
      const answer = await request('POST', '/categorias', { nombre });
      created.set(nombre, stored(`POST ${nombre}`, answer, 201) ? 'stored' : 'refused');
      if (created.get(nombre) === 'stored') {
        made.set((JSON.parse(answer.text) as { id: number }).id, { nombre, now: nombre, touched: false });
        counts.changes++;
      }
    } else if (kind === 'put' || kind === 'patch' || kind === 'delete') {
      const target = untouched();
      if (!target) return;
      const [id, record] = target;
      if (kind === 'delete') {
        if (stored(`DELETE ${id}`, await request('DELETE', `/categorias/${id}`), 200)) {
          record.now = undefined;
          counts.changes++;
        }
        return;
      }
      const nombre = `${record.nombre} ${kind === 'put' ? 'reemplazada' : 'cambiada'}`;
      if (!stored(`${kind} ${id}`, await request(kind.toUpperCase(), `/categorias/${id}`, { nombre }), 200)) return;
      record.now = nombre;
      counts.changes++;
      // Its change, to undo later; while the store cannot be read, it is not undone.
      const changes = await request('GET', `/cambios?recurso=categorias&clave=${id}&_sort=id&_order=desc&_limit=1`);
      if (changes.status === 200) record.change = (JSON.parse(changes.text) as { id: number }[])[0]?.id;
    } else if (kind === 'undo') {
      const candidates = [...made.values()].filter((m) => m.change !== undefined);
      const record = candidates[Math.floor(random() * candidates.length)];
      if (!record?.change) return;
      const change = record.change;
      delete record.change;
      if (stored(`undo ${change}`, await request('POST', `/cambios/${change}/deshacer`), 200)) {
        record.now = record.nombre;
        counts.changes++;
      }
    } else if (kind === 'import') {
      const names = [`Importada ${n}a`, `Importada ${n}b`];
      const form = new FormData();
      form.append('archivo', new Blob([`nombre\n${names.join('\n')}\n`], { type: 'text/csv' }), 'categorias.csv');
      const outcome = stored(`import ${n}`, await request('POST', '/importar', undefined, form), 200) ? 'stored' : 'refused';
      for (const name of names) imported.set(name, outcome);
      if (outcome === 'stored') counts.changes += names.length;
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
     * imported with a 2xx is there as answered; none answered 503 left any trace; and the change
     * log grew by the changes the answers made, from `changesBefore`.
     */
    async holdTo(url: string, changesBefore: number) {
      const db = openDatabase(url);
      try {
        const rows = await db.selectFrom('categorias').select(['id', 'nombre']).execute();
        const byName = new Map(rows.map((r) => [r.nombre, Number(r.id)]));
        const byId = new Map(rows.map((r) => [Number(r.id), r.nombre]));
        for (const [nombre, outcome] of created) {
          if (outcome === 'refused') assert.ok(!byName.has(nombre) && !byName.has(`${nombre} reemplazada`) && !byName.has(`${nombre} cambiada`), `${nombre}: answered 503, not stored`);
        }
        for (const [id, record] of made) assert.equal(byId.get(id), record.now, `categoria ${id} (${record.nombre}) as its answers left it`);
        for (const [nombre, outcome] of imported) assert.equal(byName.has(nombre), outcome === 'stored', `${nombre}: import answered ${outcome}`);
        const { rows: [count] } = await sql<{ n: number | string }>`select count(*) as n from cambios`.execute(db);
        assert.equal(Number(count?.n) - changesBefore, counts.changes, 'the change log holds a change for each write answered 2xx, and none other');
      } finally {
        await db.destroy();
      }
    },
  };
}

/**
 * Writers (as `writers` runs them) at the service `base` on the store `url`, beside a stream of the
 * live feed from the store's newest change; resolves once 20 writes are stored.
 */
export async function writersAndFeed(base: string, url: string, random: () => number) {
  const start = await newestChange(url);
  const feed = follow(`${base}/cambios`, { 'last-event-id': String(start.id) });
  const load = writers(base, random);
  await load.until((c) => c.stored >= 20);
  return {
    load,
    /** Holds the store to the writers' answers (see writers().holdTo). */
    holdTo: () => load.holdTo(url, start.count),
    /** Asserts that the feed delivered each change committed since it opened, once and in order, and nothing else; then closes it. */
    async feedDeliveredCommitted() {
      const committed = await changeIdsAfter(url, start.id);
      await feed.until((events) => events.length >= committed.length, `the ${committed.length} changes committed`);
      feed.stop();
      assert.deepEqual(feed.events.map((e) => e.id), committed, 'the feed delivered each committed change once, in order, and nothing else');
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
