import type { TipoEvento } from '../catalogue/fields.js';
import { eventosUrbanos } from './eventosUrbanos.js';
import { obras } from './obras.js';
import { peliculas } from './peliculas.js';

/** The resource of the item a participation names, by its tipo_evento. */
export const itemResources = { pelicula: peliculas, obra: obras, eventoUrbano: eventosUrbanos } as const satisfies Record<TipoEvento, unknown>;
