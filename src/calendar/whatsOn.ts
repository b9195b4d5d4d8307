import { sql, type SqlBool } from 'kysely';
import { comparable } from '../catalogue/comparable.js';
import { matcher } from '../db/listing.js';
import { placeConditions } from '../db/near.js';
import type { Db } from '../db/schema.js';
import { inSnapshot } from '../db/snapshot.js';
import { funciones, itemResources, lugares } from '../resources/index.js';
import { byClave, historiesOf, PAGE, type History } from './events.js';
import { calendar, showtimeVevent, type CalendarOptions, type ShowtimeEvent } from './ics.js';
import { endOf, jsonLd, type JsonLdOptions } from './jsonld.js';
import { allListings, detailed, listingsOf, type Evento, type Listing, type ListingsQuery, type Lugar } from './listings.js';

/** `GET /cartelera.jsonld`: every showtime of the query, as schema.org events, from one snapshot. */
export function whatsOnJsonLd(db: Db, query: ListingsQuery, options: JsonLdOptions): Promise<string> {
  return inSnapshot(db, async (trx) => jsonLd(await detailed(trx, await listingsOf(trx, await allListings(trx, query))), options));
}

const STATUS = { programada: 'CONFIRMED', agotada: 'CONFIRMED', aplazada: 'TENTATIVE', cancelada: 'CANCELLED' } as const;

/**
 * `GET /cartelera.ics`: every showtime of the query, and those deleted within the change log's
 * retention whose last values the query selects, cancelled; each with its SEQUENCE and
 * LAST-MODIFIED from the change log. One snapshot.
 */
export function whatsOnCalendar(db: Db, query: ListingsQuery, options: CalendarOptions): Promise<string> {
  return inSnapshot(db, async (trx) => {
    const listings = await listingsOf(trx, await allListings(trx, query));
    const histories = new Map<number, History>();
    for (let i = 0; i < listings.length; i += PAGE) {
      const claves = listings.slice(i, i + PAGE).map((l) => l.id);
      for (const [clave, history] of byClave(await historiesOf(trx, funciones.name, sql`clave in (${sql.join(claves)})`))) histories.set(clave, history);
    }
    const deleted = await deletedListings(trx, query);
    const shows = [
      ...listings.map((l) => showtime(l, histories.get(l.id), STATUS[l.estado], options.timeZone)),
      ...deleted.map(({ listing, history }) => showtime(listing, history, 'CANCELLED', options.timeZone)),
    ].sort((a, b) => (a.inicio < b.inicio ? -1 : a.inicio > b.inicio ? 1 : a.id - b.id));
    const years = new Set(shows.flatMap((s) => [s.inicio, s.end ?? s.inicio].map((fecha) => Number(fecha.slice(0, 4)))));
    return calendar(shows.map((s) => showtimeVevent(s, options)), years, options);
  });
}

function showtime(l: Listing, history: History | undefined, status: ShowtimeEvent['status'], zone: string): ShowtimeEvent {
  return {
    id: l.id,
    titulo: l.evento.titulo,
    descripcion: l.evento.sipnosis ?? l.evento.descripcion,
    location: `${l.lugar.nombre}, ${l.lugar.direccion}`,
    geo: l.lugar.latitud !== null && l.lugar.longitud !== null ? { lat: l.lugar.latitud, lon: l.lugar.longitud } : undefined,
    inicio: l.inicio,
    end: endOf(l, zone),
    status,
    categoria: l.evento.categoria ?? undefined,
    sequence: history ? history.changes - (history.firstIsAlta ? 1 : 0) : 0,
    lastModified: history?.cuando,
  };
}

/**
 * The showtimes deleted within the log's retention whose last values `query` selects, each with
 * its item and venue as they are, or as they were last when they are gone too. A venue gone from
 * the store no longer matches `cerca` or `bbox`.
 */
async function deletedListings(db: Db, query: ListingsQuery): Promise<{ listing: Listing; history: History }[]> {
  const { rows } = await sql<{ clave: number | string }>`
    select c.clave from cambios c where c.recurso = ${funciones.name} and c.operacion = 'baja'
    and not exists (select 1 from cambios d where d.recurso = c.recurso and d.clave = c.clave and d.id > c.id)
    and not exists (select 1 from funciones f where f.id = c.clave) order by c.clave`.execute(db);
  const found: { listing: Listing; history: History }[] = [];
  const matches = matcher(query.conditions);
  for (let i = 0; i < rows.length; i += PAGE) {
    const histories = await historiesOf(db, funciones.name, sql`clave in (${sql.join(rows.slice(i, i + PAGE).map((r) => Number(r.clave)))})`);
    for (const history of histories) {
      const f = JSON.parse(history.antes ?? '{}') as Listing;
      if (f.inicio < query.from || f.inicio > query.to || !matches(f)) continue;
      const evento = await lastValues<Evento>(db, itemResources[f.tipo_evento].name, f.evento_id, async () => {
        const row = await sql<Record<string, unknown>>`select * from ${sql.table(itemResources[f.tipo_evento].table)} where id = ${f.evento_id}`.execute(db);
        return row.rows[0] && (JSON.parse(itemResources[f.tipo_evento].representation(row.rows[0])) as Evento);
      });
      const lugar = await lastValues<Lugar>(db, lugares.name, f.lugar_id, async () => {
        const row = await db.selectFrom('lugares').selectAll().where('id', '=', f.lugar_id).executeTakeFirst();
        return row && (JSON.parse(lugares.representation(row)) as Lugar);
      });
      if (!evento || !lugar) continue;
      if (query.categoriaId !== undefined && evento.categoria_id !== query.categoriaId) continue;
      if (query.search !== undefined && !comparable(evento.titulo).includes(query.search)) continue;
      if (query.geo && !(await venueSelected(db, query, lugar.id))) continue;
      const categoria = await db.selectFrom('categorias').select('nombre').where('id', '=', evento.categoria_id).executeTakeFirst();
      found.push({ listing: { ...f, evento: { ...evento, categoria: categoria?.nombre ?? null }, lugar, imagen: null }, history });
    }
  }
  return found;
}

/** A record as the store holds it, else as the change log last had it (the `antes` of its deletion). */
async function lastValues<T>(db: Db, recurso: string, clave: number, stored: () => Promise<T | undefined>): Promise<T | undefined> {
  const current = await stored();
  if (current !== undefined) return current;
  const last = await db.selectFrom('cambios').select('antes').where('recurso', '=', recurso).where('clave', '=', clave).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return last?.antes ? (JSON.parse(last.antes) as T) : undefined;
}

async function venueSelected(db: Db, query: ListingsQuery, id: number): Promise<boolean> {
  const where = placeConditions(query.geo ?? {}, sql.ref('latitud'), sql.ref('longitud'));
  const { rows } = await sql`select id from lugares where id = ${id} and ${sql.join(where, sql<SqlBool>` and `)}`.execute(db);
  return rows.length > 0;
}
