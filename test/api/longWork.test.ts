// Work that grows with the store (exports, the calendar, a feed reader's catch-up) goes in slices, the event loop and the
// store's connection free between them: lookups sent after it started are answered before it ends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import SQLite from 'better-sqlite3';
import readXlsxFile from 'read-excel-file/node';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { categorias, eventosUrbanos, peliculas } from '../../src/resources/index.js';
import { readSpreadsheets } from '../../src/transfer/read/index.js';
import type { Incoming } from '../../src/transfer/read/types.js';
import { importCatalogue } from '../../src/transfer/import.js';
import { allLogIds, rawFollow } from '../feedClient.js';
import { harness } from '../harness.js';
import { backend } from '../stores.js';
import { importar } from './uploads.js';

/** Enough for a dozen pages of each long read, and a workbook built in its worker thread. */
const EVENTS = 2000;
const MOVIES = 300;
const DELETED = 20;

const place = { file: 'seed' };
async function* catalogue(): AsyncGenerator<Incoming[]> {
  yield Array.from({ length: 5 }, (_, i) => ({ resource: categorias, record: { nombre: `Categoría ${i + 1}` }, place }));
  yield Array.from({ length: MOVIES }, (_, i) => ({
    resource: peliculas,
    record: { titulo: `Película ${i + 1}`, sipnosis: 'Una familia del barrio sur, un verano de cambios.', duracion: 90, categoria_id: (i % 5) + 1 },
    place,
  }));
  yield Array.from({ length: EVENTS }, (_, i) => ({
    resource: eventosUrbanos,
    record: { titulo: `Feria ${i + 1}`, descripcion: 'Música, libros y comida en la plaza del barrio, toda la tarde.', fecha: `2027-0${(i % 9) + 1}-1${i % 10}${i % 2 ? 'T20:30:00Z' : ''}`, lugar: 'Plaza', categoria_id: (i % 5) + 1 },
    place,
  }));
}

describe(`long work beside lookups (${backend})`, () => {
  const { store } = harness();
  let app: FastifyInstance;
  let url: string;

  before(async () => {
    // A file on SQLite: a long read holds a connection of its own there, as in production.
    ({ url } = await store());
    const db = openDatabase(url);
    await migrateToLatest(db);
    const seeded = await importCatalogue(db, catalogue(), { onConflict: 'error', dryRun: false, quien: null, timeZone: 'UTC' });
    await db.destroy();
    assert.deepEqual(seeded.problems, []);
    app = await buildApp(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' }));
    for (let i = 1; i <= DELETED; i++) assert.equal((await app.inject({ method: 'DELETE', url: `/eventosUrbanos/${i * 100}` })).statusCode, 200);
  });
  after(() => app.close());

  /** The next movie to look up: each is asked for once, so its answer comes from the store, not a cache. */
  let next = 1;

  /** Runs `work`, and beside it two clients that each send lookups one after another, until it is done (or each had ten answered before it). */
  async function beside<T>(work: Promise<T>) {
    let answered = false;
    const long = work.then((result) => ((answered = true), result));
    let during = 0;
    const client = async () => {
      for (let mine = 0; !answered && mine < 10; mine++) {
        const lookup = await app.inject({ method: 'GET', url: `/peliculas/${encodeURIComponent(`Película ${next++}`)}` });
        assert.equal(lookup.statusCode, 200, lookup.body);
        assert.ok(next <= MOVIES, 'movies left to look up');
        if (!answered) during++;
      }
    };
    await Promise.all([client(), client()]);
    return { res: await long, during };
  }

  /** Sends `url` beside the lookups. */
  const besideGet = (url: string) => beside(app.inject({ method: 'GET', url }));

  it('when the whole catalogue is exported as .xlsx, then lookups are answered meanwhile, and the workbook holds every record', async () => {
    const { res, during } = await besideGet('/exportar.xlsx');
    assert.equal(res.statusCode, 200);
    assert.ok(during >= 4, `${during} lookups answered while the workbook was made`);
    const sheets = await readXlsxFile(res.rawPayload);
    assert.equal(sheets.find((s) => s.sheet === 'Eventos urbanos')?.data.length, 1 + EVENTS - DELETED);
    assert.equal(sheets.find((s) => s.sheet === 'Películas')?.data.length, 1 + MOVIES);
  });

  it('when the whole catalogue is exported as .ods, then lookups are answered meanwhile, and the spreadsheet reads back whole', async () => {
    const { res, during } = await besideGet('/exportar.ods');
    assert.equal(res.statusCode, 200);
    assert.ok(during >= 4, `${during} lookups answered while the spreadsheet was made`);
    const read = new Map<string, number>();
    for await (const batch of readSpreadsheets([{ name: 'catalogo.ods', bytes: res.rawPayload }])) {
      for (const item of batch) if ('resource' in item) read.set(item.resource.name, (read.get(item.resource.name) ?? 0) + 1);
    }
    assert.equal(read.get('eventosUrbanos'), EVENTS - DELETED);
    assert.equal(read.get('peliculas'), MOVIES);
  });

  it('when a list is exported filtered and sorted as CSV, then lookups are answered meanwhile, and it holds the list in its order', async () => {
    const { res, during } = await besideGet('/exportar.csv?recurso=eventosUrbanos&_sort=titulo&_order=desc&lugar=plaza');
    assert.equal(res.statusCode, 200);
    assert.ok(during >= 4, `${during} lookups answered while the CSV was made`);
    const titles = res.body.split('\r\n').slice(1, -1).map((line) => line.split(';')[1]);
    assert.equal(titles.length, EVENTS - DELETED);
    assert.deepEqual(titles, [...titles].sort().reverse());
  });

  it('when the calendar of every event is asked for, then lookups are answered meanwhile, and it holds the deleted events too', async () => {
    const { res, during } = await besideGet('/eventosUrbanos.ics');
    assert.equal(res.statusCode, 200);
    assert.ok(during >= 4, `${during} lookups answered while the calendar was made`);
    assert.equal(res.body.split('BEGIN:VEVENT').length - 1, EVENTS);
    assert.equal(res.body.split('STATUS:CANCELLED').length - 1, DELETED);
  });

  it('when a reader follows the live feed from desde=0, then lookups are answered meanwhile, and it gets the whole log in order', async () => {
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const log = await allLogIds(base);
    const reader = rawFollow(base, '/cambios?desde=0');
    try {
      const { during } = await beside(reader.until(() => reader.events.length >= log.length, 'the whole log', 30_000));
      assert.ok(during >= 4, `${during} lookups answered while the reader caught up`);
      assert.deepEqual(reader.events.map((e) => e.id), log);
    } finally {
      reader.socket.destroy();
    }
  });

  it('when a large CSV is imported, then lookups are answered meanwhile from what was committed before it, and once it commits every answer shows its records', async () => {
    const ADDED = 3000;
    const rows = Array.from({ length: ADDED }, (_, i) => `Nueva ${i + 1};Una familia del barrio sur, un verano de cambios.;90;${(i % 5) + 1}`);
    const csv = ['titulo;sipnosis;duracion;categoria_id', ...rows].join('\n');
    const count = async () => Number((await app.inject({ method: 'GET', url: '/peliculas?_limit=1' })).headers['x-total-count']);
    const newest = () => app.inject({ method: 'GET', url: `/peliculas/${encodeURIComponent(`Nueva ${ADDED}`)}` });
    // Asked before, so that the caches hold these answers when the import commits.
    assert.equal(await count(), MOVIES);
    assert.equal((await newest()).statusCode, 404);
    // On SQLite, whether the import's transaction holds the store's write lock: another connection cannot take it.
    const probe = backend === 'sqlite' ? new SQLite(url.replace(/^sqlite:/, ''), { timeout: 0 }) : undefined;
    const locked = () => {
      try {
        probe?.exec('begin immediate');
        probe?.exec('rollback');
        return false;
      } catch {
        return true;
      }
    };
    let answered = false;
    const imported = importar(app, '', [{ name: 'peliculas.csv', bytes: csv }]).then((res) => ((answered = true), res));
    let during = 0;
    let open = 0;
    while (!answered) {
      const before = locked();
      // A client over the network waits a turn of the event loop for its next answer; inject's would come in the same turn.
      await new Promise((resolve) => setImmediate(resolve));
      const [lookup, total, missing] = await Promise.all([
        app.inject({ method: 'GET', url: `/peliculas/${encodeURIComponent(`Película ${(next++ % MOVIES) + 1}`)}` }),
        count(),
        newest(),
      ]);
      if (answered) break;
      assert.equal(lookup.statusCode, 200, lookup.body);
      assert.equal(total, MOVIES, 'the count of what was committed before the import');
      assert.equal(missing.statusCode, 404, 'no record of the import before it commits');
      during++;
      if (before && locked()) open++;
    }
    probe?.close();
    const res = await imported;
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(during >= 2, `${during} rounds of lookups answered while the import ran`);
    if (probe) assert.ok(open >= 2, `${open} rounds of lookups answered inside the import's transaction`);
    assert.equal(await count(), MOVIES + ADDED);
    assert.equal((await newest()).statusCode, 200);
  });
});
