import type { FieldKind } from '../../db/listing.js';
import type { Cell } from './types.js';

/**
 * A cell read: the value handed to the API's rules and the cell as the sheet shows it; or, for a
 * cell that cannot be read, what it is (a date where no date belongs, a time where a date and
 * time belong) and how the sheet shows it.
 */
export type ReadCell = { value: string | number; shown: string } | { refused: 'dateInText' | 'timeWithoutDate'; shown: string };

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
    if (kind?.type === 'fecha') return clock ? { refused: 'timeWithoutDate', shown: clock.shown } : { value: wallClockOf(cell), shown: shownDate(cell) };
    // A date cell where no date belongs (a title the spreadsheet took for a date) is neither stored as shown nor as its serial number.
    if (!duration || clock === undefined) return { refused: 'dateInText', shown: shownDate(cell) };
    return { value: clock.minutes ?? clock.shown, shown: clock.shown };
  }
  const shown = String(cell);
  const text = shown.trim();
  if (kind?.type === 'fecha') return { value: fecha(text), shown };
  if (duration) return { value: minutes(text), shown };
  return { value: kind?.type === 'text' ? shown : text, shown };
}

const DAY_ZERO = Date.UTC(1899, 11, 30);
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

/** A time of day as people write it: `20:30`, `9:30:15`, `9:30 p. m.`, `9:30pm`, `12 a. m.` (midnight). */
const TIME = String.raw`(\d{1,2})(?::(\d{2})(?::(\d{2}))?)?\s*(?:([ap])\.?\s*m\.?)?`;
/** `25/12/2026`, `25-12-2026`, `25.12.2026`, `25/12/26` (2026), each with a time or none. */
const SPANISH = new RegExp(String.raw`^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?:[ T]+${TIME})?$`, 'i');
/** `2026-11-14 20:30` (the API itself takes `2026-11-14T20:30`). */
const ISO = new RegExp(String.raw`^(\d{4})-(\d{2})-(\d{2}) +${TIME}$`, 'i');

/** A date as people type it, as the API's `fecha`; anything else as it is, for the API to refuse. */
function fecha(text: string): string {
  const spanish = SPANISH.exec(text);
  if (spanish) {
    const [, day = '', , month = '', year = '', ...time] = spanish;
    return wallClock(year.length === 2 ? `20${year}` : year, month, day, time) ?? text;
  }
  const iso = ISO.exec(text);
  if (iso) {
    const [, year = '', month = '', day = '', ...time] = iso;
    return wallClock(year, month, day, time) ?? text;
  }
  return text;
}

const two = (n: string) => n.padStart(2, '0');

/**
 * The API's `fecha` of a date and a time of day written as above; undefined for an hour that
 * its `a. m.`/`p. m.` does not allow (13 p. m.) or a time with no minutes and no `a. m.`/`p. m.`.
 */
function wallClock(year: string, month: string, day: string, [hours, mins, secs, half]: (string | undefined)[]): string | undefined {
  const date = `${year}-${two(month)}-${two(day)}`;
  if (hours === undefined) return date;
  let hour = Number(hours);
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (half.toLowerCase() === 'p' ? 12 : 0);
  } else if (mins === undefined) return undefined;
  return `${date}T${two(String(hour))}:${mins ?? '00'}:${secs ?? '00'}Z`;
}

/**
 * A workbook's date cell, whose UTC fields hold the wall clock the sheet shows: a plain date at
 * midnight, else the date and time. A serial number is a fraction of a day, which the reader
 * turns into milliseconds rounding down: one a millisecond short of a whole second is that second.
 */
export function wallClockOf(date: Date): string {
  const time = date.getTime();
  const second = Math.round(time / 1000) * 1000;
  const iso = new Date(Math.abs(time - second) <= 1 ? second : time).toISOString();
  if (iso.endsWith('T00:00:00.000Z')) return iso.slice(0, 10);
  return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso;
}

/** What a workbook showed for a date cell: 14/11/2026, or 14/11/2026 20:30. */
export function shownDate(date: Date): string {
  const [day, time] = wallClockOf(date).split('T');
  const [y, m, d] = (day ?? '').split('-');
  return `${d}/${m}/${y}${time ? ` ${time.slice(0, 5)}` : ''}`;
}
