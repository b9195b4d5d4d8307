import { useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { shownWallClock } from '../../../src/catalogue/series';
import type { CarteleraDataProvider, Hora } from '../dataProvider';

export { shownWallClock };

/** The city's zone and wall clock (`GET /hora`), read once per page; undefined until the service answers. */
export function useHora(): Hora | undefined {
  const dataProvider = useDataProvider<CarteleraDataProvider>();
  const [hora, setHora] = useState<Hora>();
  useEffect(() => {
    let shown = true;
    // A failed read leaves the page as it is without the city's clock: the list unsplit, no preview.
    dataProvider.hora().then((answer) => shown && setHora(answer), () => undefined);
    return () => {
      shown = false;
    };
  }, [dataProvider]);
  return hora;
}

/** Upcoming first by the city's wall clock `now` (the API's notation), soonest first; then the past ones, latest first. */
export function upcomingFirst<T extends { inicio: string }>(funciones: T[], now: string): T[] {
  const upcoming = funciones.filter((f) => f.inicio >= now).sort((a, b) => a.inicio.localeCompare(b.inicio));
  const past = funciones.filter((f) => f.inicio < now).sort((a, b) => b.inicio.localeCompare(a.inicio));
  return [...upcoming, ...past];
}
