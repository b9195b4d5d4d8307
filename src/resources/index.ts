import { artistas } from './artistas.js';
import { categorias } from './categorias.js';
import { eventosUrbanos } from './eventosUrbanos.js';
import { obras } from './obras.js';
import { participaciones } from './participaciones.js';
import { peliculas } from './peliculas.js';

/** The six resources of the interface. */
export const resources = [peliculas, obras, eventosUrbanos, artistas, categorias, participaciones];
