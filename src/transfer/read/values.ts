import { comparable } from '../../catalogue/comparable.js';
import { typedFecha } from '../../catalogue/fecha.js';
import type { FieldKind } from '../../db/listing.js';
import type { Cell } from './types.js';

/**
 * A cell read: the value handed to the API's rules and the cell as the sheet shows it; or, for a
 * cell that cannot be read, what it is (a date where no date belongs, a time where a date and
 * time belong) and how the sheet shows it.
 */
export type ReadCell = { value: string | number | boolean; shown: string } | { refused: 'dateInText' | 'timeWithoutDate'; shown: string };

/**
 * A cell as spreadsheets hold it and people type it, turned into what the API takes; anything
 * else is left as it is, for the API's own rules to judge (and the report to quote). Dates are the
 * event's wall clock, never converted from a time zone: `14/11/2026 20:30` is
 * `2026-11-14T20:30:00Z`, a plain date its midnight. A duration's time cell (`1:52`, which a
 * spreadsheet holds as a time of its day zero) is hours and minutes.
 */
export function cellValue(kind: FieldKind | undefined, field: string, cell: Exclude<Cell, null>): ReadCell {
  const duration = kind?.type === 'integer' && field === 'duracion';
  if (cell instanceof Date) {
    const clock = clockOf(cell);
    if (kind?.type === 'fecha') return clock ? { refused: 'timeWithoutDate', shown: clock.shown } : { value: wallClockOf(cell, kind.timed), shown: shownDate(cell) };
    // A date cell where no date belongs (a title the spreadsheet took for a date) is neither stored as shown nor as its serial number.
    if (!duration || clock === undefined) return { refused: 'dateInText', shown: shownDate(cell) };
    return { value: clock.minutes ?? clock.shown, shown: clock.shown };
  }
  if (kind?.type === 'boolean') return { value: yesNo(cell), shown: String(cell) };
  const shown = String(cell);
  const text = shown.trim();
  if (kind?.type === 'fecha') return { value: fecha(text), shown };
  if (duration) return { value: minutes(text), shown };
  return { value: kind?.type === 'text' ? shown : text, shown };
}

/** Spreadsheets' day zero (30/12/1899), from which .xlsx and .ods count their dates and times. */
export const DAY_ZERO = Date.UTC(1899, 11, 30);
const MINUTE = 60_000;

/**
 * A time cell, which spreadsheets hold as a time of their day zero (30/12/1899; 25:00 is 01:00 of
 * the day after): its hours and minutes as shown, and as minutes when it holds no seconds (01:52
 * is 112); undefined for a date of any other day.
 */
function clockOf(date: Date): { minutes?: number; shown: string } | undefined {
  // A serial number's fraction of a day comes a millisecond short at times (wallClockOf).
  const ms = Math.round((date.getTime() - DAY_ZERO) / 1000) * 1000;
  if (ms < 0 || ms >= 2 * 24 * 60 * MINUTE) return undefined;
  const minutes = Math.floor(ms / MINUTE);
  const seconds = (ms % MINUTE) / 1000;
  const shown = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}${seconds ? `:${String(seconds).padStart(2, '0')}` : ''}`;
  return { ...(seconds === 0 && { minutes }), shown };
}

/** `95`, `95 min`, `95 minutos`, `1:45` (hours and minutes: 105), `1h45`, `1 h 45 min`, `2 horas`. */
function minutes(text: string): string | number {
  const plain = /^(\d+)\s*(?:m|min|mins|minutos?)?\.?$/i.exec(text);
  if (plain?.[1]) return plain[1];
  const clock = /^(\d+):([0-5]\d)$/.exec(text) ?? /^(\d+)\s*(?:h|hs|horas?)\.?\s*(?:([0-5]?\d)\s*(?:m|min|mins|minutos?)?\.?)?$/i.exec(text);
  if (clock?.[1]) return Number(clock[1]) * 60 + Number(clock[2] ?? 0);
  return text;
}

/** A yes or no as a sheet holds it (a boolean cell, `sí`, `no`, `true`, `false`, `1`, `0`); anything else as it is, for the API to refuse. */
function yesNo(cell: string | number | boolean): string | number | boolean {
  if (typeof cell === 'boolean') return cell;
  const answer = comparable(String(cell));
  if (['si', 'true', 'verdadero', '1'].includes(answer)) return true;
  if (['no', 'false', 'falso', '0'].includes(answer)) return false;
  return cell;
}

/** A date as people type it, as the API's `fecha`; anything else as it is, for the API to refuse. */
const fecha = (text: string): string => typedFecha(text) ?? text;

/**
 * A workbook's date cell, whose UTC fields hold the wall clock the sheet shows: a plain date at
 * midnight (`timed`: midnight's time, for a field that always has one), else the date and time. A serial number is a fraction of a day, which the reader
 * turns into milliseconds rounding down: one a millisecond short of a whole second is that second.
 */
export function wallClockOf(date: Date, timed = false): string {
  const time = date.getTime();
  const second = Math.round(time / 1000) * 1000;
  const iso = new Date(Math.abs(time - second) <= 1 ? second : time).toISOString();
  if (iso.endsWith('T00:00:00.000Z') && !timed) return iso.slice(0, 10);
  return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso;
}

/** What a workbook showed for a date cell: 14/11/2026, or 14/11/2026 20:30. */
export function shownDate(date: Date): string {
  const [day, time] = wallClockOf(date).split('T');
  const [y, m, d] = (day ?? '').split('-');
  return `${d}/${m}/${y}${time ? ` ${time.slice(0, 5)}` : ''}`;
}
