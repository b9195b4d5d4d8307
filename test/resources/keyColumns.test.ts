// A text field's comparable column is made from the resource's declaration alone: declaring the field is
// enough for writes to fill `<field>_clave` and for `?q=` to search it. (The compile-time half,
// a write that forgets a comparable column, is keyColumns.typecheck.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { LongText } from '../../src/catalogue/fields.js';
import { comparable } from '../../src/catalogue/comparable.js';
import { listRows } from '../../src/db/listing.js';
import type { Db } from '../../src/db/schema.js';
import { defineResource } from '../../src/resources/define.js';
import { categorias, obras, resources } from '../../src/resources/index.js';
import { backend, migratedStore, type MigratedStore } from '../stores.js';

describe(`comparable columns (${backend})`, () => {
  let store: MigratedStore;
  let db: Db;
  before(async () => {
    store = await migratedStore();
    db = store.db;
  });
  after(() => store.drop());

  it('when each resource is declared, then its text fields are exactly those whose comparable columns its table has', async () => {
    const tables = await db.introspection.getTables();
    for (const resource of resources) {
      const columns = tables.find((t) => t.name === resource.table)?.columns.map((c) => c.name) ?? [];
      const keyColumns = columns.filter((c) => c.endsWith('_clave')).sort();
      assert.deepEqual(resource.textFields.map((f) => `${f}_clave`).sort(), keyColumns, resource.name);
    }
  });

  it('when a resource declares one more text field, then writes fill its comparable column and a q search finds the record by it', async () => {
    await sql`alter table obras add column lema text not null default ''`.execute(db);
    await sql`alter table obras add column lema_clave text not null default ''`.execute(db);
    const obrasConLema = defineResource({
      ...obras,
      fields: { ...obras.fields, lema: LongText },
      example: { ...obras.example, lema: 'Todo el mundo es un escenario.' },
      // Obras' own queries: they store whatever columns they are given.
      queries: obras.queries as never,
    });
    assert.deepEqual(obrasConLema.textFields, ['titulo', 'descripcion', 'lema']);

    const categoria = await categorias.queries(db).create({ nombre: 'Teatro de texto' });
    const created = await obrasConLema.queries(db).create({
      titulo: 'Como gustéis', descripcion: 'Comedia pastoral.', duracion: 120, categoria_id: categoria.id, lema: 'Todo el mundo es un ESCENARIO.',
    });
    const stored = await db.selectFrom('obras').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    assert.equal((stored as Record<string, unknown>).lema_clave, 'todo el mundo es un escenario.');

    const search = (kinds: typeof obras.kinds) =>
      listRows(db, { table: 'obras', key: 'id', kinds }, { conditions: [], search: comparable('Escenario'), sort: [], expand: [], embed: [] }, 1);
    assert.deepEqual((await search(obrasConLema.kinds)).rows.map((r) => (r as { titulo: string }).titulo), ['Como gustéis']);
    assert.deepEqual((await search(obras.kinds)).rows, [], 'without the field declared, nothing searches it');
  });
});
