// What a write sends PostgreSQL, statement by statement: each is a round trip its transaction
// holds a connection for. A write alone in its transaction sends no savepoint (db/transaction.ts,
// refusable); a refused one still answers the contract's sentence, asked after the rollback.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { messages } from '../../src/catalogue/messages.js';
import { Refusal } from '../../src/catalogue/refusal.js';
import { categorias, peliculas } from '../../src/resources/index.js';
import { createRecord, patchRecord, removeRecord } from '../../src/resources/writes.js';
import { migratedStore, type MigratedStore } from '../stores.js';

const context = { quien: 'ana' };
let store: MigratedStore;
before(async () => {
  store = await migratedStore();
});
after(() => store.drop());

/** The statements `write` sends, each the first word of its text, lowercased. */
async function statementsOf(write: () => Promise<unknown>): Promise<{ sent: string[]; error?: unknown }> {
  const sent: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first] = args;
    const text = typeof first === 'string' ? first : (first as { text?: string }).text ?? '';
    sent.push(text.trim().split(/\s+/, 1)[0]?.toLowerCase() ?? '');
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await write();
    return { sent };
  } catch (error) {
    return { sent, error };
  } finally {
    pg.Client.prototype.query = query;
  }
}

it('when a movie is created, updated and deleted alone, then each write sends its statements with no savepoint', async () => {
  const { db } = store;
  const { id: categoria_id } = await createRecord(db, categorias, { nombre: 'Drama' }, context);
  let id = 0;
  const created = await statementsOf(async () => {
    ({ id } = (await createRecord(db, peliculas, { titulo: 'Alba', sipnosis: 'Una mañana.', duracion: 90, categoria_id }, context)) as { id: number });
  });
  assert.deepEqual(created, { sent: ['begin', 'insert', 'insert', 'commit'] }, 'the record, its change, and the transaction');
  const updated = await statementsOf(() => patchRecord(db, peliculas, id, { duracion: 95 }, context));
  assert.deepEqual(updated, { sent: ['begin', 'select', 'update', 'insert', 'commit'] }, 'the record read and locked, set, its change');
  const removed = await statementsOf(() => removeRecord(db, peliculas, id, context));
  assert.equal(removed.error, undefined);
  assert.ok(!removed.sent.includes('savepoint') && !removed.sent.includes('release'), `no savepoint: ${removed.sent.join(', ')}`);
  assert.equal(removed.sent.at(-1), 'commit');
});

it('when a write alone is refused by the store, then it answers the sentence naming why, and stores nothing', async () => {
  const { db } = store;
  const categoria_id = (await createRecord(db, categorias, { nombre: 'Comedia' }, context)).id as number;
  await createRecord(db, peliculas, { titulo: 'Bruma', sipnosis: 'Niebla.', duracion: 80, categoria_id }, context);
  const changes = async () => Number((await db.selectFrom('cambios').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const before = await changes();

  const missing = await statementsOf(() => createRecord(db, peliculas, { titulo: 'Ceniza', sipnosis: 'Fuego.', duracion: 70, categoria_id: 9999 }, context));
  assert.ok(missing.error instanceof Refusal, String(missing.error));
  assert.equal(missing.error.details, messages.missingReference(categorias.nouns, 9999));
  assert.deepEqual(missing.sent.slice(0, 3), ['begin', 'insert', 'rollback'], 'the refusal rolls back at once, then asks why');

  const taken = await statementsOf(() => createRecord(db, peliculas, { titulo: ' bruma ', sipnosis: 'Otra.', duracion: 60, categoria_id }, context));
  assert.ok(taken.error instanceof Refusal, String(taken.error));
  assert.match(taken.error.details, /^Ya existe/);

  const used = await statementsOf(() => removeRecord(db, categorias, categoria_id, context));
  assert.ok(used.error instanceof Refusal, String(used.error));
  assert.match(used.error.details, /1/);

  assert.equal(await changes(), before, 'no change logged by a refused write');
  assert.deepEqual((await db.selectFrom('peliculas').select('titulo').execute()).map((p) => p.titulo), ['Bruma']);
});
