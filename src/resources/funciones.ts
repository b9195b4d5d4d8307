import { Type } from 'typebox';
import { Estado, Fin, Id, Inicio, Notas, TipoEvento, type TipoEvento as Tipo } from '../catalogue/fields.js';
import { messages } from '../catalogue/messages.js';
import { insertReturning, updateReturning } from '../db/prepared.js';
import { defineResource } from './define.js';
import { itemResources as items } from './items.js';
import { lugares } from './lugares.js';

export const funciones = defineResource({
  name: 'funciones',
  table: 'funciones',
  english: 'showtime',
  nouns: {
    the: 'la función',
    a: 'una función',
    lookupBy: 'id',
    idBy: 'id',
    duplicateBy: 'el tipo de evento, id de evento, lugar e inicio',
    deleted: ['la función', 'eliminada'],
    failed: { create: 'una nueva funcion', update: 'la funcion', remove: 'la funcion' },
  },
  key: { name: 'id', schema: Id, chosenByClient: false },
  fields: {
    tipo_evento: TipoEvento,
    evento_id: Id,
    lugar_id: Id,
    inicio: Inicio,
    fin: Type.Optional(Fin),
    estado: Type.Optional(Estado),
    notas: Type.Optional(Notas),
  },
  // Read by id, as written.
  lookup: { param: 'id', schema: Id },
  example: { id: 1, tipo_evento: 'obra', evento_id: 1, lugar_id: 1, inicio: '2026-12-25T20:00:00.000+00:00', fin: null, estado: 'programada', notas: 'Con intérprete de lengua de señas' },
  location: (f) => `/funciones/${f.id}`,
  references: {
    evento_id: { to: (f) => items[f.tipo_evento as Tipo], byLookup: 'evento' },
    lugar_id: { to: () => lugares, byLookup: 'lugar' },
  },
  coordinates: 'venue',
  unique: ['tipo_evento', 'evento_id', 'lugar_id', 'inicio'],
  rules: (f) => (f.fin == null || f.fin > f.inicio ? [] : [{ field: 'fin', sentence: messages.endBeforeStart }]),
  queries: (db) => ({
    get: (id) => db.selectFrom('funciones').selectAll().where('id', '=', id).executeTakeFirst(),
    find: (id) => db.selectFrom('funciones').selectAll().where('id', '=', id).executeTakeFirst(),
    create: (f) => insertReturning(db, 'funciones', f),
    update: (id, f) => updateReturning(db, 'funciones', 'id', id, f),
    remove: async (id) => (await db.deleteFrom('funciones').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n,
  }),
});
