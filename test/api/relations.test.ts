import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { comparable } from '../../src/catalogue/comparable.js';
import type { TipoEvento } from '../../src/catalogue/fields.js';
import type { Db } from '../../src/db/schema.js';
import { artistas } from '../../src/resources/artistas.js';
import { eventosUrbanos } from '../../src/resources/eventosUrbanos.js';
import { obras } from '../../src/resources/obras.js';
import { participaciones } from '../../src/resources/participaciones.js';
import { peliculas } from '../../src/resources/peliculas.js';
import { relationsOf, type Relation } from '../../src/resources/relations.js';
import {
  assertError, buildTestApp, createArtista, createCategoria, createEventoUrbano, createObra, createParticipacion,
  createPelicula, send, type Json,
} from '../helpers.js';
import { migratedStore, type MigratedStore } from '../stores.js';

// _expand and _embed: related records attached to lists and lookups, never with internal columns.

const FIELDS = {
  categoria: ['id', 'nombre'],
  pelicula: ['categoria_id', 'duracion', 'id', 'sipnosis', 'titulo'],
  obra: ['categoria_id', 'descripcion', 'duracion', 'id', 'titulo'],
  eventoUrbano: ['categoria_id', 'descripcion', 'fecha', 'id', 'lugar', 'titulo'],
  artista: ['apellido', 'descripcion', 'dni', 'nombre', 'tipo'],
  participacion: ['artistas_dni', 'evento_id', 'id', 'tipo_evento'],
};
const keysOf = (value: unknown) => Object.keys(value as Json).sort();

/** Every key, at any depth, that only the store should know: `<field>_clave` and the generated item ids. */
function internalKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(internalKeys);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(/_clave$/.test(k) || ['pelicula_id', 'obra_id', 'evento_urbano_id'].includes(k) ? [k] : []),
    ...internalKeys(v),
  ]);
}

async function get<T = unknown>(app: FastifyInstance, url: string): Promise<T> {
  const res = await send(app, 'GET', url);
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
  const body = res.json<T>();
  assert.deepEqual(internalKeys(body), [], `${url} answers no internal column`);
  return body;
}

const byTitle = (path: string, record: Json) => `${path}/${encodeURIComponent(String(record.titulo))}`;

interface ItemCase {
  path: string;
  tipo: TipoEvento;
  create(app: FastifyInstance, o?: Json): Promise<Json>;
}
const ITEMS: ItemCase[] = [
  { path: '/peliculas', tipo: 'pelicula', create: createPelicula },
  { path: '/Obras', tipo: 'obra', create: createObra },
  { path: '/eventosUrbanos', tipo: 'eventoUrbano', create: createEventoUrbano },
];

describe('relations over HTTP', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  for (const { path, tipo, create } of ITEMS) {
    it(`when ${path} is listed with _expand=categoria, then each record carries its category {id, nombre}`, async () => {
      const categoria = await createCategoria(app);
      const items = [await create(app, { categoria_id: categoria.id }), await create(app, { categoria_id: categoria.id })];
      const body = await get<Json[]>(app, `${path}?categoria_id=${categoria.id}&_expand=categoria`);
      assert.deepEqual(body, items.map((item) => ({ ...item, categoria })));
      for (const record of body) {
        assert.deepEqual(keysOf(record), [...FIELDS[tipo], 'categoria'].sort());
        assert.deepEqual(keysOf(record.categoria), FIELDS.categoria);
      }
    });

    it(`when a record of ${path} is looked up with _expand=categoria, then it carries its category`, async () => {
      const item = await create(app);
      const categoria = (await get<Json[]>(app, `/categorias?id=${item.categoria_id}`))[0];
      const body = await get<Json>(app, `${byTitle(path, item)}?_expand=categoria`);
      assert.deepEqual(body, { ...item, categoria });
      assert.deepEqual(keysOf(body.categoria), FIELDS.categoria);
    });

    it(`when ${path} is listed with _embed=participaciones, then each record carries its participations, each with its artist`, async () => {
      const [first, second] = [await createArtista(app), await createArtista(app)];
      const item = await create(app);
      const alone = await create(app);
      const own = [
        await createParticipacion(app, { artistas_dni: first.dni, tipo_evento: tipo, evento_id: item.id }),
        await createParticipacion(app, { artistas_dni: second.dni, tipo_evento: tipo, evento_id: item.id }),
      ];
      const body = await get<Json[]>(app, `${path}?id=${item.id}&id=${alone.id}&_embed=participaciones`);
      assert.deepEqual(body, [
        { ...item, participaciones: [{ ...own[0], artista: first }, { ...own[1], artista: second }] },
        { ...alone, participaciones: [] },
      ]);
      for (const p of body[0]?.participaciones as Json[]) {
        assert.deepEqual(keysOf(p), [...FIELDS.participacion, 'artista'].sort());
        assert.deepEqual(keysOf(p.artista), FIELDS.artista);
      }
    });

    it(`when a record of ${path} is looked up with _embed=participaciones, then it carries its participations with their artists`, async () => {
      const artista = await createArtista(app);
      const item = await create(app);
      const participacion = await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: tipo, evento_id: item.id });
      const body = await get<Json>(app, `${byTitle(path, item)}?_embed=participaciones`);
      assert.deepEqual(body, { ...item, participaciones: [{ ...participacion, artista }] });
    });
  }

  it('when a movie is looked up with _expand=categoria and _embed=participaciones, then it carries both', async () => {
    const pelicula = await createPelicula(app);
    const categoria = (await get<Json[]>(app, `/categorias?id=${pelicula.categoria_id}`))[0];
    const participacion = await createParticipacion(app, { evento_id: pelicula.id });
    const artista = await get<Json>(app, `/artistas/${participacion.artistas_dni}`);
    const body = await get<Json>(app, `${byTitle('/peliculas', pelicula)}?_expand=categoria&_embed=participaciones`);
    assert.deepEqual(body, { ...pelicula, categoria, participaciones: [{ ...participacion, artista }] });
  });

  /** An artist with one participation in a movie, a work and an urban event. */
  async function artistInEveryKind() {
    const artista = await createArtista(app);
    const pelicula = await createPelicula(app);
    const obra = await createObra(app);
    const evento = await createEventoUrbano(app);
    const enPelicula = await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: pelicula.id });
    const enObra = await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'obra', evento_id: obra.id });
    const enEvento = await createParticipacion(app, { artistas_dni: artista.dni, tipo_evento: 'eventoUrbano', evento_id: evento.id });
    return { artista, pelicula, obra, evento, enPelicula, enObra, enEvento };
  }

  it('when participations are listed with _expand=artista,evento, then each carries its artist and the item of its own kind', async () => {
    const { artista, pelicula, obra, evento, enPelicula, enObra, enEvento } = await artistInEveryKind();
    const expected = [
      { ...enPelicula, artista, evento: pelicula },
      { ...enObra, artista, evento: obra },
      { ...enEvento, artista, evento },
    ];
    for (const url of [
      `/participaciones?artistas_dni=${artista.dni}&_expand=artista,evento`,
      `/participaciones?artistas_dni=${artista.dni}&_expand=artista&_expand=evento`,
    ]) {
      const body = await get<Json[]>(app, url);
      assert.deepEqual(body, expected, url);
      const [p, o, e] = body;
      assert.deepEqual(keysOf(p?.evento), FIELDS.pelicula);
      assert.deepEqual(keysOf(o?.evento), FIELDS.obra);
      assert.deepEqual(keysOf(e?.evento), FIELDS.eventoUrbano);
      for (const record of body) {
        assert.deepEqual(keysOf(record), [...FIELDS.participacion, 'artista', 'evento'].sort());
        assert.deepEqual(keysOf(record.artista), FIELDS.artista);
      }
    }
  });

  it('when participations are listed with only _expand=evento, then they carry the item and no artist', async () => {
    const { artista, obra, enObra } = await artistInEveryKind();
    const body = await get<Json[]>(app, `/participaciones?artistas_dni=${artista.dni}&tipo_evento=obra&_expand=evento`);
    assert.deepEqual(body, [{ ...enObra, evento: obra }]);
  });

  it('when a participation is looked up by kind with _expand=artista,evento, then the same record as without, plus its artist and item', async () => {
    await artistInEveryKind();
    for (const [tipo, path] of [['pelicula', '/peliculas'], ['obra', '/Obras'], ['eventoUrbano', '/eventosUrbanos']]) {
      const plain = await get<Json>(app, `/participaciones/${tipo}`);
      const artista = await get<Json>(app, `/artistas/${plain.artistas_dni}`);
      const [evento] = await get<Json[]>(app, `${path}?id=${plain.evento_id}`);
      const body = await get<Json>(app, `/participaciones/${tipo}?_expand=artista,evento`);
      assert.deepEqual(body, { ...plain, artista, evento }, String(tipo));
    }
  });

  it('when artists are listed with _embed=participaciones, then each carries its participations, each with its item', async () => {
    const { artista, pelicula, obra, evento, enPelicula, enObra, enEvento } = await artistInEveryKind();
    const sinPapeles = await createArtista(app);
    const body = await get<Json[]>(app, `/artistas?dni=${artista.dni}&dni=${sinPapeles.dni}&_embed=participaciones`);
    assert.deepEqual(body, [
      {
        ...artista,
        participaciones: [{ ...enPelicula, evento: pelicula }, { ...enObra, evento: obra }, { ...enEvento, evento }],
      },
      { ...sinPapeles, participaciones: [] },
    ]);
    assert.deepEqual(keysOf(body[0]), [...FIELDS.artista, 'participaciones'].sort());
    for (const p of body[0]?.participaciones as Json[]) assert.deepEqual(keysOf(p), [...FIELDS.participacion, 'evento'].sort());
  });

  it('when an artist is looked up with _embed=participaciones, then it carries its participations with their items', async () => {
    const { artista, pelicula, obra, evento, enPelicula, enObra, enEvento } = await artistInEveryKind();
    const body = await get<Json>(app, `/artistas/${artista.dni}?_embed=participaciones`);
    assert.deepEqual(body, {
      ...artista,
      participaciones: [{ ...enPelicula, evento: pelicula }, { ...enObra, evento: obra }, { ...enEvento, evento }],
    });
  });

  it('when a movie and a work share an id number, then each embeds only its own participations, and each participation its own item', async () => {
    let pelicula = await createPelicula(app);
    let obra = await createObra(app);
    while (pelicula.id !== obra.id) {
      if (pelicula.id < obra.id) pelicula = await createPelicula(app);
      else obra = await createObra(app);
    }
    const [actor, actriz] = [await createArtista(app), await createArtista(app)];
    const enPelicula = await createParticipacion(app, { artistas_dni: actor.dni, tipo_evento: 'pelicula', evento_id: pelicula.id });
    const enObra = await createParticipacion(app, { artistas_dni: actriz.dni, tipo_evento: 'obra', evento_id: obra.id });

    assert.deepEqual(await get(app, `${byTitle('/peliculas', pelicula)}?_embed=participaciones`), {
      ...pelicula, participaciones: [{ ...enPelicula, artista: actor }],
    });
    assert.deepEqual(await get(app, `/Obras?id=${obra.id}&_embed=participaciones`), [
      { ...obra, participaciones: [{ ...enObra, artista: actriz }] },
    ]);
    assert.deepEqual(await get(app, `/participaciones?id=${enPelicula.id}&id=${enObra.id}&_expand=evento`), [
      { ...enPelicula, evento: pelicula },
      { ...enObra, evento: obra },
    ]);
    assert.deepEqual(await get(app, `/artistas/${actriz.dni}?_embed=participaciones`), {
      ...actriz, participaciones: [{ ...enObra, evento: obra }],
    });
  });

  it('when _expand or _embed names an unknown relation, then 400 listing the ones the route admits', async () => {
    const artista = await createArtista(app);
    const cases: [string, string, string][] = [
      ['/peliculas', '_expand=nada', "El parámetro '_expand' no admite 'nada' (admite: categoria)."],
      ['/peliculas', '_expand=participaciones', "El parámetro '_expand' no admite 'participaciones' (admite: categoria)."],
      ['/Obras', '_embed=nada', "El parámetro '_embed' no admite 'nada' (admite: participaciones, imagenes)."],
      ['/participaciones', '_expand=artista,nada', "El parámetro '_expand' no admite 'nada' (admite: artista, evento)."],
      ['/participaciones', '_expand=artista&_expand=nada', "El parámetro '_expand' no admite 'nada' (admite: artista, evento)."],
      [`/artistas/${artista.dni}`, '_embed=nada', "El parámetro '_embed' no admite 'nada' (admite: participaciones, imagenes)."],
    ];
    for (const [path, query, details] of cases) {
      assertError(await send(app, 'GET', `${path}?${query}`), 400, { details, moreInfo: `No se pudo completar la consulta en: ${path}` });
    }
  });

  it('when _expand or _embed is used on a list that has no such relations, then 400 saying the route does not admit it', async () => {
    const cases: [string, string][] = [
      ['/categorias', '_expand'],
      ['/categorias', '_embed'],
      ['/artistas', '_expand'],
      ['/participaciones', '_embed'],
    ];
    for (const [path, param] of cases) {
      assertError(await send(app, 'GET', `${path}?${param}=categoria`), 400, {
        details: `El parámetro '${param}' no se admite en esta ruta.`,
        moreInfo: `No se pudo completar la consulta en: ${path}`,
      });
    }
  });

  it('when _expand or _embed is used on a lookup that has no such relations, then 400 saying the route does not admit it', async () => {
    const categoria = await createCategoria(app);
    const artista = await createArtista(app);
    await createParticipacion(app, { artistas_dni: artista.dni });
    const cases: [string, string][] = [
      [`/categorias/${encodeURIComponent(categoria.nombre)}`, '_expand'],
      [`/artistas/${artista.dni}`, '_expand'],
      ['/participaciones/pelicula', '_embed'],
    ];
    for (const [path, param] of cases) {
      const res: LightMyRequestResponse = await send(app, 'GET', `${path}?${param}=categoria`);
      assertError(res, 400, {
        details: `El parámetro '${param}' no se admite en esta ruta.`,
        moreInfo: `No se pudo completar la consulta en: ${path}`,
      });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// No N+1: each loader is called on 1 row and on 30 rows, through a Db that counts the statements.

type Row = Record<string, unknown>;

/** The same store, through a Kysely instance that counts every statement it executes. */
function counting(db: Db) {
  let count = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      count++;
      return args.result;
    },
  };
  return {
    db: db.withPlugin(plugin),
    /** Statements run by `load`. */
    async queries(load: (db: Db) => Promise<void>): Promise<number> {
      count = 0;
      await load(this.db);
      return count;
    },
  };
}

const ROWS = 30;
/** More statements than this for one call would already mean per-row work on a few rows. */
const MOST = 4;

describe('relation loaders: a bounded number of statements whatever the row count', () => {
  let store: MigratedStore;
  let db: Db;
  let counted: ReturnType<typeof counting>;
  let n = 0;
  before(async () => {
    store = await migratedStore();
    db = store.db;
    counted = counting(db);
  });
  after(() => store.drop());

  // Rows written straight into the store; every test writes its own.
  const insertCategoria = () => {
    const nombre = `Categoría ${++n}`;
    return db.insertInto('categorias').values({ nombre, nombre_clave: comparable(nombre) }).returningAll().executeTakeFirstOrThrow();
  };
  const insertItem = async (tipo: TipoEvento): Promise<number> => {
    const categoria_id = (await insertCategoria()).id;
    const titulo = `Título ${++n}`;
    if (tipo === 'pelicula') {
      const row = { titulo, titulo_clave: comparable(titulo), sipnosis: 'Una historia.', sipnosis_clave: 'una historia.', duracion: 100, categoria_id };
      return (await db.insertInto('peliculas').values(row).returning('id').executeTakeFirstOrThrow()).id;
    }
    if (tipo === 'obra') {
      const row = { titulo, titulo_clave: comparable(titulo), descripcion: 'Una obra.', descripcion_clave: 'una obra.', duracion: 90, categoria_id };
      return (await db.insertInto('obras').values(row).returning('id').executeTakeFirstOrThrow()).id;
    }
    const row = {
      titulo, titulo_clave: comparable(titulo), descripcion: 'Un evento.', descripcion_clave: 'un evento.',
      fecha: '2025-10-10T00:00:00.000+00:00', lugar: 'Plaza Mayor', lugar_clave: 'plaza mayor', categoria_id,
    };
    return (await db.insertInto('eventos_urbanos').values(row).returning('id').executeTakeFirstOrThrow()).id;
  };
  const insertArtista = async (): Promise<number> => {
    const row = {
      dni: 50000000 + ++n, nombre: 'Ana', nombre_clave: 'ana', apellido: 'Pérez', apellido_clave: 'perez',
      tipo: 'actriz', tipo_clave: 'actriz', descripcion: 'Actriz.', descripcion_clave: 'actriz.',
    };
    return (await db.insertInto('artistas').values(row).returning('dni').executeTakeFirstOrThrow()).dni;
  };
  const insertParticipacion = async (artistas_dni: number, tipo_evento: TipoEvento, evento_id: number): Promise<number> =>
    (await db.insertInto('participaciones').values({ artistas_dni, tipo_evento, evento_id }).returning('id').executeTakeFirstOrThrow()).id;

  const itemTables = { pelicula: 'peliculas', obra: 'obras', eventoUrbano: 'eventos_urbanos' } as const;
  const itemRows = async (tipo: TipoEvento, ids: number[]): Promise<Row[]> =>
    db.selectFrom(itemTables[tipo]).selectAll().where('id', 'in', ids).orderBy('id').execute();
  const artistRows = (dnis: number[]): Promise<Row[]> => db.selectFrom('artistas').selectAll().where('dni', 'in', dnis).orderBy('dni').execute();
  const participationRows = (ids: number[]): Promise<Row[]> =>
    db.selectFrom('participaciones').selectAll().where('id', 'in', ids).orderBy('id').execute();

  /** Statements for attaching to the first row alone and to all rows: equal, and few. */
  async function assertBounded(relation: Relation | undefined, rows: () => Promise<Row[]>, name: string): Promise<Row[]> {
    assert.ok(relation, `relation ${name}`);
    const one = (await rows()).slice(0, 1);
    const all = await rows();
    assert.ok(all.length >= ROWS);
    const forOne = await counted.queries((cdb) => relation.attach(cdb, one, name));
    const forAll = await counted.queries((cdb) => relation.attach(cdb, all, name));
    assert.equal(forAll, forOne, `statements for ${all.length} rows vs 1 row`);
    assert.ok(forAll >= 1 && forAll <= MOST, `${forAll} statements`);
    return all;
  }

  it('when categories are expanded on 1 movie and on 30, then the same number of statements, and each movie gets its own', async () => {
    const ids: number[] = [];
    for (let i = 0; i < ROWS; i++) ids.push(await insertItem('pelicula'));
    const rows = await assertBounded(relationsOf(peliculas).expand.categoria, () => itemRows('pelicula', ids), 'categoria');
    for (const row of rows) assert.equal((row.categoria as Row).id, row.categoria_id);
  });

  for (const [resource, tipo] of [[peliculas, 'pelicula'], [obras, 'obra'], [eventosUrbanos, 'eventoUrbano']] as const) {
    it(`when participations are embedded in 1 record of ${resource.path} and in 30, then the same number of statements, and each gets its own with its artist`, async () => {
      const ids: number[] = [];
      const byItem = new Map<number, { id: number; dni: number }>();
      for (let i = 0; i < ROWS; i++) {
        const id = await insertItem(tipo);
        const dni = await insertArtista();
        byItem.set(id, { id: await insertParticipacion(dni, tipo, id), dni });
        ids.push(id);
      }
      const rows = await assertBounded(relationsOf(resource).embed.participaciones, () => itemRows(tipo, ids), 'participaciones');
      for (const row of rows) {
        const [p, ...rest] = row.participaciones as Row[];
        assert.deepEqual(rest, []);
        assert.equal(p?.id, byItem.get(Number(row.id))?.id);
        assert.equal((p?.artista as Row).dni, byItem.get(Number(row.id))?.dni);
      }
    });
  }

  it('when participations are embedded in 1 artist and in 30, each in every kind, then the same number of statements, each with its item', async () => {
    const dnis: number[] = [];
    for (let i = 0; i < ROWS; i++) {
      const dni = await insertArtista();
      for (const tipo of ['pelicula', 'obra', 'eventoUrbano'] as const) await insertParticipacion(dni, tipo, await insertItem(tipo));
      dnis.push(dni);
    }
    const rows = await assertBounded(relationsOf(artistas).embed.participaciones, () => artistRows(dnis), 'participaciones');
    for (const row of rows) {
      const career = row.participaciones as Row[];
      assert.deepEqual(career.map((p) => p.tipo_evento), ['pelicula', 'obra', 'eventoUrbano']);
      for (const p of career) {
        assert.equal(p.artistas_dni, row.dni);
        assert.equal((p.evento as Row).id, p.evento_id);
      }
    }
  });

  it('when artists are expanded on 1 participation and on 30, then the same number of statements', async () => {
    const ids: number[] = [];
    for (let i = 0; i < ROWS; i++) ids.push(await insertParticipacion(await insertArtista(), 'pelicula', await insertItem('pelicula')));
    const rows = await assertBounded(relationsOf(participaciones).expand.artista, () => participationRows(ids), 'artista');
    for (const row of rows) assert.equal((row.artista as Row).dni, row.artistas_dni);
  });

  it('when items are expanded on participations of one kind, 1 and 30 of them, then the same number of statements', async () => {
    const ids: number[] = [];
    for (let i = 0; i < ROWS; i++) ids.push(await insertParticipacion(await insertArtista(), 'obra', await insertItem('obra')));
    const rows = await assertBounded(relationsOf(participaciones).expand.evento, () => participationRows(ids), 'evento');
    for (const row of rows) assert.equal((row.evento as Row).id, row.evento_id);
  });

  it('when items are expanded on 3 participations (one per kind) and on 30 of every kind, then the same number of statements', async () => {
    const ids: number[] = [];
    const kinds = ['pelicula', 'obra', 'eventoUrbano'] as const;
    for (let i = 0; i < ROWS; i++) {
      const tipo = kinds[i % 3] ?? 'pelicula';
      ids.push(await insertParticipacion(await insertArtista(), tipo, await insertItem(tipo)));
    }
    const relation = relationsOf(participaciones).expand.evento;
    assert.ok(relation);
    const three = await participationRows(ids.slice(0, 3));
    const all = await participationRows(ids);
    const forThree = await counted.queries((cdb) => relation.attach(cdb, three, 'evento'));
    const forAll = await counted.queries((cdb) => relation.attach(cdb, all, 'evento'));
    assert.equal(forAll, forThree);
    assert.ok(forAll <= 3, `${forAll} statements: at most one per kind`);
    for (const row of all) {
      const evento = row.evento as Row;
      assert.equal(evento.id, row.evento_id);
      // The item of the participation's own kind: only movies have a sipnosis, only events a lugar.
      assert.equal('sipnosis' in evento, row.tipo_evento === 'pelicula');
      assert.equal('lugar' in evento, row.tipo_evento === 'eventoUrbano');
    }
  });
});
