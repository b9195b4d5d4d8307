// The live feed between service processes as `npm start` runs them: a reader that drops its
// connection at random moments and resumes with Last-Event-ID, on one process or on either of
// two, gets every change exactly once, in order, within a second; SIGTERM ends every stream.
// Random: it prints its seed; TEST_SEED=<seed> replays its choices (not the timing between processes).
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { harness } from '../harness.js';
import { allLogIds, post, rawFollow, type Received } from '../feedClient.js';
import { seededRandom, seedFor } from '../random.js';
import { backend } from '../stores.js';


const WRITERS = 3;
const WRITES = 150;
/** Changes in the log: a category, then the writers' movies. */
const TOTAL = 1 + WRITERS * WRITES;
/** 15 KB a change (three bytes a character): a reader away for a second falls over 1 MiB behind. */
const SIPNOSIS = '€'.repeat(5000);
/** The contract's promise: a change reaches a stream within a second of its commit. */
const WITHIN_MS = 1000;

describe(`the live feed across service processes (${backend})`, () => {
  const { store, service } = harness();

  /**
   * WRITERS writers create movies, spread over `bases`, while a reader follows from the start,
   * dropping its connection at random moments, staying away a random while, and resuming on a
   * random one of `bases`.
   */
  async function writeAndFollow(t: TestContext, bases: string[]) {
    const seed = seedFor(t);
    const random = seededRandom(seed);
    const answered = new Map<string, number>();
    const categoria = await post(bases[0] ?? '', '/categorias', { nombre: 'Cine' });
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; i < WRITES; i++) {
        const { id } = await post(bases[(w + i) % bases.length] ?? '', '/peliculas', { titulo: `Escritor ${w} ${i}`, sipnosis: SIPNOSIS, duracion: 90, categoria_id: categoria.id });
        answered.set(`peliculas ${id}`, Date.now());
      }
    });
    let writing = true;
    let writtenAt = Infinity;
    const written = Promise.all(writers).finally(() => {
      writing = false;
      writtenAt = Date.now();
    });
    const received: Received[] = [];
    const late: string[] = [];
    let slowest = 0;
    let readers = 0;
    let last = 0;
    while (writing || received.length < TOTAL) {
      if (Date.now() - writtenAt > 20_000) assert.fail(`seed ${seed}: ${TOTAL - received.length} changes never received within 20 s after the writers ended`);
      const base = bases[Math.floor(random() * bases.length)] ?? '';
      const reader = rawFollow(base, '/cambios', { 'last-event-id': String(last) });
      readers++;
      // Dropped after up to 300 ms, in the middle of an event as likely as not.
      const dropAfter = Math.floor(random() * 300);
      await reader.until(() => reader.head !== undefined, 'the answer');
      await new Promise((resolve) => setTimeout(resolve, dropAfter));
      // Once the writers are done, until it has what the log holds.
      if (!writing) await reader.until(() => received.length + reader.events.length >= TOTAL, 'every change', 10_000).catch(() => {});
      reader.socket.destroy();
      for (const event of reader.events) {
        const answer = answered.get(`${event.data.recurso} ${event.data.clave}`);
        // From when its write was answered, or when this stream opened if that was later.
        const waited = answer === undefined ? 0 : event.at - Math.max(answer, reader.connectedAt);
        slowest = Math.max(slowest, waited);
        if (waited > WITHIN_MS) late.push(`${event.id} after ${waited} ms`);
      }
      received.push(...reader.events);
      last = received.at(-1)?.id ?? last;
      // Half the time away for up to a second while the writers go on.
      const away = random() < 0.5 ? Math.floor(random() * 1000) : 0;
      if (writing) await new Promise((resolve) => setTimeout(resolve, away));
    }
    await written;
    t.diagnostic(`${TOTAL} changes over ${readers} connections on ${bases.length} process(es); slowest ${slowest} ms after its write's answer`);
    const log = await allLogIds(bases[0] ?? '');
    assert.equal(log.length, TOTAL);
    assert.deepEqual(received.map((e) => e.id), log, `seed ${seed}`);
    assert.deepEqual(late, [], `seed ${seed}: changes that took over ${WITHIN_MS} ms`);
  }

  it('when writers commit at once on one process and a reader drops and resumes with Last-Event-ID, then it gets every change exactly once, in order, each within a second', async (t) => {
    const one = await service({ DATABASE_URL: (await store()).url });
    await one.healthy();
    await writeAndFollow(t, [one.base]);
    assert.equal(await one.stop('SIGTERM'), 0);
  });

  it('when writers commit on two processes and a reader resumes on either, then it gets every change exactly once, in order, each within a second', async (t) => {
    const { url } = await store();
    const one = await service({ DATABASE_URL: url });
    await one.healthy();
    const two = await service({ DATABASE_URL: url });
    await two.healthy();
    await writeAndFollow(t, [one.base, two.base]);
    assert.deepEqual(await Promise.all([one.stop('SIGTERM'), two.stop('SIGTERM')]), [0, 0]);
  });

  it('when SIGTERM comes while streams follow, catch up and wait for a reader, then each answer ends with its last chunk and the process exits 0 within ten seconds', async () => {
    const { url } = await store();
    const one = await service({ DATABASE_URL: url });
    await one.healthy();
    const { id } = await post(one.base, '/categorias', { nombre: 'Cine' });
    const sipnosis = 'Larga. '.repeat(700);
    for (let i = 0; i < 100; i += 25) {
      await Promise.all(Array.from({ length: 25 }, (_, j) => post(one.base, '/peliculas', { titulo: `Película ${i + j}`, sipnosis, duracion: 90, categoria_id: id })));
    }
    const streams = [
      rawFollow(one.base, '/cambios'),
      rawFollow(one.base, '/cambios?recurso=categorias'),
      rawFollow(one.base, '/cambios?desde=0'),
      rawFollow(one.base, '/cambios', { 'last-event-id': '50' }),
    ];
    await Promise.all(streams.map((s) => s.until(() => s.head !== undefined, 'the answer')));
    // Writes go on while the signal comes, so that streams are being written to.
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) await post(one.base, '/categorias', { nombre: `Durante ${i}` }).catch(() => (writing = false));
    })();
    await streams[0]?.until(() => (streams[0]?.events.length ?? 0) > 0, 'a change as it comes');
    // One more, still catching up when the signal comes.
    const catchingUp = rawFollow(one.base, '/cambios?desde=0');
    await catchingUp.until(() => catchingUp.head !== undefined, 'the answer');
    streams.push(catchingUp);
    const signalled = Date.now();
    const code = await one.stop('SIGTERM');
    writing = false;
    await writer;
    assert.equal(code, 0);
    assert.ok(Date.now() - signalled < 10_000, `exited after ${Date.now() - signalled} ms`);
    for (const [i, stream] of streams.entries()) {
      await stream.until(() => stream.closed, `stream ${i} to close`);
      assert.ok(stream.ended, `stream ${i} was cut without the end of its answer`);
    }
  });
});
