import { wallClockAt } from './zone.js';

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
