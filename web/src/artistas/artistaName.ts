import type { RaRecord } from 'react-admin';

/** How an artist is named in pickers and titles: "Gael García Bernal (DNI 20111222)". */
export const artistaName = (a: RaRecord) => `${a.nombre} ${a.apellido} (DNI ${a.dni})`;

/** An artist is picked by name or by dni: digits look the dni up, anything else searches the text. */
export const artistaQuery = (search: string) => (/^\d+$/.test(search.trim()) ? { dni: search.trim() } : { q: search });
