import { offsetAt, wallClockAt } from '../catalogue/zone.js';

/**
 * A `VTIMEZONE` (RFC 5545 §3.6.5) for `zone`, from the platform's time zone data (Intl), good for
 * every wall clock in the years `years` holds: an observance from before the first of them, and
 * each change of offset in them, each in effect until the next. A kind of change that comes back
 * every year on the same weekday of the same month at the same time is one yearly RRULE; others
 * are RDATEs, every onset its own. A zone without daylight saving in those years has one STANDARD.
 */
export function vtimezone(zone: string, years: Iterable<number>): string[] {
  const spans = spansOf(years);
  // A year costs a few hundred look-ups of the zone's offset: the last few answers are kept.
  const key = `${zone} ${spans.map((s) => `${s.from}-${s.to}`).join(',')}`;
  const known = made.get(key);
  if (known) return known;
  const lines = computed(zone, spans);
  made.set(key, lines);
  if (made.size > 16) made.delete(made.keys().next().value ?? key);
  return lines;
}

const made = new Map<string, string[]>();

function computed(zone: string, spans: { from: number; to: number }[]): string[] {
  const first = spans[0];
  if (!first) return [];
  const start = utc(first.from, 0, 1) - DAY;
  const onsets: Onset[] = [{ at: start, from: offsetAt(zone, start), to: offsetAt(zone, start) }];
  for (const span of spans) {
    const from = utc(span.from, 0, 1) - DAY;
    // A change in the years between spans (which hold no event) is dated at the span's start.
    const before = onsets.at(-1)?.to ?? 0;
    if (offsetAt(zone, from) !== before) onsets.push({ at: from, from: before, to: offsetAt(zone, from) });
    onsets.push(...changes(zone, from, utc(span.to + 1, 0, 1) + DAY));
  }
  const lastYear = spans.at(-1)?.to ?? first.from;
  return [
    `BEGIN:VTIMEZONE`,
    `TZID:${zone}`,
    ...observances(zone, onsets).flatMap((o) => observance(o, lastYear)),
    `END:VTIMEZONE`,
  ];
}

const DAY = 86_400_000;

/** Midnight UTC of a day, as milliseconds; unlike Date.UTC, years 0 to 99 are those years, not 19xx. */
const utc = (year: number, month: number, day: number) => new Date(0).setUTCFullYear(year, month, day);

/** A change of offset: the instant it takes effect, and the offsets (seconds east of UTC) before and after. */
interface Onset {
  at: number;
  from: number;
  to: number;
}

/** The years, with the one before each, as runs of consecutive years. */
function spansOf(years: Iterable<number>): { from: number; to: number }[] {
  const sorted = [...new Set(years)].sort((a, b) => a - b);
  const spans: { from: number; to: number }[] = [];
  for (const year of sorted) {
    const last = spans.at(-1);
    if (last && year - 1 <= last.to + 1) last.to = year;
    else spans.push({ from: Math.max(year - 1, 1), to: year });
  }
  return spans;
}

/** Every change of offset in (`from`, `to`], found by the day and then to the second. */
function changes(zone: string, from: number, to: number): Onset[] {
  const found: Onset[] = [];
  let before = offsetAt(zone, from);
  for (let day = from; day < to; day += DAY) {
    const after = offsetAt(zone, day + DAY);
    if (after === before) continue;
    let [low, high] = [day, day + DAY];
    while (high - low > 1000) {
      const middle = low + Math.floor((high - low) / 2000) * 1000;
      if (offsetAt(zone, middle) === before) low = middle;
      else high = middle;
    }
    found.push({ at: high, from: before, to: after });
    before = after;
  }
  return found;
}

interface Observance {
  kind: 'STANDARD' | 'DAYLIGHT';
  from: number;
  to: number;
  /** Its onsets, as the wall clocks they happen at (in the offset before them), as milliseconds whose UTC fields hold them. */
  starts: number[];
  /** Its onsets, as instants. */
  instants: number[];
}

/** The onsets grouped by kind and offsets. Daylight saving is an offset above the lower of the year's January and July ones. */
function observances(zone: string, onsets: Onset[]): Observance[] {
  const groups = new Map<string, Observance>();
  for (const onset of onsets) {
    const year = new Date(wallClockAt(zone, onset.at)).getUTCFullYear();
    const standard = Math.min(offsetAt(zone, utc(year, 0, 1)), offsetAt(zone, utc(year, 6, 1)));
    const kind = onset.to > standard ? 'DAYLIGHT' : 'STANDARD';
    const key = `${kind} ${onset.from} ${onset.to}`;
    const group = groups.get(key) ?? { kind, from: onset.from, to: onset.to, starts: [], instants: [] };
    group.starts.push(onset.at + onset.from * 1000);
    group.instants.push(onset.at);
    groups.set(key, group);
  }
  return [...groups.values()];
}

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

function observance(o: Observance, lastYear: number): string[] {
  return [
    `BEGIN:${o.kind}`,
    `DTSTART:${localTime(o.starts[0] ?? 0)}`,
    `TZOFFSETFROM:${offsetText(o.from)}`,
    `TZOFFSETTO:${offsetText(o.to)}`,
    ...recurrence(o, lastYear),
    `END:${o.kind}`,
  ];
}

/** The onsets after the first: one yearly rule when they follow one, else their list. */
function recurrence(o: Observance, lastYear: number): string[] {
  if (o.starts.length < 2) return [];
  const rule = yearlyRule(o.starts);
  if (rule) {
    const last = new Date(o.starts.at(-1) ?? 0).getUTCFullYear();
    // Past its last year, the rule would invent changes the zone does not make.
    const until = last < lastYear ? `;UNTIL=${localTime(o.instants.at(-1) ?? 0)}Z` : '';
    return [`RRULE:FREQ=YEARLY;BYMONTH=${rule.month};BYDAY=${rule.week}${rule.weekday}${until}`];
  }
  // One RDATE a line, the first onset included: some readers (ical.js) take a line's first value only, and skip DTSTART beside RDATEs.
  return o.starts.map((start) => `RDATE:${localTime(start)}`);
}

/** The yearly rule all `starts` follow (`the last Sunday of March at 02:00`), if they are one a year in consecutive years. */
function yearlyRule(starts: number[]): { month: number; week: number; weekday: string } | undefined {
  const dates = starts.map((s) => new Date(s));
  const [first] = dates;
  if (!first || dates.length < 2) return undefined;
  const timeOfDay = (d: Date) => d.getTime() - utc(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const lastDay = (d: Date) => new Date(utc(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  const alike = dates.every((d, i) =>
    d.getUTCFullYear() === first.getUTCFullYear() + i && d.getUTCMonth() === first.getUTCMonth() &&
    d.getUTCDay() === first.getUTCDay() && timeOfDay(d) === timeOfDay(first));
  if (!alike) return undefined;
  const rule = { month: first.getUTCMonth() + 1, weekday: WEEKDAYS[first.getUTCDay()] ?? 'SU' };
  if (dates.every((d) => d.getUTCDate() > lastDay(d) - 7)) return { ...rule, week: -1 };
  const week = Math.ceil(first.getUTCDate() / 7);
  return dates.every((d) => Math.ceil(d.getUTCDate() / 7) === week) ? { ...rule, week } : undefined;
}

/** A wall clock held in UTC fields, as an iCalendar local time: `20270328T020000`. */
function localTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replaceAll('-', '').replaceAll(':', '');
}

/** Seconds east of UTC as a UTC offset: `-0300`, `+0530`, `-041648`. */
function offsetText(seconds: number): string {
  const sign = seconds < 0 ? '-' : '+';
  const abs = Math.abs(seconds);
  const two = (n: number) => String(n).padStart(2, '0');
  const hhmm = `${two(Math.floor(abs / 3600))}${two(Math.floor((abs % 3600) / 60))}`;
  return `${sign}${hhmm}${abs % 60 === 0 ? '' : two(abs % 60)}`;
}
