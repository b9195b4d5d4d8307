/** `-34.6037, -58.3816`, as map sites copy a point: latitude, then longitude (a space or a comma between). */
const PAIR = /^\s*(-?\d+(?:\.\d+)?)\s*[,;\s]\s*(-?\d+(?:\.\d+)?)\s*$/;

/** The point a pasted text names, or undefined when it names none (the service judges the ranges). */
export function coordinatesFromText(text: string): { latitud: number; longitud: number } | undefined {
  const parts = PAIR.exec(text);
  return parts ? { latitud: Number(parts[1]), longitud: Number(parts[2]) } : undefined;
}

/** The point on OpenStreetMap, with a marker; no tiles are loaded by the admin itself. */
export const osmUrl = (latitud: number, longitud: number) =>
  `https://www.openstreetmap.org/?mlat=${latitud}&mlon=${longitud}#map=17/${latitud}/${longitud}`;
