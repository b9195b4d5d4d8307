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

/** The value a `datetime-local` input shows for `fecha`: the same fields, `2026-11-14T20:30`. */
export function fechaInputValue(fecha: unknown): string {
  if (typeof fecha !== 'string') return '';
  const parts = FECHA.exec(fecha);
  if (!parts) return fecha;
  const [, year, month, day, hours, minutes, seconds] = parts;
  return `${year}-${month}-${day}T${hours}:${minutes}${seconds === '00' ? '' : `:${seconds}`}`;
}

/** What a `datetime-local` input's value means, in the interface's notation: those fields, in UTC. */
export function fechaFromInput(value: string): string | null {
  if (!value) return null;
  const [date, time = '00:00'] = value.split('T');
  const [hours = '00', minutes = '00', seconds = '00'] = time.split(':');
  return `${date}T${hours}:${minutes}:${seconds.slice(0, 2)}.000Z`;
}

/** A filter's day bound: "Desde" is that day's first instant, "Hasta" its last, in the same notation. */
export function dayBound(day: string, end: 'first' | 'last'): string {
  return end === 'first' ? `${day}T00:00:00.000Z` : `${day}T23:59:59.999Z`;
}
