import { sql, type RawBuilder } from 'kysely';
import { comparable } from '../catalogue/comparable.js';
import { matcher, matchingRows, nextTurn, type ListQuery } from '../db/listing.js';
import type { Db } from '../db/schema.js';
import { inSnapshot } from '../db/snapshot.js';
import { eventosUrbanos } from '../resources/index.js';
import { calendar, timedYear, vevent, type CalendarEvent, type CalendarOptions } from './ics.js';

type Evento = { id: number; titulo: string; descripcion: string; fecha: string; lugar: string; categoria_id: number };

/** Events read, and histories summed, per query: a page holds the event loop for a few milliseconds. */
export const PAGE = 250;

/**
 * `GET /eventosUrbanos.ics`: the urban events the list's filters and search select, and those
 * deleted within the change log's retention whose last values they select, cancelled, so that
 * subscribed calendars drop them; each with its SEQUENCE and LAST-MODIFIED from the change log.
 * Read from one snapshot, a page at a time, the event loop free between pages; the store sums
 * each event's history, so only the last values of deleted events leave it.
 */
export async function eventsCalendar(db: Db, query: Pick<ListQuery, 'conditions' | 'search'>, options: CalendarOptions): Promise<string> {
  const years = new Set<number>();
  const text = (evento: Evento, history: History | undefined, categorias: Map<number, string>, cancelled: boolean) => {
    const year = timedYear(evento.fecha);
    if (year !== undefined) years.add(year);
    const event: CalendarEvent = {
      ...evento,
      categoria: categorias.get(evento.categoria_id),
      sequence: history ? history.changes - (history.firstIsAlta ? 1 : 0) : 0,
      lastModified: history?.cuando,
      cancelled,
    };
    return { id: evento.id, text: vevent(event, options) };
  };
  return inSnapshot(db, async (trx) => {
    const listed: { id: number; text: string }[] = [];
    const spec = { table: eventosUrbanos.table, key: eventosUrbanos.key.name, kinds: eventosUrbanos.kinds };
    for await (const rows of matchingRows(trx, spec, query, PAGE)) {
      const eventos = rows.map((row) => JSON.parse(eventosUrbanos.representation(row)) as Evento);
      const histories = byClave(await historiesOf(trx, eventosUrbanos.name, sql`clave in (${sql.join(eventos.map((e) => e.id))})`));
      const categorias = await categoriasOf(trx, eventos);
      for (const evento of eventos) listed.push(text(evento, histories.get(evento.id), categorias, false));
    }
    const ids = new Set(listed.map((e) => e.id));
    const matches = matcher(query.conditions);
    const searched = (e: Evento) => query.search === undefined || [e.titulo, e.descripcion, e.lugar].some((t) => comparable(t).includes(query.search ?? ''));
    const cancelled: { id: number; text: string }[] = [];
    // Every event with a history, a page of them at a time: those whose last change deleted them.
    for (let after = -1; ; ) {
      const page = await historiesOf(trx, eventosUrbanos.name, sql`clave > ${after}`, PAGE);
      await nextTurn();
      const deleted = page
        .filter((h) => h.lastIsBaja && h.antes !== null && !ids.has(h.clave))
        .map((h) => ({ history: h, evento: JSON.parse(h.antes ?? '{}') as Evento }))
        .filter(({ evento }) => matches(evento) && searched(evento));
      const categorias = await categoriasOf(trx, deleted.map((d) => d.evento));
      for (const { evento, history } of deleted) cancelled.push(text(evento, history, categorias, true));
      if (page.length < PAGE) break;
      after = page[page.length - 1]?.clave ?? after;
    }
    return calendar(merged(listed, cancelled), years, options);
  });
}

/** What the calendar takes from one record's history in the change log. */
export interface History {
  clave: number;
  /** How many changes the log holds for it. */
  changes: number;
  firstIsAlta: boolean;
  lastIsBaja: boolean;
  /** When its last change was made. */
  cuando: string;
  /** Its last change's `antes` when that change deleted it: its last values. */
  antes: string | null;
}

/** The histories of the records of `recurso` that `claves` selects, by key (the first `limit`). */
export async function historiesOf(db: Db, recurso: string, claves: RawBuilder<unknown>, limit?: number): Promise<History[]> {
  const { rows } = await sql<{ clave: number | string; n: number | string; first: string; last: string; cuando: string; antes: string | null }>`
    select s.clave, s.n, f.operacion as first, l.operacion as last, l.cuando, case when l.operacion = 'baja' then l.antes end as antes
    from (
      select clave, count(*) as n, min(id) as first, max(id) as last from cambios
      where recurso = ${recurso} and ${claves} group by clave order by clave ${limit === undefined ? sql`` : sql`limit ${limit}`}
    ) s
    join cambios f on f.id = s.first
    join cambios l on l.id = s.last
    order by s.clave`.execute(db);
  return rows.map((r) => ({ clave: Number(r.clave), changes: Number(r.n), firstIsAlta: r.first === 'alta', lastIsBaja: r.last === 'baja', cuando: r.cuando, antes: r.antes }));
}

export const byClave = (histories: History[]) => new Map(histories.map((h) => [h.clave, h]));

/** The names of the categories `eventos` name. */
async function categoriasOf(db: Db, eventos: Evento[]): Promise<Map<number, string>> {
  const ids = [...new Set(eventos.map((e) => e.categoria_id))];
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('categorias').select(['id', 'nombre']).where('id', 'in', ids).execute();
  return new Map(rows.map((c) => [Number(c.id), c.nombre]));
}

/** Two lists of events, each in id order, as one in id order. */
function merged(a: { id: number; text: string }[], b: { id: number; text: string }[]): string[] {
  const texts: string[] = [];
  let j = 0;
  for (const event of a) {
    for (; j < b.length && (b[j]?.id ?? 0) < event.id; j++) texts.push(b[j]?.text ?? '');
    texts.push(event.text);
  }
  for (; j < b.length; j++) texts.push(b[j]?.text ?? '');
  return texts;
}
