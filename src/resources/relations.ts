import { Type, type TSchema } from 'typebox';
import { groupBy, rowsWhereIn } from '../db/related.js';
import type { Db } from '../db/schema.js';
import type { TipoEvento } from '../catalogue/fields.js';
import type { AnyResource } from './define.js';
import { artistas } from './artistas.js';
import { categorias } from './categorias.js';
import { eventosUrbanos } from './eventosUrbanos.js';
import { itemResources } from './items.js';
import { funciones } from './funciones.js';
import { lugares } from './lugares.js';
import { obras } from './obras.js';
import { imagenes } from './imagenes.js';
import { participaciones } from './participaciones.js';
import { peliculas } from './peliculas.js';

type Row = Record<string, unknown>;

/** A related record (or list) that `_expand` / `_embed` attach under `name`, loaded in batches. */
export interface Relation {
  schema: TSchema;
  /** Sets `row[name]` on every row, with one query per related table, whatever the row count. */
  attach(db: Db, rows: Row[], name: string): Promise<void>;
}
export interface Relations {
  expand: Record<string, Relation>;
  embed: Record<string, Relation>;
}

/** The item of each participation, whatever its kind: one query per kind present. */
async function attachEventos(db: Db, participations: Row[], name: string): Promise<void> {
  for (const [tipo, resource] of Object.entries(itemResources)) {
    const ofKind = participations.filter((p) => p.tipo_evento === tipo);
    const found = new Map((await rowsWhereIn(db, resource.table, 'id', ofKind.map((p) => p.evento_id))).map((r) => [r.id, r]));
    for (const p of ofKind) p[name] = found.get(p.evento_id);
  }
}

async function attachArtistas(db: Db, participations: Row[], name: string): Promise<void> {
  const found = new Map((await rowsWhereIn(db, 'artistas', 'dni', participations.map((p) => p.artistas_dni), { key: 'dni' })).map((a) => [a.dni, a]));
  for (const p of participations) p[name] = found.get(p.artistas_dni);
}

const evento: Relation = {
  schema: Type.Union([peliculas.schemas.item, obras.schemas.item, eventosUrbanos.schemas.item]),
  attach: attachEventos,
};
const artista: Relation = { schema: artistas.schemas.item, attach: attachArtistas };

const categoria: Relation = {
  schema: categorias.schemas.item,
  async attach(db, rows, name) {
    const found = new Map((await rowsWhereIn(db, 'categorias', 'id', rows.map((r) => r.categoria_id))).map((c) => [c.id, c]));
    for (const row of rows) row[name] = found.get(row.categoria_id);
  },
};

/** "Who took part in this?": an item's participations, each with its artist. */
function participantsOf(tipo: TipoEvento): Relation {
  return {
    schema: Type.Array(Type.Object({ ...participaciones.schemas.item.properties, artista: artista.schema })),
    async attach(db, rows, name) {
      const all = await rowsWhereIn(db, 'participaciones', 'evento_id', rows.map((r) => r.id), { also: { tipo_evento: tipo } });
      await attachArtistas(db, all, 'artista');
      const byItem = groupBy(all, 'evento_id');
      for (const row of rows) row[name] = byItem.get(row.id) ?? [];
    },
  };
}

/** An artist's career: their participations, each with its movie, work or event. */
const career: Relation = {
  schema: Type.Array(Type.Object({ ...participaciones.schemas.item.properties, evento: evento.schema })),
  async attach(db, rows, name) {
    const all = await rowsWhereIn(db, 'participaciones', 'artistas_dni', rows.map((r) => r.dni));
    await attachEventos(db, all, 'evento');
    const byArtist = groupBy(all, 'artistas_dni');
    for (const row of rows) row[name] = byArtist.get(row.dni) ?? [];
  },
};

const lugar: Relation = {
  schema: lugares.schemas.item,
  async attach(db, rows, name) {
    const found = new Map((await rowsWhereIn(db, 'lugares', 'id', rows.map((r) => r.lugar_id))).map((l) => [l.id, JSON.parse(lugares.representation(l)) as Row]));
    for (const row of rows) row[name] = found.get(row.lugar_id);
  },
};

/** What is on at a venue: its showtimes, each with its movie, work or event. */
const programme: Relation = {
  schema: Type.Array(Type.Object({ ...funciones.schemas.item.properties, evento: evento.schema })),
  async attach(db, rows, name) {
    const all = await rowsWhereIn(db, 'funciones', 'lugar_id', rows.map((r) => r.id));
    await attachEventos(db, all, 'evento');
    const byVenue = groupBy(all, 'lugar_id');
    for (const row of rows) row[name] = byVenue.get(row.id) ?? [];
  },
};

const none = {};
const relations = new Map<AnyResource, Relations>([
  [peliculas, { expand: { categoria }, embed: { participaciones: participantsOf('pelicula') } }],
  [obras, { expand: { categoria }, embed: { participaciones: participantsOf('obra') } }],
  [eventosUrbanos, { expand: { categoria }, embed: { participaciones: participantsOf('eventoUrbano') } }],
  [artistas, { expand: none, embed: { participaciones: career } }],
  [categorias, { expand: none, embed: none }],
  [participaciones, { expand: { artista, evento }, embed: none }],
  [lugares, { expand: none, embed: { funciones: programme } }],
  [funciones, { expand: { lugar, evento }, embed: none }],
]);

/** A record's images, in `orden`: the embed every resource declared with images has. */
function imagesOf(resource: AnyResource): Relation {
  return {
    schema: Type.Array(imagenes.schemas.item),
    async attach(db, rows, name) {
      const all = await rowsWhereIn(db, 'imagenes', 'clave', rows.map((r) => r[resource.key.name]), { also: { recurso: resource.name } });
      all.sort((a, b) => (a.orden as number) - (b.orden as number));
      const byRecord = groupBy(all, 'clave');
      for (const row of rows) row[name] = byRecord.get(row[resource.key.name]) ?? [];
    },
  };
}

/** What `_expand` and `_embed` can attach to a resource's records. */
export function relationsOf(resource: AnyResource): Relations {
  const declared = relations.get(resource) ?? { expand: none, embed: none };
  return resource.images ? { ...declared, embed: { ...declared.embed, imagenes: imagesOf(resource) } } : declared;
}
