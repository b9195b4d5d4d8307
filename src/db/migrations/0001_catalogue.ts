import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen with this migration: the helpers it used, as they were when it was written.
type DialectName = 'sqlite' | 'postgres';
const dialectOf = (db: Kysely<unknown>): DialectName => (db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');

/** A surrogate key that is never reused, even after the newest row is deleted. */
function identity(dialect: DialectName) {
  return (col: ColumnDefinitionBuilder) =>
    dialect === 'postgres'
      ? col.primaryKey().generatedByDefaultAsIdentity()
      : col.primaryKey().autoIncrement();
}

/** Event instants: a real timestamp on PostgreSQL; canonical UTC text, format-checked, on SQLite. */
function fechaColumn(dialect: DialectName) {
  return dialect === 'postgres'
    ? { type: 'timestamptz' as const, check: (col: ColumnDefinitionBuilder) => col.notNull() }
    : {
        type: 'text' as const,
        check: (col: ColumnDefinitionBuilder) =>
          col.notNull().check(sql`fecha GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9].[0-9][0-9][0-9]+00:00'`),
      };
}

// Field rules of the contract, repeated here as constraints so no writer can break them.
const text = (column: string, max: number) => (col: ColumnDefinitionBuilder) =>
  col.notNull().check(sql`length(${sql.ref(column)}) between 1 and ${sql.lit(max)}`);
const duracion = (col: ColumnDefinitionBuilder) =>
  col.notNull().check(sql`duracion between 1 and 100000`);
const categoria = (col: ColumnDefinitionBuilder) =>
  col.notNull().references('categorias.id').onDelete('restrict');
const itemOf = (tipo: string, table: string) => (col: ColumnDefinitionBuilder) =>
  col
    .generatedAlwaysAs(sql`case when tipo_evento = ${sql.lit(tipo)} then evento_id end`)
    .stored()
    .references(`${table}.id`)
    .onDelete('cascade');

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  const id = identity(dialect);
  const fecha = fechaColumn(dialect);

  await db.schema
    .createTable('categorias')
    .addColumn('id', 'integer', id)
    .addColumn('nombre', 'text', text('nombre', 255))
    .addColumn('nombre_clave', 'text', (col) => col.notNull().unique())
    .execute();

  await db.schema
    .createTable('peliculas')
    .addColumn('id', 'integer', id)
    .addColumn('titulo', 'text', text('titulo', 255))
    .addColumn('titulo_clave', 'text', (col) => col.notNull().unique())
    .addColumn('sipnosis', 'text', text('sipnosis', 5000))
    .addColumn('duracion', 'integer', duracion)
    .addColumn('categoria_id', 'integer', categoria)
    .execute();

  await db.schema
    .createTable('obras')
    .addColumn('id', 'integer', id)
    .addColumn('titulo', 'text', text('titulo', 255))
    .addColumn('titulo_clave', 'text', (col) => col.notNull().unique())
    .addColumn('descripcion', 'text', text('descripcion', 5000))
    .addColumn('duracion', 'integer', duracion)
    .addColumn('categoria_id', 'integer', categoria)
    .execute();

  await db.schema
    .createTable('eventos_urbanos')
    .addColumn('id', 'integer', id)
    .addColumn('titulo', 'text', text('titulo', 255))
    .addColumn('titulo_clave', 'text', (col) => col.notNull().unique())
    .addColumn('descripcion', 'text', text('descripcion', 5000))
    .addColumn('fecha', fecha.type, fecha.check)
    .addColumn('lugar', 'text', text('lugar', 255))
    .addColumn('categoria_id', 'integer', categoria)
    .execute();

  await db.schema
    .createTable('artistas')
    .addColumn('dni', 'bigint', (col) =>
      col.primaryKey().check(sql`dni between 1 and 9007199254740991`),
    )
    .addColumn('nombre', 'text', text('nombre', 255))
    .addColumn('apellido', 'text', text('apellido', 255))
    .addColumn('tipo', 'text', text('tipo', 255))
    .addColumn('descripcion', 'text', text('descripcion', 5000))
    .execute();

  // A participation names its item by (tipo_evento, evento_id). Each generated column holds
  // evento_id only for its own kind, and its foreign key makes the store itself refuse an item
  // that does not exist in that kind's table, and delete the participation with its item.
  await db.schema
    .createTable('participaciones')
    .addColumn('id', 'integer', id)
    .addColumn('artistas_dni', 'bigint', (col) =>
      col.notNull().references('artistas.dni').onDelete('cascade'),
    )
    .addColumn('tipo_evento', 'text', (col) =>
      col.notNull().check(sql`tipo_evento in ('pelicula', 'obra', 'eventoUrbano')`),
    )
    .addColumn('evento_id', 'integer', (col) => col.notNull())
    .addColumn('pelicula_id', 'integer', itemOf('pelicula', 'peliculas'))
    .addColumn('obra_id', 'integer', itemOf('obra', 'obras'))
    .addColumn('evento_urbano_id', 'integer', itemOf('eventoUrbano', 'eventos_urbanos'))
    .addUniqueConstraint('participaciones_unica', ['artistas_dni', 'tipo_evento', 'evento_id'])
    .execute();

  // Indexes for the foreign keys (restrict checks, cascades) and the lookup by kind.
  const indexes: [string, string, string[]][] = [
    ['peliculas_categoria', 'peliculas', ['categoria_id']],
    ['obras_categoria', 'obras', ['categoria_id']],
    ['eventos_urbanos_categoria', 'eventos_urbanos', ['categoria_id']],
    ['participaciones_tipo', 'participaciones', ['tipo_evento', 'id']],
    ['participaciones_pelicula', 'participaciones', ['pelicula_id']],
    ['participaciones_obra', 'participaciones', ['obra_id']],
    ['participaciones_evento_urbano', 'participaciones', ['evento_urbano_id']],
  ];
  for (const [name, table, columns] of indexes) {
    await db.schema.createIndex(name).on(table).columns(columns).execute();
  }
}
