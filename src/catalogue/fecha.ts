import { existingWallClock, wallClockAt } from './zone.js';

/**
 * Event dates: the event's wall clock (contract, "Dates and times"). Clients send `YYYY-MM-DD` or
 * an ISO 8601 date-time; the store keeps, and clients get back, one canonical form written in
 * UTC's notation that also sorts correctly as text: `YYYY-MM-DDTHH:MM:SS.mmm+00:00`. A date-time
 * with no offset, `Z` or `+00:00` is the wall clock as written; any other offset names an instant,
 * kept as that instant's wall clock in the city's zone (`TIMEZONE`).
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;


/** A time of day as people write it: `20:30`, `9:30:15`, `9:30 p. m.`, `9:30pm`, `12 a. m.` (midnight). */
const TYPED_TIME = String.raw`(\d{1,2})(?::(\d{2})(?::(\d{2}))?)?\s*(?:([ap])\.?\s*m\.?)?`;
/** `25/12/2026`, `25-12-2026`, `25.12.2026`, `25/12/26` (2026), each with a time or none. */
const TYPED_SPANISH = new RegExp(String.raw`^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?:[ T]+${TYPED_TIME})?$`, 'i');
/** `2026-11-14 20:30` (the interface itself takes `2026-11-14T20:30`). */
const TYPED_ISO = new RegExp(String.raw`^(\d{4})-(\d{2})-(\d{2}) +${TYPED_TIME}$`, 'i');

/**
 * A date as people type it (in a spreadsheet's cell or the admin's date input), in the interface's
 * notation: `25/12/2026` is `2026-12-25` (the whole day), `25/12/26 9:30 p. m.` is
 * `2026-12-25T21:30:00Z`, the wall clock as typed. Undefined for text written no such way, or an
 * hour its a. m./p. m. does not allow (13 p. m.); whether the day exists is canonicalFecha's to judge.
 */
export function typedFecha(text: string): string | undefined {
  const trimmed = text.trim();
  const spanish = TYPED_SPANISH.exec(trimmed);
  if (spanish) {
    const [, day = '', , month = '', year = '', ...time] = spanish;
    return typedWallClock(year.length === 2 ? `20${year}` : year, month, day, time);
  }
  const iso = TYPED_ISO.exec(trimmed);
  if (!iso) return undefined;
  const [, year = '', month = '', day = '', ...time] = iso;
  return typedWallClock(year, month, day, time);
}

const two = (n: string) => n.padStart(2, '0');

/** A time with no minutes needs its a. m./p. m. (`9 p. m.`); 12 a. m. is midnight, 12 p. m. noon. */
function typedWallClock(year: string, month: string, day: string, [hours, mins, secs, half]: (string | undefined)[]): string | undefined {
  const date = `${year}-${two(month)}-${two(day)}`;
  if (hours === undefined) return date;
  let hour = Number(hours);
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (half.toLowerCase() === 'p' ? 12 : 0);
  } else if (mins === undefined) return undefined;
  return `${date}T${two(String(hour))}:${mins ?? '00'}:${secs ?? '00'}Z`;
}

/** Whether `value` is a real date-time written in the canonical form. */
export const isCanonicalFecha = (value: string): boolean => canonicalFecha(value, 'UTC') === value;

/**
 * The canonical form of `value`, an offset turned into the wall clock of `zone` (an IANA zone;
 * `UTC` for instants, like a change's `cuando`), or undefined when it is not a real date or date-time.
 */
export function canonicalFecha(value: string, zone: string): string | undefined {
  const date = DATE.exec(value);
  const parts = date ?? DATE_TIME.exec(value);
  if (!parts) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '0', offset = 'Z'] = parts;
  const year = Number(y), month = Number(mo), day = Number(d);
  const hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const offsetMinutes = parseOffset(offset);
  if (offsetMinutes === undefined) return undefined;
  const millis = Number(frac.padEnd(3, '0').slice(0, 3));
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, day);
  instant.setUTCHours(hour, minute - offsetMinutes, second, millis);
  const wall = offsetMinutes === 0 ? instant : new Date(wallClockAt(zone, instant.getTime()));
  const iso = wall.toISOString(); // years outside 0000–9999 come out as ±YYYYYY
  // Year 0 (1 BC) and earlier: PostgreSQL has no year 0, and answers BC instants in a form no client could send back.
  return iso.length === 24 && !iso.startsWith('0000') ? iso.replace('Z', '+00:00') : undefined;
}

function daysInMonth(year: number, month: number): number {
  const first = new Date(0);
  first.setUTCFullYear(year, month, 0);
  return first.getUTCDate();
}

function parseOffset(offset: string): number | undefined {
  if (offset === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(offset);
  if (!m) return undefined;
  const hours = Number(m[2]), minutes = Number(m[3]);
  if (hours > 23 || minutes > 59) return undefined;
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** A showtime's wall clock: to the minute, with `:00` or `:00.000` seconds at most, and an offset or none. */
const INICIO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(?::00(?:\.000)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * The canonical form of a showtime's `inicio` or `fin` in `zone` (contract, "Details of venues,
 * showtimes and what's on"): always timed, never a whole day; a wall clock that does not occur in
 * `zone` (a spring-forward gap) moves forward by the gap. Undefined when it is not such a date-time.
 */
export function canonicalInicio(value: string, zone: string): string | undefined {
  const parts = INICIO.exec(value);
  if (!parts) return undefined;
  const [, minute = '', offset = 'Z'] = parts;
  const fecha = canonicalFecha(`${minute}:00${offset}`, zone);
  return fecha === undefined ? undefined : wallClockIn(zone, fecha);
}

/** A canonical wall clock, moved out of a gap of `zone` when it falls in one. */
export function wallClockIn(zone: string, fecha: string): string {
  const wall = Date.parse(fecha);
  const existing = existingWallClock(zone, wall);
  return existing === wall ? fecha : new Date(existing).toISOString().replace('Z', '+00:00');
}

/** Whether `value` is a real showtime wall clock in canonical form (seconds and milliseconds zero). */
export const isCanonicalInicio = (value: string): boolean => value.endsWith(':00.000+00:00') && isCanonicalFecha(value);
