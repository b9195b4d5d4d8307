import { vtimezone } from './vtimezone.js';

/**
 * iCalendar (RFC 5545) text: the calendar of urban events, as `GET /eventosUrbanos.ics` answers it
 * (docs/api.md, "Calendar"). Pure functions of the events and their history (events.ts reads them).
 */

/** An event as the API answers it, with what the calendar adds from the change log and categories. */
export interface CalendarEvent {
  id: number;
  titulo: string;
  descripcion: string;
  fecha: string;
  lugar: string;
  categoria: string | undefined;
  /** Changes after its creation (a deletion counts as one). */
  sequence: number;
  /** The instant of its last change, if the log holds one. */
  lastModified: string | undefined;
  cancelled: boolean;
  /** The id of its first image, if it has one. */
  image?: number;
}

export interface CalendarOptions {
  name: string;
  domain: string;
  /** The city's zone (`TIMEZONE`): timed events name it, unless it is UTC. */
  timeZone: string;
  /** The service's public address, which an event's IMAGE names (no trailing slash). */
  publicUrl?: string;
}

/**
 * The whole calendar around its events' texts (vevent), in order; `years`: those of its timed
 * events (timedYear), which its VTIMEZONE covers. Lines end in CRLF.
 */
export function calendar(events: readonly string[], years: Iterable<number>, options: CalendarOptions): string {
  const head = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//cartelera//cartelera//ES',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${text(options.name)}`,
    ...(options.timeZone === 'UTC' ? [] : vtimezone(options.timeZone, years)),
  ];
  return [...head.map(folded), ...events, 'END:VCALENDAR'].join('\r\n') + '\r\n';
}

/** One event's VEVENT, its lines folded and joined by CRLF. */
export function vevent(event: CalendarEvent, options: CalendarOptions): string {
  return [
    ...opening(`eventoUrbano-${event.id}`, event, options),
    ...when(event.fecha, options.timeZone),
    `SUMMARY:${text(event.titulo)}`,
    `DESCRIPTION:${text(event.descripcion)}`,
    `LOCATION:${text(event.lugar)}`,
    ...(event.categoria !== undefined ? [`CATEGORIES:${text(event.categoria)}`] : []),
    // RFC 7986: the event's first image, as a 640-pixel JPEG.
    ...(event.image !== undefined ? [`IMAGE;VALUE=URI;DISPLAY=BADGE;FMTTYPE=image/jpeg:${options.publicUrl ?? ''}/imagenes/${event.image}/archivo?ancho=640&formato=jpeg`] : []),
    ...(event.cancelled ? ['STATUS:CANCELLED'] : []),
    'END:VEVENT',
  ]
    .map(folded)
    .join('\r\n');
}

/** For events whose history the log does not hold: a fixed stamp keeps the calendar's bytes (and ETag) steady. */
const EPOCH = '19700101T000000Z';

const isWholeDay = (fecha: string) => fecha.slice(10).startsWith('T00:00:00.000');

/**
 * `fecha` as the wall clock it is (contract, "Dates and times"): midnight is the whole day, any
 * other time the wall clock in the city's zone; in UTC, a floating local time, with neither `Z` nor a zone.
 */
function when(fecha: string, zone: string): string[] {
  const day = fecha.slice(0, 10);
  if (isWholeDay(fecha)) return [`DTSTART;VALUE=DATE:${day.replaceAll('-', '')}`, `DTEND;VALUE=DATE:${nextDay(day)}`];
  return [timed('DTSTART', fecha, zone)];
}

/** A timed property: the wall clock of `fecha`, floating in UTC, else with the city's TZID. */
function timed(name: string, fecha: string, zone: string): string {
  const [day = '', time = ''] = fecha.split('T');
  return `${name}${zone === 'UTC' ? '' : `;TZID=${zone}`}:${day.replaceAll('-', '')}T${time.slice(0, 8).replaceAll(':', '')}`;
}

/** A showtime in the calendar of what's on: always timed (00:00 is midnight, not a whole day). */
export interface ShowtimeEvent {
  id: number;
  titulo: string;
  descripcion: string | undefined;
  /** `<nombre>, <direccion>` of the venue. */
  location: string;
  geo: { lat: number; lon: number } | undefined;
  inicio: string;
  /** `fin`, else `inicio` plus the item's `duracion`, else undefined. */
  end: string | undefined;
  status: 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED';
  categoria: string | undefined;
  sequence: number;
  lastModified: string | undefined;
}

/** A VEVENT's first lines: its UID, its stamp (the last change, else the epoch) and its SEQUENCE. */
function opening(uid: string, record: { lastModified: string | undefined; sequence: number }, options: CalendarOptions): string[] {
  const stamp = record.lastModified ? utc(record.lastModified) : EPOCH;
  return [
    'BEGIN:VEVENT',
    `UID:${uid}@${options.domain}`,
    `DTSTAMP:${stamp}`,
    ...(record.lastModified ? [`LAST-MODIFIED:${stamp}`] : []),
    `SEQUENCE:${record.sequence}`,
  ];
}

/** One showtime's VEVENT (`GET /cartelera.ics`), its lines folded and joined by CRLF. */
export function showtimeVevent(show: ShowtimeEvent, options: CalendarOptions): string {
  return [
    ...opening(`funcion-${show.id}`, show, options),
    timed('DTSTART', show.inicio, options.timeZone),
    ...(show.end !== undefined ? [timed('DTEND', show.end, options.timeZone)] : []),
    `SUMMARY:${text(show.titulo)}`,
    ...(show.descripcion !== undefined ? [`DESCRIPTION:${text(show.descripcion)}`] : []),
    `LOCATION:${text(show.location)}`,
    ...(show.geo ? [`GEO:${show.geo.lat};${show.geo.lon}`] : []),
    ...(show.categoria !== undefined ? [`CATEGORIES:${text(show.categoria)}`] : []),
    `STATUS:${show.status}`,
    'END:VEVENT',
  ]
    .map(folded)
    .join('\r\n');
}

/** The year of a timed event's `fecha`, which the zone's VTIMEZONE must cover; undefined for a whole day. */
export function timedYear(fecha: string): number | undefined {
  return isWholeDay(fecha) ? undefined : Number(fecha.slice(0, 4));
}

function nextDay(day: string): string {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10).replaceAll('-', '');
}

/** `2026-11-14T20:30:00.000+00:00` as a UTC date-time: `20261114T203000Z`. */
function utc(instant: string): string {
  return `${instant.slice(0, 19).replaceAll('-', '').replaceAll(':', '')}Z`;
}

/**
 * A TEXT value: backslash, semicolon, comma and line breaks escaped (RFC 5545 §3.3.11). The other
 * control characters (U+0000–U+001F but tab, and U+007F) have no escape there and may not appear,
 * so they are left out.
 */
export function text(value: string): string {
  return value
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(/\r\n|\r|\n/g, '\\n')
    // eslint-disable-next-line no-control-regex -- the control characters are what this removes
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '');
}

/** A content line folded at 75 octets, never inside a UTF-8 sequence (RFC 5545 §3.1). */
export function folded(line: string): string {
  if (Buffer.byteLength(line) <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  let limit = 75;
  for (const char of line) {
    const bytes = utf8Length(char.codePointAt(0) ?? 0);
    if (size + bytes > limit) {
      parts.push(current);
      current = '';
      size = 0;
      // A continuation line starts with a space, which counts.
      limit = 74;
    }
    current += char;
    size += bytes;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** The octets of a code point in UTF-8 (a lone surrogate is written as U+FFFD, three). */
const utf8Length = (code: number) => (code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4);
