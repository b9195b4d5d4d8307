import type { FieldKind } from '../../db/listing.js';

/**
 * A cell as spreadsheets write it, turned into what the API takes; anything else is left as it
 * is, for the API's own rules to judge. Dates are the event's wall clock, never converted from
 * a time zone: `14/11/2026 20:30` is `2026-11-14T20:30:00Z`, a plain date its midnight.
 */
export function spreadsheetValue(kind: FieldKind | undefined, field: string, cell: string): string | number {
  const text = cell.trim();
  if (kind?.type === 'fecha') return fecha(text);
  if (kind?.type === 'integer' && field === 'duracion') return minutes(text);
  return kind?.type === 'text' ? cell : text;
}

/** `95`, `95 min`, `95 minutos`, or `1:45` (hours and minutes: 105). */
function minutes(text: string): string | number {
  const plain = /^(\d+)\s*(?:min|mins|minutos)?\.?$/i.exec(text);
  if (plain?.[1]) return plain[1];
  const clock = /^(\d+):([0-5]\d)$/.exec(text);
  if (clock?.[1] && clock[2]) return Number(clock[1]) * 60 + Number(clock[2]);
  return text;
}

/** `14/11/2026`, `14/11/2026 20:30`, `2026-11-14 20:30` (and what the API takes as it is). */
function fecha(text: string): string {
  const spanish = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (spanish) {
    const [, day = '', month = '', year = '', hours, mins, secs] = spanish;
    return wallClock(year, month, day, hours, mins, secs);
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (iso) {
    const [, year = '', month = '', day = '', hours, mins, secs] = iso;
    return wallClock(year, month, day, hours, mins, secs);
  }
  return text;
}

const two = (n: string) => n.padStart(2, '0');

function wallClock(year: string, month: string, day: string, hours?: string, mins?: string, secs?: string): string {
  const date = `${year}-${two(month)}-${two(day)}`;
  return hours === undefined ? date : `${date}T${two(hours)}:${mins ?? '00'}:${secs ?? '00'}Z`;
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
