// GET /cartelera.jsonld against schema.org's own vocabulary, offline: the answer, as served, is
// compiled as a value of schema-dts's `Graph` (the TypeScript types Google generates from
// schema.org's vocabulary file), so that a type, a property or an enumeration value schema.org
// does not have is a compile error naming it. What the answer holds is the same on both backends
// (test/api/cartelera.test.ts checks it field by field on each); this checks the format, once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import ts from 'typescript';
import { buildTestApp, createArtista, createEventoUrbano, createObra, createParticipacion, createPelicula, send, unique, type Json } from '../helpers.js';
import { upload } from '../api/uploads.js';

let app: FastifyInstance;
before(async () => {
  app = await buildTestApp({ TIMEZONE: 'Europe/Madrid', PUBLIC_URL: 'https://cartelera.example.org' });
});
after(() => app.close());

async function created(url: string, body: Json): Promise<Json & { id: number }> {
  const res = await send(app, 'POST', url, body);
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

/** The compiler's complaints about `source`, a module beside this file, type-checked strictly. */
function diagnostics(source: string): string[] {
  const file = new URL('./jsonLdAnswer.ts', import.meta.url).pathname;
  const options: ts.CompilerOptions = { strict: true, noEmit: true, skipLibCheck: true, types: [], target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => (name === file ? ts.createSourceFile(name, source, language) : read(name, language, ...rest));
  host.fileExists = ((exists) => (name: string) => name === file || exists(name))(host.fileExists.bind(host));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe("what's on as JSON-LD, against schema.org's vocabulary", () => {
  it('when every kind of node is answered (each item type, estado, venue with and without place, performers, images), then each type, property and value is in the vocabulary; a property it lacks would fail', async () => {
    const pelicula = await createPelicula(app, { duracion: 100 });
    const artista = await createArtista(app, { nombre: 'Ana', apellido: 'Pérez' });
    await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: pelicula.id });
    const afiche = await sharp({ create: { width: 64, height: 96, channels: 3, background: '#036' } }).jpeg().toBuffer();
    const image = await app.inject({ method: 'POST', url: '/imagenes', ...(await upload([{ name: 'afiche.jpg', bytes: afiche }], { recurso: 'peliculas', clave: pelicula.id, alt: 'Afiche' })) });
    assert.equal(image.statusCode, 201, image.body);
    const obra = await createObra(app);
    const evento = await createEventoUrbano(app);
    const sala = await created('/lugares', { nombre: unique('Sala'), direccion: 'Corrientes 1530', latitud: 40.4168, longitud: -3.7038, url: 'https://sala.example.org' });
    const plaza = await created('/lugares', { nombre: unique('Plaza'), direccion: 'Plaza Mayor' });
    const estados = ['programada', 'agotada', 'cancelada', 'aplazada'];
    for (const [i, [tipo_evento, evento_id]] of ([['pelicula', pelicula.id], ['obra', obra.id], ['eventoUrbano', evento.id]] as const).entries()) {
      for (const [j, estado] of estados.entries()) {
        await created('/funciones', { tipo_evento, evento_id, lugar_id: j % 2 === 0 ? sala.id : plaza.id, inicio: `2031-10-2${i}T2${j}:00`, estado, ...(j === 3 && { fin: `2031-10-2${i}T23:30` }) });
      }
    }
    const res = await send(app, 'GET', '/cartelera.jsonld?desde=2031-10-20&hasta=2031-10-22');
    assert.equal(res.statusCode, 200, res.body);
    const graph = res.json<{ '@graph': Json[] }>()['@graph'];
    assert.equal(graph.length, 12);
    for (const property of ['workPresented', 'performer', 'image', 'offers', 'endDate']) assert.ok(graph.some((n) => property in n), property);
    assert.ok(graph.some((n) => 'geo' in (n.location as Json)) && graph.some((n) => !('geo' in (n.location as Json))));
    const [first] = graph;
    const problems = diagnostics(`import type { Graph } from 'schema-dts';
export const answer: Graph = ${res.body};
// The control: a property schema.org does not have must be refused, or this expectation is an error itself.
// @ts-expect-error
export const control: Graph = { '@context': 'https://schema.org', '@graph': [{ ...${JSON.stringify(first)}, inicioDeFuncion: '2031-10-20T20:00' }] };
`);
    assert.deepEqual(problems, []);
  });
});
