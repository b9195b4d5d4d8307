// On PostgreSQL every write bumps its table's version in `versiones`. Writes on different
// connections must not wait for each other's commit there (migration 0006), and the version and
// row count a table reports must still count every one of them.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import pg from 'pg';
import { checkStore } from '../../src/transfer/check.js';
import { migratedStore } from '../stores.js';

it('when two connections write one table at once, then neither waits for the other to commit, and the table counts both', async () => {
  const { url, db, drop } = await migratedStore();
  const clients: pg.Client[] = [];
  try {
    const connect = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      clients.push(client);
      return client;
    };
    const slotOf = async (client: pg.Client) => Number((await client.query<{ s: number }>('select pg_backend_pid() % 16 as s')).rows[0]?.s);
    const first = await connect();
    // Another connection with a row of its own (two backends may share one: then they take turns).
    let second = await connect();
    while ((await slotOf(second)) === (await slotOf(first))) second = await connect();

    await first.query('begin');
    await first.query(`insert into categorias (nombre, nombre_clave) values ('Primera', 'primera')`);
    // Were the second to wait for the first's lock, it would fail here instead of committing.
    await second.query(`set lock_timeout = '2s'`);
    await second.query(`insert into categorias (nombre, nombre_clave) values ('Segunda', 'segunda')`);
    await first.query('commit');

    const tables = await db.selectFrom('versiones').select(['tabla', (eb) => eb.fn.sum<string>('version').as('version'), (eb) => eb.fn.sum<string>('filas').as('filas')]).groupBy('tabla').where('tabla', '=', 'categorias').execute();
    assert.deepEqual(tables.map((t) => [t.tabla, Number(t.filas)]), [['categorias', 2]]);
    assert.ok(Number(tables[0]?.version) >= 2, `the version moved once per write: ${tables[0]?.version}`);
    const report = await checkStore(db);
    assert.deepEqual(report.problems, []);
    assert.equal(report.counts.categorias, 2);
  } finally {
    await Promise.all(clients.map((c) => c.end()));
    await drop();
  }
});

it('when sixteen connections write one table at once, then each holds a row of versiones of its own, whatever their backend ids, and the table counts all sixteen', async () => {
  const { url, db, drop } = await migratedStore();
  const clients: pg.Client[] = [];
  const totals = async () => {
    const [sums] = await db.selectFrom('versiones').select([(eb) => eb.fn.sum<string>('version').as('version'), (eb) => eb.fn.sum<string>('filas').as('filas')]).where('tabla', '=', 'categorias').execute();
    return { version: Number(sums?.version), filas: Number(sums?.filas) };
  };
  try {
    const before = await totals();
    for (let n = 1; n <= 16; n++) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      clients.push(client);
      // Sixteen backend ids share some remainders of 16: a write that took its connection's row
      // would wait for another's commit, and fail here.
      await client.query(`set lock_timeout = '2s'`);
      await client.query('begin');
      await client.query(`insert into categorias (nombre, nombre_clave) values ($1, $2)`, [`Categoría ${n}`, `categoria ${n}`]);
    }
    const free = await db.selectFrom('versiones').select('ranura').where('tabla', '=', 'categorias').forUpdate().skipLocked().execute();
    assert.deepEqual(free, [], 'every row of the table is held by one of the sixteen');
    for (const client of clients) await client.query('commit');

    assert.deepEqual(await totals(), { version: before.version + 16, filas: 16 }, 'one bump and one row counted per write');
    const report = await checkStore(db);
    assert.deepEqual(report.problems, []);
    assert.equal(report.counts.categorias, 16);
  } finally {
    await Promise.all(clients.map((c) => c.end()));
    await drop();
  }
});
