import { canonicalFecha, typedFecha } from '../../../src/catalogue/fecha.js';

/**
 * `fecha` is the event's wall-clock time written in UTC notation (`2026-11-14T20:30:00.000+00:00`
 * is 14/11/2026 at 20:30 wherever it is read): it is shown and edited from those fields as they
 * are, never converted to the browser's time zone. A midnight `fecha` is a whole day.
 */
const FECHA = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})/;

/** "14/11/2026" for a whole day, "14/11/2026 20:30" otherwise (with seconds when it has them). */
export function fechaText(fecha: unknown): string {
  const parts = typeof fecha === 'string' ? FECHA.exec(fecha) : null;
  if (!parts) return '';
  const [, year, month, day, hours, minutes, seconds, millis] = parts;
  const date = `${day}/${month}/${year}`;
  if (hours === '00' && minutes === '00' && seconds === '00' && millis === '000') return date;
  return `${date} ${hours}:${minutes}${seconds === '00' && millis === '000' ? '' : `:${seconds}`}`;
}

/** Whether a form's value is a fecha as the API writes it (what the typed text became, or the record's own). */
export const isFecha = (value: unknown): value is string => typeof value === 'string' && FECHA.test(value);

/**
 * What the text typed in a date input means, in the API's notation (`2026-12-25T21:30:00.000Z`, the
 * wall clock as typed), read as a spreadsheet's cell is (typedFecha); a day alone is its midnight, a
 * whole day. Undefined when it is not a real day and time, so that the form says so rather than
 * storing a strange date.
 */
export function fechaFromText(text: string, { time = true } = {}): string | undefined {
  const typed = typedFecha(text);
  if (typed === undefined || (!time && typed.includes('T'))) return undefined;
  // canonicalFecha refuses what no calendar has: 31/02, 24:00, 21:60.
  return canonicalFecha(typed, 'UTC')?.replace('+00:00', 'Z');
}

/** A filter's day bound: "Desde" is that day's first instant, "Hasta" its last, in the same notation. */
export function dayBound(day: string, end: 'first' | 'last'): string {
  return end === 'first' ? `${day}T00:00:00.000Z` : `${day}T23:59:59.999Z`;
}
