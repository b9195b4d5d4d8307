import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { Refusal } from '../../src/catalogue/refusal.js';
import { groupCommits } from '../../src/db/transaction.js';
import type { Db } from '../../src/db/schema.js';
import { artistas, categorias, participaciones, peliculas } from '../../src/resources/index.js';
import { createRecord, patchRecord, removeRecord, type Precondition } from '../../src/resources/writes.js';
import { seedFor } from '../random.js';
import { backend, migratedStore, type MigratedStore } from '../stores.js';

// Group commit (src/db/transaction.ts, its queue in groupCommit.ts) runs writes that arrive together in one transaction, each in
// a savepoint; SQLite only (on PostgreSQL each write has a transaction of its own). The property: a group of writes, some of them refused, gets exactly the answers the
// same writes get one after the other, each alone, and leaves the same store and the same change log.

const RUNS = Number(process.env.GROUP_COMMIT_RUNS || 12);
const TITLES = ['Roma', 'Coco', 'Zama', 'Rojo', 'Rosa'];

type Write =
  | { kind: 'create'; titulo: string; categoria_id: number }
  | { kind: 'patch'; id: number; titulo?: string; categoria_id?: number; ifMatch: boolean }
  | { kind: 'delete'; id: number; ifMatch: boolean }
  | { kind: 'deleteCategory'; id: number }
  | { kind: 'participate'; evento_id: number };

// Ids 1–4 are seeded; 5 and 6 are made by the group (or not); 99 never exists.
const movieId = fc.constantFrom(1, 2, 3, 4, 5, 6, 99);
const categoryId = fc.constantFrom(1, 2, 99);
const writeOf: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), titulo: fc.constantFrom(...TITLES), categoria_id: categoryId }),
  fc.record(
    { kind: fc.constant('patch' as const), id: movieId, titulo: fc.constantFrom(...TITLES), categoria_id: categoryId, ifMatch: fc.boolean() },
    { requiredKeys: ['kind', 'id', 'ifMatch'] },
  ),
  fc.record({ kind: fc.constant('delete' as const), id: movieId, ifMatch: fc.boolean() }),
  fc.record({ kind: fc.constant('deleteCategory' as const), id: fc.constantFrom(1, 2) }),
  fc.record({ kind: fc.constant('participate' as const), evento_id: movieId }),
);

/** Each record as it was before the writes: an If-Match that names it is stale once an earlier write changed it. */
type Before = Map<number, string | undefined>;

function ifMatch(before: Before, id: number): Precondition {
  return (current) => {
    if (current !== before.get(id)) throw new Refusal('changed', 'stale');
  };
}

function run(db: Db, write: Write, before: Before): Promise<unknown> {
  const context = { quien: 'prueba' };
  switch (write.kind) {
    case 'create':
      return createRecord(db, peliculas, { titulo: write.titulo, sipnosis: 's', duracion: 90, categoria_id: write.categoria_id }, context);
    case 'patch': {
      const fields = { titulo: write.titulo, categoria_id: write.categoria_id };
      return patchRecord(db, peliculas, write.id, fields, context, write.ifMatch ? ifMatch(before, write.id) : undefined);
    }
    case 'delete':
      return removeRecord(db, peliculas, write.id, context, write.ifMatch ? ifMatch(before, write.id) : undefined);
    case 'deleteCategory':
      return removeRecord(db, categorias, write.id, context);
    case 'participate':
      return createRecord(db, participaciones, { artistas_dni: 7, tipo_evento: 'pelicula', evento_id: write.evento_id }, context);
  }
}

/** What a write answered: its value, or the kind and sentence of its refusal. */
async function answerOf(answer: Promise<unknown>): Promise<unknown> {
  try {
    return { stored: await answer };
  } catch (error) {
    const { name, message, kind } = error as { name: string; message: string; kind?: string };
    return { refused: { name, kind, message } };
  }
}

/** Everything the store holds, the change log included (its instants aside). */
async function contents(db: Db): Promise<unknown> {
  const rows = async (table: string, order: string) =>
    (await sql<Record<string, unknown>>`select * from ${sql.table(table)} order by ${sql.ref(order)}`.execute(db)).rows;
  return {
    categorias: await rows('categorias', 'id'),
    peliculas: await rows('peliculas', 'id'),
    participaciones: await rows('participaciones', 'id'),
    versiones: await rows('versiones', 'tabla'),
    cambios: (await rows('cambios', 'id')).map(({ cuando: _, ...change }) => change),
  };
}

async function seededStore(): Promise<MigratedStore> {
  const store = await migratedStore();
  const { db } = store;
  const context = { quien: 'semilla' };
  for (const nombre of ['Drama', 'Comedia']) await createRecord(db, categorias, { nombre }, context);
  for (const [i, titulo] of ['Alba', 'Brisa', 'Cielo', 'Duna'].entries()) {
    await createRecord(db, peliculas, { titulo, sipnosis: 's', duracion: 90, categoria_id: (i % 2) + 1 }, context);
  }
  await createRecord(db, artistas, { dni: 7, nombre: 'Ana', apellido: 'Paz', tipo: 'actor', descripcion: 'd' }, context);
  await createRecord(db, participaciones, { artistas_dni: 7, tipo_evento: 'pelicula', evento_id: 1 }, context);
  return store;
}

describe(`group commit (${backend})`, () => {
  it('when writes, some refused, arrive together, then each gets the answer it gets alone and the store ends as after them one by one', async (t) => {
    await fc.assert(
      fc.asyncProperty(fc.array(writeOf, { minLength: 2, maxLength: 24 }), async (writes) => {
        const together = await seededStore();
        const alone = await seededStore();
        try {
          const before: Before = new Map();
          for (const id of [1, 2, 3, 4, 5, 6, 99]) {
            const record = await peliculas.queries(together.db).get(id);
            before.set(id, record && peliculas.representation(record));
          }
          const groupsBefore = groupCommits.groups;
          // All sent in one turn of the event loop: they reach the committer in this order.
          const grouped = await Promise.all(writes.map((write) => answerOf(run(together.db, write, before))));
          assert.ok(groupCommits.groups - groupsBefore < writes.length, 'the writes shared transactions');
          const oneByOne: unknown[] = [];
          for (const write of writes) oneByOne.push(await answerOf(run(alone.db, write, before)));
          assert.deepEqual(grouped, oneByOne);
          assert.deepEqual(await contents(together.db), await contents(alone.db));
        } finally {
          await together.drop();
          await alone.drop();
        }
      }),
      { numRuns: RUNS, seed: seedFor(t) },
    );
  });
});
