import type { EventLeaf, Graph, PersonLeaf, PlaceLeaf, ScreeningEventLeaf, TheaterEventLeaf } from 'schema-dts';
import { existingWallClock, instantOf } from '../catalogue/zone.js';
import type { Detailed, Listing } from './listings.js';

/**
 * What's on as schema.org JSON-LD (`GET /cartelera.jsonld`, docs/api.md "What's on"): one
 * `@graph` of events, as search engines read them. Pure: a function of the listings.
 */

export interface JsonLdOptions {
  /** The service's public address, without a trailing slash. */
  publicUrl: string;
  /** The city's zone (`TIMEZONE`): what offset the wall clocks carry. */
  timeZone: string;
}

const SCHEMA = 'https://schema.org/';
const STATUS = { programada: 'EventScheduled', agotada: 'EventScheduled', cancelada: 'EventCancelled', aplazada: 'EventPostponed' } as const;
/** The widths of the renditions an event's `image` lists, largest first. */
export const IMAGE_WIDTHS = [1920, 1280, 640] as const;

export function jsonLd(shows: readonly Detailed[], options: JsonLdOptions): string {
  const graph: Graph = { '@context': 'https://schema.org', '@graph': shows.map((show) => eventNode(show, options)) };
  return JSON.stringify(graph);
}

/**
 * One showtime as an event, typed by schema.org's own vocabulary (schema-dts): a type or property
 * schema.org does not have fails to compile. Absent values are undefined, which JSON leaves out.
 */
function eventNode({ listing: f, performers }: Detailed, options: JsonLdOptions): ScreeningEventLeaf | TheaterEventLeaf | EventLeaf {
  const end = endOf(f, options.timeZone);
  const { lugar, evento } = f;
  const place: PlaceLeaf = {
    '@type': 'Place',
    name: lugar.nombre,
    address: { '@type': 'PostalAddress', streetAddress: lugar.direccion },
    geo: lugar.latitud !== null && lugar.longitud !== null ? { '@type': 'GeoCoordinates', latitude: lugar.latitud, longitude: lugar.longitud } : undefined,
    url: lugar.url ?? undefined,
  };
  const event: Omit<EventLeaf, '@type'> = {
    '@id': `${options.publicUrl}/funciones/${f.id}`,
    name: evento.titulo,
    description: evento.sipnosis ?? evento.descripcion,
    startDate: withOffset(f.inicio, options.timeZone),
    endDate: end === undefined ? undefined : withOffset(end, options.timeZone),
    eventStatus: `${SCHEMA}${STATUS[f.estado]}`,
    eventAttendanceMode: `${SCHEMA}OfflineEventAttendanceMode`,
    location: place,
    image: f.imagen === null ? undefined : IMAGE_WIDTHS.map((w) => `${options.publicUrl}${f.imagen}?ancho=${w}&formato=jpeg`),
    performer: performers.length === 0 ? undefined : performers.map((name): PersonLeaf => ({ '@type': 'Person', name })),
    offers: f.estado === 'agotada' ? { '@type': 'Offer', availability: `${SCHEMA}SoldOut` } : undefined,
  };
  switch (f.tipo_evento) {
    case 'pelicula':
      return { '@type': 'ScreeningEvent', ...event, workPresented: { '@type': 'Movie', name: evento.titulo, duration: evento.duracion === undefined ? undefined : `PT${evento.duracion}M` } };
    case 'obra':
      return { '@type': 'TheaterEvent', ...event };
    case 'eventoUrbano':
      return { '@type': 'Event', ...event };
  }
}

/**
 * When a showtime ends, as a wall clock: its `fin`, else its `inicio` plus the item's `duracion`
 * in wall-clock minutes (moved out of a spring-forward gap, in `zone`), else undefined.
 */
export function endOf(f: Listing, zone = 'UTC'): string | undefined {
  if (f.fin !== null) return f.fin;
  if (f.evento.duracion === undefined) return undefined;
  const wall = existingWallClock(zone, Date.parse(f.inicio) + f.evento.duracion * 60_000);
  return new Date(wall).toISOString().replace('Z', '+00:00');
}

/** A canonical wall clock with the offset `zone` has then: `2026-11-14T20:30:00-03:00` (`+00:00` in UTC). */
export function withOffset(fecha: string, zone: string): string {
  const wall = Date.parse(fecha);
  const minutes = Math.round((wall - instantOf(zone, wall)) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${fecha.slice(0, 19)}${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}
