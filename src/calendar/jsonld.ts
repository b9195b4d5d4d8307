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
const TYPES = { pelicula: 'ScreeningEvent', obra: 'TheaterEvent', eventoUrbano: 'Event' } as const;
const STATUS = { programada: 'EventScheduled', agotada: 'EventScheduled', cancelada: 'EventCancelled', aplazada: 'EventPostponed' } as const;
/** The widths of the renditions an event's `image` lists, largest first. */
export const IMAGE_WIDTHS = [1920, 1280, 640] as const;

export function jsonLd(shows: readonly Detailed[], options: JsonLdOptions): string {
  return JSON.stringify({ '@context': 'https://schema.org', '@graph': shows.map((show) => eventNode(show, options)) });
}

function eventNode({ listing: f, performers }: Detailed, options: JsonLdOptions): Record<string, unknown> {
  const end = endOf(f, options.timeZone);
  const description = f.evento.sipnosis ?? f.evento.descripcion;
  const { lugar } = f;
  return {
    '@type': TYPES[f.tipo_evento],
    '@id': `${options.publicUrl}/funciones/${f.id}`,
    name: f.evento.titulo,
    ...(description !== undefined && { description }),
    startDate: withOffset(f.inicio, options.timeZone),
    ...(end !== undefined && { endDate: withOffset(end, options.timeZone) }),
    eventStatus: SCHEMA + STATUS[f.estado],
    eventAttendanceMode: `${SCHEMA}OfflineEventAttendanceMode`,
    location: {
      '@type': 'Place',
      name: lugar.nombre,
      address: { '@type': 'PostalAddress', streetAddress: lugar.direccion },
      ...(lugar.latitud !== null && lugar.longitud !== null && { geo: { '@type': 'GeoCoordinates', latitude: lugar.latitud, longitude: lugar.longitud } }),
      ...(lugar.url !== null && { url: lugar.url }),
    },
    ...(f.imagen !== null && { image: IMAGE_WIDTHS.map((w) => `${options.publicUrl}${f.imagen}?ancho=${w}&formato=jpeg`) }),
    ...(performers.length > 0 && { performer: performers.map((name) => ({ '@type': 'Person', name })) }),
    ...(f.tipo_evento === 'pelicula' && { workPresented: { '@type': 'Movie', name: f.evento.titulo, ...(f.evento.duracion !== undefined && { duration: `PT${f.evento.duracion}M` }) } }),
    ...(f.estado === 'agotada' && { offers: { '@type': 'Offer', availability: `${SCHEMA}SoldOut` } }),
  };
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
