// Loads the demo catalogue (seed-data.ts) into the store named by DATABASE_URL, through the
// service's own routes, so every record passes the same validation and constraints as a client's.
// Safe to run again: records that already exist are left as they are.
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import * as data from './seed-data.js';

const config = loadConfig();
// The seed is the operator's own loader: no rate limit, no load shedding (its own start-up can block
// its event loop past the limit, and it serves no one else), and the first API key when writes
// need one.
const app = await buildApp({
  ...config,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: 0,
  UNDER_PRESSURE_MAX_EVENT_LOOP_DELAY_MS: 0,
  UNDER_PRESSURE_MAX_HEAP_USED_BYTES: 0,
  UNDER_PRESSURE_MAX_RSS_BYTES: 0,
});
const key = config.API_KEYS?.split(',')[0]?.trim();
const headers = key ? { authorization: `Bearer ${key}` } : {};
const counts = { created: 0, existing: 0 };

async function post(url: string, payload: object): Promise<void> {
  const res = await app.inject({ method: 'POST', url, payload, headers });
  if (res.statusCode === 201) counts.created++;
  else if (res.statusCode === 400 && res.json<{ details: string }>().details.startsWith('Ya existe')) counts.existing++;
  else throw new Error(`POST ${url} ${JSON.stringify(payload)} → ${res.statusCode} ${res.body}`);
}

async function idsByTitle(url: string, field: 'titulo' | 'nombre'): Promise<Map<string, number>> {
  const rows = (await app.inject({ method: 'GET', url })).json<Record<string, string | number>[]>();
  return new Map(rows.map((row) => [String(row[field]), Number(row.id)]));
}

try {
  for (const nombre of data.categorias) await post('/categorias', { nombre });
  const categoria = await idsByTitle('/categorias', 'nombre');
  const categoriaId = (nombre: string) => categoria.get(nombre);

  for (const { categoria: c, ...p } of data.peliculas) await post('/peliculas', { ...p, categoria_id: categoriaId(c) });
  for (const { categoria: c, ...o } of data.obras) await post('/Obras', { ...o, categoria_id: categoriaId(c) });
  for (const { categoria: c, ...e } of data.eventosUrbanos) await post('/eventosUrbanos', { ...e, categoria_id: categoriaId(c) });
  for (const artista of data.artistas) await post('/artistas', artista);

  const items = {
    pelicula: await idsByTitle('/peliculas', 'titulo'),
    obra: await idsByTitle('/Obras', 'titulo'),
    eventoUrbano: await idsByTitle('/eventosUrbanos', 'titulo'),
  };
  for (const { dni, tipo_evento, titulo } of data.participaciones) {
    await post('/participaciones', { artistas_dni: dni, tipo_evento, evento_id: items[tipo_evento].get(titulo) });
  }
  console.log(`seed: ${counts.created} records created, ${counts.existing} already there (${config.DATABASE_URL})`);
} finally {
  await app.close();
}
