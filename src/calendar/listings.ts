import { sql, type Expression, type SqlBool } from 'kysely';
import type { TipoEvento } from '../catalogue/fields.js';
import { escapeLike, filtersOf, type Condition, type Window } from '../db/listing.js';
import { venueConditions, type Geo } from '../db/near.js';
import { rowsWhereIn } from '../db/related.js';
import type { Db } from '../db/schema.js';
import { funciones, itemResources, lugares } from '../resources/index.js';

/**
 * What's on (`GET /cartelera`): the showtimes of a window of days, each with the item and the venue
 * a listings page shows (docs/api.md, "What's on"). Read here; the JSON-LD and the calendar
 * (jsonld.ts, ics.ts) are pure functions of what this reads.
 */

/** What a what's-on request selects, already checked. */
export interface ListingsQuery {
  /** The window's first instant and last, as canonical wall clocks (`…T00:00:00.000+00:00`, `…T23:59:59.999+00:00`). */
  from: string;
  to: string;
  /** On the showtime's own fields: `tipo_evento`, `lugar_id`, `estado`. */
  conditions: Condition[];
  categoriaId?: number;
  /** Comparable text to find in the item's title. */
  search?: string;
  geo?: Geo;
}

type Row = Record<string, unknown>;

/** A showtime as the API answers it. */
export interface Funcion {
  id: number;
  tipo_evento: TipoEvento;
  evento_id: number;
  lugar_id: number;
  inicio: string;
  fin: string | null;
  estado: 'programada' | 'cancelada' | 'aplazada' | 'agotada';
  notas: string | null;
}

/** A venue as the API answers it. */
export interface Lugar {
  id: number;
  nombre: string;
  direccion: string;
  latitud: number | null;
  longitud: number | null;
  accesible: boolean;
  url: string | null;
}

/** A movie, work or urban event as the API answers it, with its category's name. */
export type Evento = Row & { id: number; titulo: string; categoria_id: number; categoria: string | null; duracion?: number; sipnosis?: string; descripcion?: string };

/** One element of what's on. */
export type Listing = Funcion & { evento: Evento; lugar: Lugar; imagen: string | null };

/** A listing, with what only the JSON-LD shows: the names of the artists who take part. */
export interface Detailed {
  listing: Listing;
  performers: string[];
}

const parsed = <T>(text: string) => JSON.parse(text) as T;

/** The conditions of `query` on the showtimes table. */
function whereOf(db: Db, query: ListingsQuery): Expression<SqlBool>[] {
  const spec = { table: funciones.table, key: 'id', kinds: funciones.kinds };
  const where: Expression<SqlBool>[] = [
    sql<SqlBool>`funciones.inicio between ${query.from} and ${query.to}`,
    ...filtersOf(db, spec, query.conditions),
    ...(query.geo ? venueConditions(query.geo, sql.ref('funciones.lugar_id')) : []),
  ];
  // An item's category or title: the showtimes of the items of each kind that have it.
  const ofItems = (condition: (table: string) => Expression<SqlBool>) =>
    sql<SqlBool>`(${sql.join(
      Object.entries(itemResources).map(
        ([tipo, r]) => sql`(funciones.tipo_evento = ${tipo} and funciones.evento_id in (select id from ${sql.table(r.table)} where ${condition(r.table)}))`,
      ),
      sql` or `,
    )})`;
  if (query.categoriaId !== undefined) where.push(ofItems(() => sql<SqlBool>`categoria_id = ${query.categoriaId}`));
  if (query.search !== undefined) where.push(ofItems(() => sql<SqlBool>`titulo_clave like ${`%${escapeLike(query.search ?? '')}%`} escape '\\'`));
  return where;
}

/** One page of what's on, in `inicio` order then by id, and how many showtimes the query selects. */
export async function listingsPage(db: Db, query: ListingsQuery, window: Window): Promise<{ rows: Row[]; total: number }> {
  const where = sql.join(whereOf(db, query), sql` and `);
  const [rows, count] = await Promise.all([
    sql<Row>`select * from funciones where ${where} order by inicio, id limit ${window.limit} offset ${window.offset}`.execute(db),
    sql<{ n: number | string }>`select count(*) as n from funciones where ${where}`.execute(db),
  ]);
  return { rows: rows.rows, total: Number(count.rows[0]?.n ?? 0) };
}

/** Every showtime `query` selects, in `inicio` order then by id (the calendar and the JSON-LD take no paging). */
export async function allListings(db: Db, query: ListingsQuery): Promise<Row[]> {
  const { rows } = await sql<Row>`select * from funciones where ${sql.join(whereOf(db, query), sql` and `)} order by inicio, id`.execute(db);
  return rows;
}

/** The showtimes `rows` (stored rows) as what's on answers them, with their items, venues and categories. */
export async function listingsOf(db: Db, rows: Row[]): Promise<Listing[]> {
  const shows = rows.map((row) => parsed<Funcion>(funciones.representation(row)));
  const [items, venues] = await Promise.all([itemsOf(db, shows), venuesOf(db, shows)]);
  return shows.flatMap((f) => {
    const evento = items.get(`${f.tipo_evento}:${f.evento_id}`);
    const lugar = venues.get(f.lugar_id);
    // The store's references keep both while the showtime exists (read in one snapshot).
    return evento && lugar ? [{ ...f, evento, lugar, imagen: null }] : [];
  });
}

/** The listings with the artists who take part in each item, `<nombre> <apellido>`, by dni. */
export async function detailed(db: Db, listings: Listing[]): Promise<Detailed[]> {
  const byItem = new Map<string, string[]>();
  for (const tipo of Object.keys(itemResources)) {
    const ids = listings.filter((l) => l.tipo_evento === tipo).map((l) => l.evento_id);
    if (ids.length === 0) continue;
    const { rows } = await sql<{ evento_id: number; nombre: string; apellido: string }>`
      select p.evento_id, a.nombre, a.apellido from participaciones p join artistas a on a.dni = p.artistas_dni
      where p.tipo_evento = ${tipo} and p.evento_id in (${sql.join([...new Set(ids)])}) order by p.evento_id, a.dni`.execute(db);
    for (const r of rows) {
      const key = `${tipo}:${Number(r.evento_id)}`;
      byItem.set(key, [...(byItem.get(key) ?? []), `${r.nombre} ${r.apellido}`]);
    }
  }
  return listings.map((listing) => ({ listing, performers: byItem.get(`${listing.tipo_evento}:${listing.evento_id}`) ?? [] }));
}

/** The items the showtimes name, by `<tipo_evento>:<id>`, each with its category's name. */
async function itemsOf(db: Db, shows: { tipo_evento: TipoEvento; evento_id: number }[]): Promise<Map<string, Evento>> {
  const items = new Map<string, Evento>();
  for (const [tipo, resource] of Object.entries(itemResources)) {
    const rows = await rowsWhereIn(db, resource.table, 'id', shows.filter((f) => f.tipo_evento === tipo).map((f) => f.evento_id));
    for (const row of rows) items.set(`${tipo}:${Number(row.id)}`, parsed<Evento>(resource.representation(row)));
  }
  const categorias = await rowsWhereIn(db, 'categorias', 'id', [...items.values()].map((e) => e.categoria_id));
  const names = new Map(categorias.map((c) => [Number(c.id), String(c.nombre)]));
  for (const [key, evento] of items) items.set(key, { ...evento, categoria: names.get(evento.categoria_id) ?? null });
  return items;
}

async function venuesOf(db: Db, shows: { lugar_id: number }[]): Promise<Map<number, Lugar>> {
  const rows = await rowsWhereIn(db, lugares.table, 'id', shows.map((f) => f.lugar_id));
  return new Map(rows.map((row) => [Number(row.id), parsed<Lugar>(lugares.representation(row))]));
}
