import { shownWallClock } from '../../../src/catalogue/series';

export { shownWallClock };

/** Now as the city's wall clock reads it, in the API's notation, to tell upcoming showtimes from past ones. */
export function nowWallClock(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}`;
}

/** Upcoming first, soonest first; then the past ones, latest first. */
export function upcomingFirst<T extends { inicio: string }>(funciones: T[], now = nowWallClock()): T[] {
  const upcoming = funciones.filter((f) => f.inicio.slice(0, 16) >= now).sort((a, b) => a.inicio.localeCompare(b.inicio));
  const past = funciones.filter((f) => f.inicio.slice(0, 16) < now).sort((a, b) => b.inicio.localeCompare(a.inicio));
  return [...upcoming, ...past];
}
