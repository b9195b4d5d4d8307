// Checked by `npm run typecheck`, never run: a write of a table must fill every comparable column of it.
// If the compiler ever accepts the rows marked @ts-expect-error, the type check fails.
import { insertReturning, updateReturning } from '../../src/db/prepared.js';
import type { Db } from '../../src/db/schema.js';

export function writes(db: Db) {
  const movie = { titulo: 'Roma', sipnosis: 'Cleo.', duracion: 135, categoria_id: 1 };
  void insertReturning(db, 'peliculas', { ...movie, titulo_clave: 'roma', sipnosis_clave: 'cleo.' });
  // @ts-expect-error: sipnosis_clave is missing
  void insertReturning(db, 'peliculas', { ...movie, titulo_clave: 'roma' });
  // @ts-expect-error: both comparable columns are missing
  void insertReturning(db, 'peliculas', movie);
  void updateReturning(db, 'peliculas', 'id', 1, { titulo: 'Roma', titulo_clave: 'roma' });
  // @ts-expect-error: a column the table does not have
  void updateReturning(db, 'peliculas', 'id', 1, { subtitulo: 'Roma' });
}
