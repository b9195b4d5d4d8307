import { comparable } from './comparable.js';
import { canonicalFecha, wallClockIn } from './fecha.js';
import { messages } from './messages.js';
import type { Problem } from './refusal.js';

/**
 * A series of showtimes (`POST /funciones/serie`): every `dias` weekday from `desde` to `hasta`,
 * both included, at each of `horas`, but for the dates of `excepto`. Wall clocks in the city's
 * zone: one inside a spring-forward gap moves forward by the gap, as any showtime's does.
 */
export interface SeriesRule {
  desde: string;
  hasta: string;
  dias: string[];
  horas: string[];
  excepto?: string[];
}

/** Most showtimes one series creates, counted after `excepto`. */
export const SERIES_MAX = 1000;

/** The weekdays `dias` names, as people write them, Monday first. */
export const DIAS = ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'] as const;
const COMPARABLE_DIAS: readonly string[] = DIAS.map(comparable);

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** A real calendar date `YYYY-MM-DD` as milliseconds at its midnight, or undefined. */
export function calendarDay(text: string): number | undefined {
  return DATE.test(text) && canonicalFecha(text, 'UTC') !== undefined ? Date.parse(`${text}T00:00:00Z`) : undefined;
}

/**
 * The showtimes' `inicio`s the rule gives in `zone`, in order, or every problem of the rule (each
 * naming its field), with the cap's sentence when it gives more than SERIES_MAX.
 */
export function seriesStarts(rule: SeriesRule, zone: string): { starts: string[] } | { problems: Problem[] } {
  const v = messages.validation;
  const s = messages.series;
  const problems: Problem[] = [];
  const desde = calendarDay(rule.desde);
  const hasta = calendarDay(rule.hasta);
  if (desde === undefined) problems.push({ field: 'desde', sentence: s.date(v.subject('body', 'desde')) });
  if (hasta === undefined) problems.push({ field: 'hasta', sentence: s.date(v.subject('body', 'hasta')) });
  if (desde !== undefined && hasta !== undefined && hasta < desde) problems.push({ field: 'hasta', sentence: s.hastaBeforeDesde });
  const weekdays = new Set<number>();
  for (const dia of rule.dias) {
    const day = COMPARABLE_DIAS.indexOf(comparable(dia));
    if (day < 0) problems.push({ field: 'dias', sentence: s.weekday(dia, DIAS) });
    // As `Date.getUTCDay()` counts them: Sunday is 0.
    else weekdays.add((day + 1) % 7);
  }
  for (const hora of rule.horas) {
    if (!TIME.test(hora.trim())) problems.push({ field: 'horas', sentence: s.time(hora) });
  }
  const excepto = new Set<number>();
  for (const fecha of rule.excepto ?? []) {
    const day = calendarDay(fecha.trim());
    if (day === undefined) problems.push({ field: 'excepto', sentence: s.exceptDate(fecha) });
    else excepto.add(day);
  }
  if (problems.length > 0 || desde === undefined || hasta === undefined) return { problems };
  const horas = [...new Set(rule.horas.map((h) => h.trim()))].sort();
  const days: number[] = [];
  for (let day = desde; day <= hasta; day += DAY_MS) {
    if (weekdays.has(new Date(day).getUTCDay()) && !excepto.has(day)) days.push(day);
    if (days.length * horas.length > SERIES_MAX) break;
  }
  const count = days.length * horas.length;
  if (count === 0) return { problems: [{ sentence: s.none }] };
  if (count > SERIES_MAX) return { problems: [{ sentence: s.tooMany(SERIES_MAX) }] };
  const starts = days.flatMap((day) => {
    const date = new Date(day).toISOString().slice(0, 10);
    return horas.map((hora) => wallClockIn(zone, `${date}T${hora}:00.000+00:00`));
  });
  // A gap can move one hour onto another of the same day: each wall clock once.
  return { starts: [...new Set(starts)].sort() };
}

/** A showtime's wall clock as people read it: `25/12/2026 20:00`. */
export function shownWallClock(inicio: string): string {
  const [, y, m, d, time] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2})/.exec(inicio) ?? [];
  return `${d}/${m}/${y} ${time}`;
}
