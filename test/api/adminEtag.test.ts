// The admin reads a record through a list (`GET /peliculas?id=4`, whose ETag is the list's) and
// works the record's own tag out from the same bytes (web/src/dataProvider/etag.ts) to send it in
// If-Match. These tests hold that tag to the service's: accepted while the record is as read,
// refused once it changed, for every resource and for text that JSON escapes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { etagOf as adminEtagOf } from '../../web/src/dataProvider/etag.js';
import { buildTestApp, createArtista, createCategoria, createEventoUrbano, createObra, createParticipacion, createPelicula, send, type Json } from '../helpers.js';

const TRICKY = 'Comillas "dobles", barra \\ invertida, ñandú, 🎭, separador\u2028de línea y </script>';

describe('the admin\'s ETag of a record', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(async () => {
    await app.close();
  });

  /** What the admin does: read the record by ?key=, take its tag from those bytes. */
  async function adminRead(path: string, key: string, value: unknown): Promise<{ record: Json; tag: string }> {
    const [record] = (await send(app, 'GET', `${path}?${key}=${String(value)}`)).json() as Json[];
    assert.ok(record, `${path}?${key}=${String(value)} answers the record`);
    return { record, tag: adminEtagOf(JSON.stringify(record)) };
  }

  it('when the admin sends If-Match with the tag it worked out, then the service accepts it while the record is unchanged, and refuses it after a change', async () => {
    const categoria = await createCategoria(app, { nombre: `Categoría ${TRICKY}` });
    const pelicula = await createPelicula(app, { categoria_id: categoria.id, sipnosis: TRICKY });
    const obra = await createObra(app, { categoria_id: categoria.id, descripcion: TRICKY });
    const evento = await createEventoUrbano(app, { categoria_id: categoria.id, descripcion: TRICKY, fecha: '2026-11-14T20:30:00Z' });
    const artista = await createArtista(app, { descripcion: TRICKY });
    const otra = await createPelicula(app, { categoria_id: categoria.id });
    const participacion = await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: pelicula.id });
    const cases: [string, string, unknown, Json][] = [
      ['/categorias', 'id', categoria.id, { nombre: `Otra ${TRICKY}` }],
      ['/peliculas', 'id', pelicula.id, { duracion: 77 }],
      ['/Obras', 'id', obra.id, { duracion: 78 }],
      ['/eventosUrbanos', 'id', evento.id, { lugar: `Plaza ${TRICKY}` }],
      ['/artistas', 'dni', artista.dni, { tipo: 'directora' }],
      ['/participaciones', 'id', participacion.id, { evento_id: otra.id }],
    ];
    for (const [path, key, value, patch] of cases) {
      const { tag } = await adminRead(path, key, value);
      const patchWith = (ifMatch: string) => app.inject({ method: 'PATCH', url: `${path}/${String(value)}`, payload: patch, headers: { 'if-match': ifMatch } });
      const accepted = await patchWith(tag);
      assert.equal(accepted.statusCode, 200, `${path}: the admin's tag is the service's: ${accepted.body}`);
      const stale = await patchWith(tag);
      assert.equal(stale.statusCode, 412, `${path}: once the record changed, the tag read before is refused`);
      const fresh = await adminRead(path, key, value);
      assert.equal((await patchWith(fresh.tag)).statusCode, 200, `${path}: the tag of the record read again is accepted`);
    }
  });
});
