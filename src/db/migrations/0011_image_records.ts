import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen with this migration: the helpers and names it used, as they were when it was written.
const isPostgres = (db: Kysely<unknown>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;
/** Each resource with images: its name as `imagenes.recurso` holds it, its table and its key. */
const RECORDS = [
  { recurso: 'peliculas', table: 'peliculas', key: 'id' },
  { recurso: 'Obras', table: 'obras', key: 'id' },
  { recurso: 'eventosUrbanos', table: 'eventos_urbanos', key: 'id' },
  { recurso: 'artistas', table: 'artistas', key: 'dni' },
  { recurso: 'lugares', table: 'lugares', key: 'id' },
] as const;
/** What SQLite's refusal says: errors.ts takes a trigger failure naming FOREIGN KEY for a foreign key. */
const REFUSAL = 'FOREIGN KEY constraint failed: imagenes (recurso, clave)';

/**
 * An image belongs to a record: `(recurso, clave)` names a record of a resource with images, the
 * database's own foreign key in all but name (no foreign key can name a row of one of several
 * tables, so triggers hold it). An image that names no record is refused, a record's deletion takes
 * its images (the store deletes and logs them first; this holds for any other delete), and a
 * record's key does not change while it has images. PostgreSQL locks the record as a foreign key
 * would (`for key share`), so that a delete running beside an image's insert cannot leave an orphan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    const exists = sql.join(
      RECORDS.map(({ recurso, table, key }) =>
        sql.raw(`when '${recurso}' then exists (select from ${table} where ${key} = new.clave for key share)`)),
      sql.raw(' '),
    );
    await sql`create function cartelera_imagen_registro() returns trigger language plpgsql as $$
      begin
        if not coalesce(case new.recurso ${exists} end, false) then
          raise exception using errcode = 'foreign_key_violation', message = ${sql.lit(REFUSAL)},
            detail = format('(recurso, clave)=(%s, %s) no existe', new.recurso, new.clave);
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger imagenes_registro before insert or update of recurso, clave on imagenes
      for each row execute function cartelera_imagen_registro()`.execute(db);
    for (const { recurso, table, key } of RECORDS) {
      await sql`create function ${sql.id(`cartelera_${table}_imagenes`)}() returns trigger language plpgsql as $$
        begin delete from imagenes where recurso = ${sql.lit(recurso)} and clave in (select ${sql.id(key)} from borradas); return null; end $$`.execute(db);
      await sql`create trigger ${sql.id(`${table}_imagenes`)} after delete on ${sql.table(table)}
        referencing old table as borradas for each statement execute function ${sql.id(`cartelera_${table}_imagenes`)}()`.execute(db);
      await sql`create function ${sql.id(`cartelera_${table}_clave_imagenes`)}() returns trigger language plpgsql as $$
        begin
          if exists (select from imagenes where recurso = ${sql.lit(recurso)} and clave = old.${sql.id(key)}) then
            raise exception using errcode = 'foreign_key_violation', message = ${sql.lit(REFUSAL)};
          end if;
          return new;
        end $$`.execute(db);
      await sql`create trigger ${sql.id(`${table}_clave_imagenes`)} before update of ${sql.id(key)} on ${sql.table(table)}
        for each row when (old.${sql.id(key)} is distinct from new.${sql.id(key)}) execute function ${sql.id(`cartelera_${table}_clave_imagenes`)}()`.execute(db);
    }
    return;
  }
  const exists = sql.join(
    RECORDS.map(({ recurso, table, key }) => sql.raw(`when '${recurso}' then exists (select 1 from ${table} where ${key} = new.clave)`)),
    sql.raw(' '),
  );
  const refuse = sql`begin select raise(abort, ${sql.lit(REFUSAL)}); end`;
  await sql`create trigger imagenes_registro_insert before insert on imagenes
    when not coalesce(case new.recurso ${exists} end, 0) ${refuse}`.execute(db);
  await sql`create trigger imagenes_registro_update before update of recurso, clave on imagenes
    when not coalesce(case new.recurso ${exists} end, 0) ${refuse}`.execute(db);
  for (const { recurso, table, key } of RECORDS) {
    await sql`create trigger ${sql.id(`${table}_imagenes`)} after delete on ${sql.table(table)}
      begin delete from imagenes where recurso = ${sql.lit(recurso)} and clave = old.${sql.id(key)}; end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_clave_imagenes`)} before update of ${sql.id(key)} on ${sql.table(table)}
      when old.${sql.id(key)} <> new.${sql.id(key)} and exists (select 1 from imagenes where recurso = ${sql.lit(recurso)} and clave = old.${sql.id(key)})
      ${refuse}`.execute(db);
  }
}
