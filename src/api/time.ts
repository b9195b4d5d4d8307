const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Local date-time `YYYY-MM-DDTHH:MM:SS`, as the spec's delete body carries it. */
export function localDateTime(date = new Date()): string {
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** Local date-time with milliseconds `YYYY-MM-DDTHH:MM:SS.mmm`, as the spec's error body carries it. */
export function localDateTimeMillis(date = new Date()): string {
  return `${localDateTime(date)}.${pad(date.getMilliseconds(), 3)}`;
}
