/**
 * The city's time zone (`TIMEZONE`, an IANA zone): what a date-time sent with an offset is
 * turned into, and what the calendars say of their wall clocks. Read from the platform's own
 * time zone data (Intl), so daylight saving follows it without a table of ours.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', era: 'short',
      year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formats.set(zone, format);
  }
  return format;
}

/**
 * `name` when it is an IANA zone the platform knows, `UTC` for any name of UTC (`Etc/UTC`, `GMT`),
 * or undefined. Other names stay as given: calendars name the zone as the setting does.
 */
export function timeZoneNamed(name: string): string | undefined {
  // The default asks nothing of Intl: its first DateTimeFormat maps about 5 MB of ICU's data into the process.
  if (name === 'UTC') return name;
  // Intl also takes fixed offsets (`+01:00`), which are no city's zone.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone === 'UTC' ? 'UTC' : name;
  } catch {
    return undefined;
  }
}

/** The zone's offset from UTC at the instant `ms` (milliseconds since the epoch), in seconds. */
export function offsetAt(zone: string, ms: number): number {
  const whole = Math.floor(ms / 1000) * 1000;
  const parts = Object.fromEntries(formatFor(zone).formatToParts(new Date(whole)).map((p) => [p.type, p.value]));
  const year = parts.era === 'BC' ? 1 - Number(parts.year) : Number(parts.year);
  const wall = new Date(0);
  wall.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
  wall.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second), 0);
  return Math.round((wall.getTime() - whole) / 1000);
}

/** The wall clock in `zone` at the instant `ms`, as milliseconds whose UTC fields hold it. */
export function wallClockAt(zone: string, ms: number): number {
  return zone === 'UTC' ? ms : ms + offsetAt(zone, ms) * 1000;
}

const DAY = 86_400_000;

/** Today in each zone asked: its midnight's wall clock, and the instants it starts and ends at. */
const days = new Map<string, { midnight: number; from: number; until: number }>();

/**
 * The date in `zone` at the instant `ms`, as the milliseconds of its midnight (UTC fields), worked
 * out once a day: Intl's answer costs microseconds, and what's on asks it on every request.
 */
export function dayAt(zone: string, ms: number): number {
  let day = days.get(zone);
  if (!day || ms < day.from || ms >= day.until) {
    const midnight = Math.floor(wallClockAt(zone, ms) / DAY) * DAY;
    // A midnight inside a spring-forward gap: instantOf gives the gap's instant, the day's first.
    day = { midnight, from: instantOf(zone, midnight), until: instantOf(zone, midnight + DAY) };
    days.set(zone, day);
  }
  return day.midnight;
}

/**
 * The instant of the wall clock `wall` (milliseconds whose UTC fields hold it) in `zone`, as
 * Temporal's `compatible` disambiguation finds it: a wall clock that occurs twice takes the
 * earlier offset; one that does not occur (a spring-forward gap) takes the offset before the gap,
 * which puts it later by the gap's length.
 */
export function instantOf(zone: string, wall: number): number {
  if (zone === 'UTC') return wall;
  const before = offsetAt(zone, wall - DAY) * 1000;
  const after = offsetAt(zone, wall + DAY) * 1000;
  // The larger offset gives the earlier instant: tried first, for a repeated wall clock.
  for (const offset of before >= after ? [before, after] : [after, before]) {
    if (wallClockAt(zone, wall - offset) === wall) return wall - offset;
  }
  return wall - before;
}

/** The wall clock that `wall` is in `zone`: itself, or, inside a spring-forward gap, moved forward by the gap. */
export function existingWallClock(zone: string, wall: number): number {
  return wallClockAt(zone, instantOf(zone, wall));
}
