// What a write sends PostgreSQL, statement by statement: each is a round trip. A create alone is
// one statement (the record and its change, committed by itself: db/prepared.ts, insertLogged); an
// update alone one statement (updateLogged) when the process knows the record as it stands (it
// stored or read it last: db/knownRows.ts); else one statement that reads, sets and logs it
// (replaceLogged) where the record's fields are integers and text and no If-Match is sent, or a
// read and updateLogged's statement; each a call of the function that keeps the statement, made
// the first time. A refused one still answers the contract's sentence, asked after. A delete is a
// transaction of its own, with no savepoint.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { messages } from '../../src/catalogue/messages.js';
import { Refusal } from '../../src/catalogue/refusal.js';
import { artistas, categorias, eventosUrbanos, funciones, lugares, obras, participaciones, peliculas } from '../../src/resources/index.js';
import type { AnyResource } from '../../src/resources/define.js';
import { createRecord, patchRecord, removeRecord, replaceRecord } from '../../src/resources/writes.js';
import { changedFields } from '../../src/resources/changeLog.js';
import { openDatabase } from '../../src/db/connect.js';
import { groupCommits } from '../../src/db/transaction.js';
import { forgetAll, KNOWN_BYTES, knownBytes, remember, sizeOf } from '../../src/db/knownRows.js';
import type { Db } from '../../src/db/schema.js';
import { migratedStore, type MigratedStore } from '../stores.js';

const context = { quien: 'ana' };
let store: MigratedStore;
/** Another process on the same store: it knows nothing of what this one stored or read. */
let elsewhere: Db;
before(async () => {
  store = await migratedStore();
  elsewhere = openDatabase(store.url);
});
after(async () => {
  await elsewhere.destroy();
  await store.drop();
});

const textOf = (args: unknown[]) => {
  const [first] = args;
  return typeof first === 'string' ? first : (first as { text?: string }).text ?? '';
};

/** Whether `text` calls the function that keeps a write's statement (db/prepared.ts). */
const isCall = (text: string) => /^select \* from cartelera_[0-9a-f]{32}\(/.test(text);

/** Whether `text` makes such a function: the written table's columns read, then the function created. */
const isMaking = (text: string) => text.startsWith('select c.relname as tabla') || text.startsWith('create function cartelera_');

/**
 * The statements `write` sends, each the first word of its text, lowercased, or `call` for a call of
 * a statement's function; apart, those that made such functions (the first time a statement ran).
 */
async function statementsOf(write: () => Promise<unknown>): Promise<{ sent: string[]; making?: string[]; error?: unknown }> {
  const sent: string[] = [];
  const making: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = textOf(args);
    if (isMaking(text)) making.push(text.split(/\s+/, 2).join(' '));
    else sent.push(isCall(text) ? 'call' : text.trim().split(/\s+/, 1)[0]?.toLowerCase() ?? '');
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  const made = () => (making.length > 0 ? { making } : {});
  try {
    await write();
    return { sent, ...made() };
  } catch (error) {
    return { sent, ...made(), error };
  } finally {
    pg.Client.prototype.query = query;
  }
}

it('when a movie is created, updated and deleted alone, then a create is one statement, an update one statement (a read first under If-Match when this process does not know the record as it stands), a delete a transaction with no savepoint', async () => {
  const { db } = store;
  const { id: categoria_id } = await createRecord(db, categorias, { nombre: 'Drama' }, context);
  let id = 0;
  let aurora = 0;
  const first = await statementsOf(async () => {
    ({ id: aurora } = (await createRecord(db, peliculas, { titulo: 'Aurora', sipnosis: 'Un alba.', duracion: 91, categoria_id }, context)) as { id: number });
  });
  assert.deepEqual(first, { sent: ['call'], making: ['select c.relname', 'create function'] }, 'the first create makes the function that keeps its statement');
  await removeRecord(db, peliculas, aurora, context);
  const created = await statementsOf(async () => {
    ({ id } = (await createRecord(db, peliculas, { titulo: 'Alba', sipnosis: 'Una mañana.', duracion: 90, categoria_id }, context)) as { id: number });
  });
  assert.deepEqual(created, { sent: ['call'] }, 'the record and its change, committed by themselves');
  await patchRecord(db, peliculas, id, { duracion: 94 }, context);
  const updated = await statementsOf(() => patchRecord(db, peliculas, id, { duracion: 95 }, context));
  assert.deepEqual(updated, { sent: ['call'] }, 'the record as this process stored it, set with its change');
  assert.deepEqual(await statementsOf(() => patchRecord(db, peliculas, id, { duracion: 96 }, context)), { sent: ['call'] }, 'and again');

  await patchRecord(elsewhere, peliculas, id, { sipnosis: 'Una mañana, otra vez.' }, context);
  const stale = await statementsOf(() => patchRecord(db, peliculas, id, { duracion: 97 }, context));
  assert.deepEqual(stale.sent, ['call', 'call'], 'the record as known, changed since: nothing stored; then read, set and logged at once');
  assert.deepEqual(await statementsOf(() => patchRecord(db, peliculas, id, { duracion: 98 }, context)), { sent: ['call'] }, 'known again as set');
  const { id: unknown } = (await createRecord(elsewhere, peliculas, { titulo: 'Ocaso', sipnosis: 'Una tarde.', duracion: 88, categoria_id }, context)) as { id: number };
  const unseen = await statementsOf(() => patchRecord(db, peliculas, unknown, { duracion: 89 }, context));
  assert.deepEqual(unseen.sent, ['call'], 'a record another process stored: read, set and logged at once');
  // The other process changes it between this one's updates (as `otra`), so that what this one keeps is stale.
  const otra = { quien: 'otra' };
  const ocaso = { titulo: 'Ocaso', sipnosis: 'Una noche.', duracion: 89, categoria_id };
  await patchRecord(elsewhere, peliculas, unknown, { duracion: 87 }, otra);
  const committed = groupCommits.writes;
  const replaced = await statementsOf(() => replaceRecord(db, peliculas, unknown, ocaso, context));
  assert.equal(groupCommits.writes, committed + 1, 'one write committed');
  assert.deepEqual(replaced.sent, ['call', 'call'], 'a PUT of it, changed since: the kept row stores nothing; then read, set and logged at once');
  await patchRecord(elsewhere, peliculas, unknown, { duracion: 86 }, otra);
  const conditional = await statementsOf(() => patchRecord(db, peliculas, unknown, { duracion: 85 }, context, () => {}));
  assert.deepEqual(conditional.sent, ['call', 'call', 'call'], 'under If-Match: the kept row stores nothing; then the record read and checked, and set');
  await patchRecord(elsewhere, peliculas, unknown, { duracion: 89 }, otra);
  const committedBefore = groupCommits.writes;
  const unchanged = await statementsOf(() => replaceRecord(db, peliculas, unknown, ocaso, context));
  assert.equal(groupCommits.writes, committedBefore, 'no write committed (on /metrics)');
  assert.deepEqual(unchanged.sent, ['call', 'call'], 'a PUT of what the record holds now: the kept row stores nothing; then read at once, and nothing stored');
  const ocasoAs = (sipnosis: string, duracion: number) => peliculas.representation({ id: unknown, ...ocaso, sipnosis, duracion });
  const log = await db.selectFrom('cambios').select(['antes', 'despues', 'campos']).where('recurso', '=', 'peliculas').where('clave', '=', unknown)
    .where('operacion', '=', 'modificacion').where('quien', '=', context.quien).orderBy('id').execute();
  assert.deepEqual(log, [
    { antes: ocasoAs('Una tarde.', 88), despues: ocasoAs('Una tarde.', 89), campos: '["duracion"]' },
    { antes: ocasoAs('Una tarde.', 87), despues: ocasoAs('Una noche.', 89), campos: '["sipnosis","duracion"]' },
    { antes: ocasoAs('Una noche.', 86), despues: ocasoAs('Una noche.', 85), campos: '["duracion"]' },
  ], 'each change from the record as the other process left it, as the API answers it; the PUT that changed nothing not logged');
  assert.deepEqual((await peliculas.queries(db).get(id))?.sipnosis, 'Una mañana, otra vez.', 'the other process\'s change kept');
  await removeRecord(db, peliculas, unknown, context);
  const removed = await statementsOf(() => removeRecord(db, peliculas, id, context));
  assert.equal(removed.error, undefined);
  assert.ok(!removed.sent.includes('savepoint') && !removed.sent.includes('release'), `no savepoint: ${removed.sent.join(', ')}`);
  assert.equal(removed.sent.at(-1), 'commit');
});

it('when a write alone is refused by the store, then it answers the sentence naming why, and stores nothing', async () => {
  const { db } = store;
  const categoria_id = (await createRecord(db, categorias, { nombre: 'Comedia' }, context)).id as number;
  await createRecord(db, peliculas, { titulo: 'Bruma', sipnosis: 'Niebla.', duracion: 80, categoria_id }, context);
  const niebla = (await createRecord(db, peliculas, { titulo: 'Niebla', sipnosis: 'Bruma.', duracion: 81, categoria_id }, context)).id as number;
  const changes = async () => Number((await db.selectFrom('cambios').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const before = await changes();

  const missing = await statementsOf(() => createRecord(db, peliculas, { titulo: 'Ceniza', sipnosis: 'Fuego.', duracion: 70, categoria_id: 9999 }, context));
  assert.ok(missing.error instanceof Refusal, String(missing.error));
  assert.equal(missing.error.details, messages.missingReference(categorias.nouns, 9999));
  assert.deepEqual(missing.sent.slice(0, 2), ['call', 'select'], 'the refused statement stores nothing, then the store is asked why');

  const taken = await statementsOf(() => createRecord(db, peliculas, { titulo: ' bruma ', sipnosis: 'Otra.', duracion: 60, categoria_id }, context));
  assert.ok(taken.error instanceof Refusal, String(taken.error));
  assert.match(taken.error.details, /^Ya existe/);

  // An update of a record as this process knows it, refused: explained only on the record as read.
  const renamed = await statementsOf(() => patchRecord(db, peliculas, niebla, { titulo: 'BRUMA' }, context));
  assert.ok(renamed.error instanceof Refusal, String(renamed.error));
  assert.equal(renamed.error.details, messages.duplicate(peliculas.nouns, 'BRUMA'));
  assert.deepEqual(renamed.sent, ['call', 'call', 'select'], 'refused on the record as known; refused again at once; the record read to name it');

  const used = await statementsOf(() => removeRecord(db, categorias, categoria_id, context));
  assert.ok(used.error instanceof Refusal, String(used.error));
  assert.match(used.error.details, /2/);

  assert.equal(await changes(), before, 'no change logged by a refused write');
  assert.deepEqual((await db.selectFrom('peliculas').select('titulo').orderBy('id').execute()).map((p) => p.titulo), ['Bruma', 'Niebla']);
});

/** The last change the log holds for this record. */
function lastChange(resource: AnyResource, clave: number) {
  return store.db.selectFrom('cambios').select(['antes', 'despues', 'campos']).where('recurso', '=', resource.name).where('clave', '=', clave)
    .orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
}
const lastDespues = async (resource: AnyResource, clave: number) => (await lastChange(resource, clave)).despues;

it('when a record of every resource is created and changed alone, then its one statement logs it exactly as the API answers it', async () => {
  const { db } = store;
  const { id: categoria_id } = (await createRecord(db, categorias, { nombre: 'Ópera' }, context)) as { id: number };
  const { id: lugar_id } = (await createRecord(db, lugares, { nombre: 'Teatro', direccion: 'Cerrito 628' }, context)) as { id: number };
  // Values whose stored form could differ from the one sent: floats, booleans, instants, nulls, text with quotes and accents.
  const keys = new Map<AnyResource, number>();
  const keyOf = (resource: AnyResource) => keys.get(resource) ?? 0;
  type Fields = Record<string, unknown>;
  const written: [AnyResource, () => Fields, Fields | (() => Fields)][] = [
    [categorias, () => ({ nombre: 'Zarzuela "clásica"' }), { nombre: 'Zarzuela' }],
    [lugares, () => ({ nombre: 'Colón', direccion: 'Cerrito 628, Buenos Aires', latitud: -34.601066, longitud: -58.383217, accesible: true, url: 'https://teatrocolon.org.ar' }), { accesible: false, latitud: 0.1, longitud: -0.000001 }],
    [peliculas, () => ({ titulo: 'Roma', sipnosis: 'Ciudad de México, 1970.\nCleo.', duracion: 135, categoria_id }), { duracion: 136 }],
    [obras, () => ({ titulo: 'La Celestina', descripcion: 'Tragicomedia.', duracion: 120, categoria_id }), { descripcion: 'De Fernando de Rojas.' }],
    [eventosUrbanos, () => ({ titulo: 'Milonga', descripcion: 'Al aire libre.', fecha: '2026-09-20T00:00:00.000+00:00', lugar: 'Plaza Dorrego', categoria_id }), { fecha: '2026-09-21T21:30:00.000+00:00' }],
    [artistas, () => ({ dni: 20111222, nombre: 'Alfonso', apellido: 'Cuarón', tipo: 'director', descripcion: 'Mexicano.' }), { descripcion: 'Nacido en 1961.' }],
    [funciones, () => ({ tipo_evento: 'obra', evento_id: keyOf(obras), lugar_id, inicio: '2026-12-25T20:00:00.000+00:00', notas: 'Con intérprete' }), { estado: 'agotada', notas: null }],
    [participaciones, () => ({ artistas_dni: 20111222, tipo_evento: 'pelicula', evento_id: keyOf(peliculas) }), () => ({ tipo_evento: 'obra', evento_id: keyOf(obras) })],
  ];
  for (const [resource, record, patch] of written) {
    let key = 0;
    const created = await statementsOf(async () => {
      key = (await createRecord(db, resource, record(), context))[resource.key.name] as number;
    });
    keys.set(resource, key);
    assert.deepEqual(created.sent, ['call'], `${resource.name}: one statement, nothing corrected after`);
    const answered = async () => resource.representation((await resource.queries(db).get(key)) ?? {});
    assert.equal(await lastDespues(resource, key), await answered(), `${resource.name}: its alta`);
    const patched = await statementsOf(() => patchRecord(db, resource, key, typeof patch === 'function' ? patch() : patch, context));
    assert.deepEqual(patched.sent, ['call'], `${resource.name}: one statement on the record as created, nothing corrected after`);
    assert.equal(await lastDespues(resource, key), await answered(), `${resource.name}: its modificacion`);
    // The record put back as created, by a process that does not know it: where its fields are
    // integers and text, the one statement that reads it writes the change's JSON itself.
    const before = await answered();
    forgetAll(db);
    const restored = await statementsOf(() => replaceRecord(db, resource, key, record(), context));
    const atOnce = ([categorias, peliculas, obras, artistas, participaciones] as AnyResource[]).includes(resource);
    assert.equal(resource.answeredInSql !== undefined, atOnce, `${resource.name}: its fields are ${atOnce ? '' : 'not '}all integers and text`);
    assert.deepEqual(restored.sent, atOnce ? ['call'] : ['call', 'call'], `${resource.name}: ${atOnce ? 'one statement' : 'a read and one statement'}, nothing corrected after`);
    const { antes, despues, campos } = await lastChange(resource, key);
    assert.deepEqual({ antes, despues }, { antes: before, despues: await answered() }, `${resource.name}: the modificacion as the API answers the record before and after`);
    assert.equal(campos, JSON.stringify(changedFields(resource, before, await answered())), `${resource.name}: the fields it changed`);
  }
});

/** The statements `write` sends, with `other` run just before its update's one statement (its second call: the first is its read). */
async function raced(other: () => Promise<unknown>, write: () => Promise<unknown>): Promise<{ sent: string[]; error?: unknown }> {
  const query = pg.Client.prototype.query;
  let meddled = false;
  let calls = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (!meddled && isCall(textOf(args)) && ++calls === 2) {
      meddled = true;
      return other().then(() => (query as (...a: unknown[]) => unknown).apply(this, args));
    }
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    return await statementsOf(write);
  } finally {
    pg.Client.prototype.query = query;
    assert.ok(meddled, 'the other write went in');
  }
}

it('when another write changes the record between a conditional update\'s read and its statement, then the statement stores nothing and the update runs again holding the record', async () => {
  const { db } = store;
  // Stored by another process: this one reads it before its update.
  const { id: categoria_id } = (await createRecord(elsewhere, categorias, { nombre: 'Suspenso' }, context)) as { id: number };
  const movie = await createRecord(elsewhere, peliculas, { titulo: 'Vértigo', sipnosis: 'Alturas.', duracion: 128, categoria_id }, context);
  const id = movie.id as number;
  const seen = peliculas.representation(movie);
  const other = { ...movie, sipnosis: 'Vértigo y alturas.' };
  const { sent, error } = await raced(
    () => replaceRecord(elsewhere, peliculas, id, other, { quien: 'otra' }),
    // If-Match: *, which any record as it stands meets: the update reads the record first.
    () => patchRecord(db, peliculas, id, { duracion: 129 }, context, () => {}),
  );
  assert.equal(error, undefined);
  assert.deepEqual(sent, ['call', 'call', 'call', 'begin', 'select', 'update', 'insert', 'commit'],
    'the read, its statement (before which the other process stores the record it knows), then, the record found changed, the locked write');
  const log = await db.selectFrom('cambios').select(['quien', 'antes', 'despues', 'campos']).where('recurso', '=', 'peliculas').where('clave', '=', id)
    .where('operacion', '=', 'modificacion').orderBy('id').execute();
  const both = peliculas.representation({ ...other, duracion: 129 });
  assert.deepEqual(log, [
    { quien: 'otra', antes: seen, despues: peliculas.representation(other), campos: '["sipnosis"]' },
    { quien: 'ana', antes: peliculas.representation(other), despues: both, campos: '["duracion"]' },
  ]);
  assert.equal(peliculas.representation((await peliculas.queries(db).get(id)) ?? {}), both, 'both writes kept');

  // Under a precondition on the record as first read (an If-Match), the write run again refuses.
  const asSeen = (current: string | undefined) => {
    if (current !== both) throw new Refusal('changed', messages.preconditionFailed);
  };
  const stale = await raced(
    () => patchRecord(elsewhere, peliculas, id, { sipnosis: 'Otra vez.' }, { quien: 'otra' }),
    () => patchRecord(db, peliculas, id, { duracion: 130 }, context, asSeen),
  );
  assert.ok(stale.error instanceof Refusal && stale.error.kind === 'changed', String(stale.error));
  const now = await peliculas.queries(db).get(id);
  assert.deepEqual([now?.sipnosis, now?.duracion], ['Otra vez.', 129], 'the other write kept, the refused one not stored');
});

it('when another write commits between an update\'s one statement reading the record and writing it, then the statement stores nothing and the update runs again holding the record', async () => {
  const { db } = store;
  const { id: categoria_id } = (await createRecord(elsewhere, categorias, { nombre: 'Misterio' }, context)) as { id: number };
  // Stored by another process: this one updates it in the one statement that reads it.
  const movie = await createRecord(elsewhere, peliculas, { titulo: 'Sospecha', sipnosis: 'Manderley.', duracion: 130, categoria_id }, context);
  const id = movie.id as number;
  // The other write holds the row, uncommitted, while the update's statement reads the record as it
  // was and waits to write it; a third connection watches for that wait. Their statements are not
  // the update's: they go out through pg's own query, which statementsOf does not count.
  const other = new pg.Client({ connectionString: store.url });
  const watcher = new pg.Client({ connectionString: store.url });
  await Promise.all([other.connect(), watcher.connect()]);
  const send = pg.Client.prototype.query.bind(other) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
  const watch = pg.Client.prototype.query.bind(watcher) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
  try {
    await send('begin');
    await send("update peliculas set sipnosis = 'Manderley de noche.', sipnosis_clave = 'manderley de noche.' where id = $1", [id]);
    const pid = ((await send('select pg_backend_pid() as pid')).rows[0] as { pid: number }).pid;
    const update = statementsOf(() => replaceRecord(db, peliculas, id, { titulo: 'Sospecha', sipnosis: 'Manderley.', duracion: 131, categoria_id }, context));
    for (;;) {
      const { rows } = await watch(
        "select exists (select 1 from pg_stat_activity where wait_event_type = 'Lock' and $1 = any(pg_blocking_pids(pid)) and query like 'select * from cartelera_%') as waiting", [pid]);
      if ((rows[0] as { waiting: boolean }).waiting) break;
    }
    await send('commit');
    const { sent, error } = await update;
    assert.equal(error, undefined);
    assert.deepEqual(sent, ['call', 'begin', 'select', 'update', 'insert', 'commit'], 'the one statement, which stored nothing, then the locked write');
  } finally {
    await Promise.all([other.end(), watcher.end()]);
  }
  const log = await db.selectFrom('cambios').select(['antes', 'despues', 'campos']).where('recurso', '=', 'peliculas').where('clave', '=', id)
    .where('operacion', '=', 'modificacion').execute();
  const sospecha = (sipnosis: string, duracion: number) => peliculas.representation({ id, titulo: 'Sospecha', sipnosis, duracion, categoria_id });
  assert.deepEqual(log, [{ antes: sospecha('Manderley de noche.', 130), despues: sospecha('Manderley.', 131), campos: '["sipnosis","duracion"]' }],
    'the change from the record as the other write left it');
  assert.equal(peliculas.representation((await peliculas.queries(db).get(id)) ?? {}), sospecha('Manderley.', 131));
});

it('when the records known take more than the bound, then the least recently used are forgotten, and an update of one reads it first', async () => {
  const { db } = store;
  const { id: categoria_id } = (await createRecord(db, categorias, { nombre: 'Policial' }, context)) as { id: number };
  forgetAll(db);
  const created = async (titulo: string) => (await createRecord(db, peliculas, { titulo, sipnosis: 'Sombras.', duracion: 100, categoria_id }, context)).id as number;
  const older = await created('Laura');
  const newer = await created('Rebeca');
  // Records of no table this file writes, as many as fill the memory with these two.
  const filler = { id: 0, texto: 'Relleno. '.repeat(100) };
  let n = 0;
  while (knownBytes(db) + sizeOf(filler) <= KNOWN_BYTES) remember(db, 'ninguna', ++n, filler, '1');
  assert.ok(n > 1000 && n < 4096, `${n} records of about 2 kB fill the memory`);
  // Under If-Match (`*`): a record not known is read first.
  const any = () => {};
  assert.deepEqual(await statementsOf(() => patchRecord(db, peliculas, older, { duracion: 101 }, context, any)), { sent: ['call'] }, 'both still known');
  remember(db, 'ninguna', ++n, filler, '1');
  assert.ok(knownBytes(db) <= KNOWN_BYTES, 'no more than the bound kept');
  assert.deepEqual(await statementsOf(() => patchRecord(db, peliculas, newer, { duracion: 102 }, context, any)), { sent: ['call', 'call'] }, 'the least recently used forgotten');
  assert.deepEqual(await statementsOf(() => patchRecord(db, peliculas, older, { duracion: 103 }, context, any)), { sent: ['call'] }, 'the one used since kept');
  const stored = await db.selectFrom('peliculas').select(['id', 'duracion']).where('id', 'in', [older, newer]).orderBy('id').execute();
  assert.deepEqual(stored, [{ id: older, duracion: 103 }, { id: newer, duracion: 102 }]);
});

it('when a transaction that stored and changed a record rolls back, then this process does not know the record', async () => {
  const { db } = store;
  const { id: categoria_id } = (await createRecord(db, categorias, { nombre: 'Musical' }, context)) as { id: number };
  let id = 0;
  await assert.rejects(db.transaction().execute(async (trx) => {
    id = (await createRecord(trx, peliculas, { titulo: 'Cabaret', sipnosis: 'Berlín.', duracion: 124, categoria_id }, context)).id as number;
    await patchRecord(trx, peliculas, id, { duracion: 125 }, context);
    throw new Error('rolled back');
  }), /rolled back/);
  const after = await statementsOf(() => patchRecord(db, peliculas, id, { duracion: 126 }, context));
  assert.deepEqual(after, { sent: ['call'] }, 'read, and found missing');
});

it('when the store\'s connections are cut, then this process forgets what it knew, and its next update reads the record first', async () => {
  const { db } = store;
  const { id: categoria_id } = (await createRecord(db, categorias, { nombre: 'Bélico' }, context)) as { id: number };
  const id = (await createRecord(db, peliculas, { titulo: 'Dunkerque', sipnosis: 'Playa.', duracion: 106, categoria_id }, context)).id as number;
  // Every connection of the store but this one, each waited for until it is gone.
  await sql`select pg_terminate_backend(pid, 5000) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(elsewhere);
  let duracion = 107;
  // Under If-Match (`*`): a record not known is read first.
  let update = await statementsOf(() => patchRecord(db, peliculas, id, { duracion }, context, () => {}));
  // The pool may learn of its lost connections from this update's statement, which fails for it.
  if (update.error !== undefined) update = await statementsOf(() => patchRecord(db, peliculas, id, { duracion: ++duracion }, context, () => {}));
  assert.equal(update.error, undefined);
  assert.deepEqual(update.sent, ['call', 'call'], 'the first update that reaches the store reads the record first');
  assert.equal((await peliculas.queries(db).get(id))?.duracion, duracion);
});

/** The functions that keep statements, as the database holds them: name and body. */
async function keptFunctions(): Promise<{ proname: string; prosrc: string }[]> {
  const { rows } = await sql<{ proname: string; prosrc: string }>`select proname, prosrc from pg_proc where proname ~ '^cartelera_[0-9a-f]{32}$'`.execute(store.db);
  return rows;
}

it('when two processes run a statement first at once, then one function is made for it and both store through it', async () => {
  const { db } = store;
  const { id: categoria_id } = (await createRecord(db, categorias, { nombre: 'Western' }, context)) as { id: number };
  const one = (await createRecord(db, obras, { titulo: 'Fuenteovejuna', descripcion: 'Lope.', duracion: 100, categoria_id }, context)).id as number;
  const two = (await createRecord(db, obras, { titulo: 'Bodas de sangre', descripcion: 'Lorca.', duracion: 110, categoria_id }, context)).id as number;
  const processes = [openDatabase(store.url), openDatabase(store.url)];
  try {
    // A statement no write of this file ran before: a work's duration and title changed together.
    await Promise.all(processes.map((other, i) => patchRecord(other, obras, i === 0 ? one : two, { duracion: 101 + i, titulo: `Obra ${i}` }, context)));
  } finally {
    await Promise.all(processes.map((other) => other.destroy()));
  }
  const stored = await db.selectFrom('obras').select(['titulo', 'duracion']).where('id', 'in', [one, two]).orderBy('id').execute();
  assert.deepEqual(stored, [{ titulo: 'Obra 0', duracion: 101 }, { titulo: 'Obra 1', duracion: 102 }]);
  const kept = await keptFunctions();
  assert.equal(new Set(kept.map((f) => f.prosrc)).size, kept.length, 'no statement kept twice');
  const sets = (f: { prosrc: string }, column: string) => new RegExp(`update "obras" as t set [^)]*"${column}" = case`).test(f.prosrc);
  assert.equal(kept.filter((f) => sets(f, 'titulo') && sets(f, 'duracion') && !sets(f, 'descripcion')).length, 1, 'the statement both ran, kept once');
});

it('when the store\'s role may not create functions, then each statement is sent as it is, and writes store as before', async () => {
  const role = `cartelera_sin_funciones_${process.pid}`;
  await sql`revoke create on schema public from public`.execute(store.db);
  await sql.raw(`create role ${role} login password 'clave'`).execute(store.db);
  await sql.raw(`grant select, insert, update, delete on all tables in schema public to ${role}`).execute(store.db);
  await sql.raw(`grant usage on all sequences in schema public to ${role}`).execute(store.db);
  const url = new URL(store.url);
  url.username = role;
  url.password = 'clave';
  let limited: Db | undefined;
  try {
    limited = openDatabase(url.toString());
    const writer = limited;
    const { id: categoria_id } = (await createRecord(writer, categorias, { nombre: 'Sainete' }, context)) as { id: number };
    const created = await statementsOf(() => createRecord(writer, eventosUrbanos, { titulo: 'Murga', descripcion: 'Carnaval.', fecha: '2027-02-14T00:00:00.000+00:00', lugar: 'Boedo', categoria_id }, context));
    assert.equal(created.error, undefined);
    assert.deepEqual(created.sent, ['with'], 'the statement itself, its function refused');
    const again = await statementsOf(() => createRecord(writer, eventosUrbanos, { titulo: 'Comparsa', descripcion: 'Carnaval.', fecha: '2027-02-15T00:00:00.000+00:00', lugar: 'Boedo', categoria_id }, context));
    assert.deepEqual(again, { sent: ['with'] }, 'not asked again');
    const titles = await store.db.selectFrom('eventos_urbanos').select('titulo').where('titulo', 'in', ['Murga', 'Comparsa']).orderBy('id').execute();
    assert.deepEqual(titles.map((e) => e.titulo), ['Murga', 'Comparsa']);
  } finally {
    await limited?.destroy();
    await sql.raw(`drop owned by ${role}`).execute(store.db);
    await sql.raw(`drop role ${role}`).execute(store.db);
  }
});

it('when a table gains a column while a process writes to it, or a function is dropped, then its writes go on, and its functions are made again', async () => {
  const { db } = store;
  await createRecord(db, categorias, { nombre: 'Farsa' }, context);
  await sql`alter table categorias add column nota text`.execute(db);
  try {
    const changed = await statementsOf(() => createRecord(db, categorias, { nombre: 'Grotesco' }, context));
    assert.equal(changed.error, undefined);
    assert.deepEqual(changed.sent, ['call', 'with'], 'the function, made for the table before, refused; the statement as it is');
    const again = await statementsOf(() => createRecord(db, categorias, { nombre: 'Vodevil' }, context));
    assert.deepEqual(again, { sent: ['call'], making: ['select c.relname', 'create function'] }, 'a function for the table as it is');
    for (const { proname } of await keptFunctions()) await sql.raw(`drop function ${proname}`).execute(db);
    const dropped = await statementsOf(() => createRecord(db, categorias, { nombre: 'Revista' }, context));
    assert.deepEqual(dropped.sent, ['call', 'with']);
  } finally {
    await sql`alter table categorias drop column nota`.execute(db);
  }
  const stored = await db.selectFrom('categorias').select('nombre').where('nombre', 'in', ['Grotesco', 'Vodevil', 'Revista']).orderBy('id').execute();
  assert.deepEqual(stored.map((c) => c.nombre), ['Grotesco', 'Vodevil', 'Revista']);
});

