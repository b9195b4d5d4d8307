// The round trip through POST /importar: a row that carries its key is that record, a value that
// differs only in line endings is unchanged, and participations read back by the names the exports show.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createArtista, createCategoria, createObra, createPelicula, send, withApp, type Json } from '../helpers.js';
import { backend } from '../stores.js';
import { importar } from './uploads.js';

const HEADER = 'Id;Título;Sinopsis;Duración (minutos);Categoría';
const list = async (app: FastifyInstance, path: string) => (await app.inject({ method: 'GET', url: path })).json<Json[]>();
const modifications = async (app: FastifyInstance) => list(app, '/cambios?operacion=modificacion');
const csv = (name: string, lines: string[]) => [{ name, bytes: `\uFEFF${lines.join('\r\n')}\r\n` }];
const exported = async (app: FastifyInstance, recurso: string) => (await app.inject({ method: 'GET', url: `/exportar.csv?recurso=${recurso}` })).body;

async function twoMovies(app: FastifyInstance) {
  const drama = await createCategoria(app, { nombre: 'Drama' });
  const cienaga = await createPelicula(app, { titulo: 'La ciénaga', sipnosis: 'Salta, en verano.', duracion: 103, categoria_id: drama.id });
  const zama = await createPelicula(app, { titulo: 'Zama', sipnosis: 'Un funcionario espera.\r\nY espera.', duracion: 115, categoria_id: drama.id });
  return { drama, cienaga, zama };
}

describe(`POST /importar: the round trip (${backend})`, () => {
  it('when an exported row keeps its Id and gets a new title, then existentes=actualizar updates that record, title included, and logs that one change', () =>
    withApp(async (app) => {
      const { cienaga } = await twoMovies(app);
      const before = await list(app, '/peliculas');
      const edited = (await exported(app, 'peliculas')).replace(';La ciénaga;', ';La ciénaga (2001);');

      const refused = await importar(app, '', [{ name: 'peliculas.csv', bytes: edited }]);
      assert.equal(refused.statusCode, 400, refused.body);
      assert.deepEqual(refused.json<Json>().problemas, [
        { archivo: 'peliculas.csv', fila: 2, recurso: 'peliculas', campo: 'id', columna: 'Id', valor: String(cienaga.id), frase: `Ya existe una película con id: ${cienaga.id}, por favor, intente con otro distinto` },
        { archivo: 'peliculas.csv', fila: 3, recurso: 'peliculas', campo: 'titulo', columna: 'Título', valor: 'Zama', frase: 'Ya existe una película con el titulo de: Zama, por favor, intente con otro distinto' },
      ]);

      const res = await importar(app, '?existentes=actualizar', [{ name: 'peliculas.csv', bytes: edited }]);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json<Json>().recuentos, { peliculas: { nuevos: 0, actualizados: 1, sin_cambios: 1 } });
      assert.deepEqual(await list(app, '/peliculas'), before.map((p) => (p.id === cienaga.id ? { ...p, titulo: 'La ciénaga (2001)' } : p)));
      assert.deepEqual((await modifications(app)).map((c) => [c.clave, c.campos]), [[cienaga.id, ['titulo']]]);
    }));

  it('when a row\'s Id names no record, then it is created with that Id; when its title is another record\'s, then it is refused and nothing is stored', () =>
    withApp(async (app) => {
      const { cienaga } = await twoMovies(app);
      const created = await importar(app, '?existentes=actualizar', csv('peliculas.csv', [HEADER, '50;Nueve reinas;Dos estafadores.;114;Drama']));
      assert.equal(created.statusCode, 200, created.body);
      assert.equal((await send(app, 'GET', '/peliculas/Nueve%20reinas')).json<Json>().id, 50);

      const before = await list(app, '/peliculas');
      const taken = await importar(app, '?existentes=actualizar', csv('peliculas.csv', [HEADER, '51;zama;Otra.;90;Drama', `${cienaga.id};Nueve Reinas;Salta.;103;Drama`]));
      assert.equal(taken.statusCode, 400, taken.body);
      assert.deepEqual(taken.json<Json>().problemas, [
        { archivo: 'peliculas.csv', fila: 2, recurso: 'peliculas', campo: 'titulo', columna: 'Título', valor: 'zama', frase: 'Ya existe una película con el titulo de: zama, por favor, intente con otro distinto' },
        { archivo: 'peliculas.csv', fila: 3, recurso: 'peliculas', campo: 'titulo', columna: 'Título', valor: 'Nueve Reinas', frase: 'Ya existe una película con el titulo de: Nueve Reinas, por favor, intente con otro distinto' },
      ]);
      assert.deepEqual(await list(app, '/peliculas'), before);
    }));

  it('when a category is renamed in its sheet and the movies\' rows still name it as before, then the category is renamed and the movies stay in it', () =>
    withApp(async (app) => {
      const { drama } = await twoMovies(app);
      const before = await list(app, '/peliculas');
      const files = [
        ...csv('categorias.csv', ['Id;Nombre', `${drama.id};Drama social`]),
        { name: 'peliculas.csv', bytes: await exported(app, 'peliculas') },
      ];
      const res = await importar(app, '?existentes=actualizar', files);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json<Json>().recuentos, { categorias: { nuevos: 0, actualizados: 1, sin_cambios: 0 }, peliculas: { nuevos: 0, actualizados: 0, sin_cambios: 2 } });
      assert.deepEqual(await list(app, '/categorias'), [{ id: drama.id, nombre: 'Drama social' }]);
      assert.deepEqual(await list(app, '/peliculas'), before);
    }));

  it('when two rows carry the same Id, then the second is a problem naming the row of the first, and nothing is stored', () =>
    withApp(async (app) => {
      const { cienaga } = await twoMovies(app);
      const before = await list(app, '/peliculas');
      const res = await importar(app, '?existentes=actualizar', csv('peliculas.csv', [HEADER, `${cienaga.id};Una;S.;90;Drama`, `${cienaga.id};Otra;S.;90;Drama`]));
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json<Json>().problemas, [
        { archivo: 'peliculas.csv', fila: 3, recurso: 'peliculas', campo: 'id', columna: 'Id', valor: String(cienaga.id), frase: `Id ${cienaga.id} está repetido en la fila 2 de este archivo.` },
      ]);
      assert.deepEqual(await list(app, '/peliculas'), before);
    }));

  it('when a text differs from the stored one only in its line endings, then the row is unchanged; when another cell changed, the stored line endings are kept', () =>
    withApp(async (app) => {
      const { zama } = await twoMovies(app);
      const row = (sinopsis: string, duracion: number) => csv('peliculas.csv', [HEADER, `${zama.id};Zama;"${sinopsis}";${duracion};Drama`]);
      for (const sinopsis of ['Un funcionario espera.\nY espera.', 'Un funcionario espera.\rY espera.']) {
        const same = await importar(app, '?existentes=actualizar', row(sinopsis, 115));
        assert.equal(same.statusCode, 200, same.body);
        assert.deepEqual(same.json<Json>().recuentos, { peliculas: { nuevos: 0, actualizados: 0, sin_cambios: 1 } });
      }
      assert.deepEqual(await modifications(app), []);

      const longer = await importar(app, '?existentes=actualizar', row('Un funcionario espera.\nY espera.', 116));
      assert.deepEqual(longer.json<Json>().recuentos, { peliculas: { nuevos: 0, actualizados: 1, sin_cambios: 0 } });
      assert.deepEqual((await send(app, 'GET', '/peliculas/Zama')).json<Json>(), { ...zama, duracion: 116 });
      assert.deepEqual((await modifications(app)).map((c) => c.campos), [['duracion']]);
    }));

  it('when participations name their artist as the exports show it, by name alone or by DNI, and their kind by label or code, then each is stored; exported again, they read back unchanged', () =>
    withApp(async (app) => {
      const relatos = await createPelicula(app, { titulo: 'Relatos salvajes' });
      const hamlet = await createObra(app, { titulo: 'Hamlet' });
      const darin = await createArtista(app, { dni: 27444555, nombre: 'Ricardo', apellido: 'Darín' });
      const ana = await createArtista(app, { nombre: 'Ana', apellido: 'Pérez' });
      const file = csv('participaciones.csv', [
        'Id;Artista;Tipo de evento;Película, obra o evento',
        ';Ricardo Darín (DNI 27444555);Película;Relatos salvajes',
        ';ricardo darin;obra;Hamlet',
        `;${ana.dni};Obra;Hamlet`,
      ]);
      const res = await importar(app, '', file);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual((await list(app, '/participaciones')).map(({ artistas_dni, tipo_evento, evento_id }) => [artistas_dni, tipo_evento, evento_id]), [
        [darin.dni, 'pelicula', relatos.id],
        [darin.dni, 'obra', hamlet.id],
        [ana.dni, 'obra', hamlet.id],
      ]);

      const ids = (await list(app, '/participaciones')).map((p) => p.id);
      const shown = await exported(app, 'participaciones');
      assert.equal(shown, [
        '\uFEFFId;Artista;Tipo de evento;Película, obra o evento',
        `${ids[0]};Ricardo Darín (DNI 27444555);Película;Relatos salvajes`,
        `${ids[1]};Ricardo Darín (DNI 27444555);Obra;Hamlet`,
        `${ids[2]};Ana Pérez (DNI ${ana.dni});Obra;Hamlet`,
        '',
      ].join('\r\n'));
      const back = await importar(app, '?existentes=actualizar', [{ name: 'participaciones.csv', bytes: shown }]);
      assert.deepEqual(back.json<Json>().recuentos, { participaciones: { nuevos: 0, actualizados: 0, sin_cambios: 3 } });
    }));

  it('when an artist\'s name is another artist\'s too, or nobody\'s, then each is a problem naming row, column and value, and nothing is stored', () =>
    withApp(async (app) => {
      await createObra(app, { titulo: 'Hamlet' });
      const [first, second] = [await createArtista(app, { nombre: 'Ana', apellido: 'Pérez' }), await createArtista(app, { nombre: 'Ana', apellido: 'Perez' })];
      const res = await importar(app, '', csv('participaciones.csv', ['Artista;Tipo de evento;Película, obra o evento', 'Ana Pérez;Obra;Hamlet', 'Nadie Nunca;Obra;Hamlet']));
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json<Json>().problemas, [
        {
          archivo: 'participaciones.csv', fila: 2, recurso: 'participaciones', campo: 'artista', columna: 'Artista', valor: 'Ana Pérez',
          frase: `Hay más de un artista con el nombre: Ana Pérez (Ana Pérez (DNI ${first.dni}); Ana Perez (DNI ${second.dni})); escriba el que corresponde tal como se muestra.`,
        },
        { archivo: 'participaciones.csv', fila: 3, recurso: 'participaciones', campo: 'artista', columna: 'Artista', valor: 'Nadie Nunca', frase: 'No existe el artista con el nombre: Nadie Nunca.' },
      ]);
      assert.deepEqual(await list(app, '/participaciones'), []);
    }));
});
