import { artistas } from './artistas.js';
import type { AnyResource } from './define.js';
import { categorias } from './categorias.js';
import { eventosUrbanos } from './eventosUrbanos.js';
import { funciones } from './funciones.js';
import { lugares } from './lugares.js';
import { obras } from './obras.js';
import { participaciones } from './participaciones.js';
import { peliculas } from './peliculas.js';
import { imagenes as declaredImages } from './imagenes.js';

export { artistas, categorias, eventosUrbanos, funciones, lugares, obras, participaciones, peliculas };
export { itemResources } from './items.js';

/**
 * The resources, each after those it refers to: the order an export writes them in and an import
 * stores them in.
 */
export const resources: readonly AnyResource[] = [categorias, peliculas, obras, eventosUrbanos, artistas, participaciones, lugares, funciones];

/** Images: a resource like the others, whose writes carry a file (imageWrites.ts). */
export const imagenes: AnyResource = declaredImages;

/** Every resource whose changes the log holds. */
export const loggedResources: readonly AnyResource[] = [...resources, imagenes];

/**
 * What an export carries, an import reads and a copy takes, each after those it refers to: the
 * records, then their images (which name records of five of them).
 */
export const transferred: readonly AnyResource[] = [...resources, imagenes];
