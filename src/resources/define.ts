import { Type, type Static, type TObject, type TProperties, type TSchema } from 'typebox';
import type { Insertable } from 'kysely';
import type { Nouns } from '../catalogue/messages.js';
import type { FieldKind } from '../db/listing.js';
import type { Database, Db } from '../db/schema.js';
import { withComparables } from '../catalogue/comparable.js';
import { Refusal, type Problem } from '../catalogue/refusal.js';
import { insertManyReturning, type AnsweredColumn } from '../db/prepared.js';

/** The explicit queries of one resource; each resource writes its own SQL. */
export interface Queries<Item, Create, Fields, Lookup> {
  /** The record the interface's lookup path names (`GET /peliculas/{titulo}`). */
  find(lookup: Lookup): Promise<Item | undefined>;
  /** The record with this key. */
  get(key: number): Promise<Item | undefined>;
  /** Stores a new record; with its key when the record carries one (a restore). */
  create(input: Create): Promise<Item>;
  update(key: number, fields: Fields): Promise<Item | undefined>;
  /** False when there was nothing to delete. */
  remove(key: number): Promise<boolean>;
  /** After the store refused a delete for a foreign key: why the record is still needed. */
  stillUsed?(key: number): Promise<string>;
}

/** A field that names a record of another resource. */
export interface Reference {
  /** The resource it names a record of (a participation's tipo_evento says which, for evento_id). */
  to(record: Record<string, unknown>): AnyResource | undefined;
  /** The field an import may name that record by instead, with its lookup value (`"categoria": "Drama"`). */
  byLookup?: string;
}

/** The comparable columns (`<field>_clave`) of a table, which every write of it must fill. */
type ComparableColumns<T extends keyof Database> = Pick<Database[T], Extract<keyof Database[T], `${string}_clave`>>;

export interface ResourceDefinition<T extends keyof Database, K extends string, F extends TProperties, L extends TSchema, ClientKey extends boolean> {
  /** The name the interface gives it, exactly as its path spells it: `peliculas`, `Obras`. */
  name: string;
  /** The record's English name, for the API description: "movie". */
  english: string;
  /** The table its records live in. */
  table: T;
  nouns: Nouns;
  /** The record's key: its name and type, and whether clients choose it (an artist's dni). */
  key: { name: K; schema: TSchema; chosenByClient: ClientKey };
  /** Every other field, each declared once. */
  fields: F;
  /** The path parameter of `GET /{name}/{param}`. */
  lookup: { param: string; schema: L };
  /** A record as answered, for the API description. */
  example: Record<K, number> & Static<TObject<F>>;
  /** The interface's path that reads a stored record back (a 201's Location). */
  location(item: Record<K, number> & Static<TObject<F>>): string;
  /** Where its records are, for near and within (`cerca`, `bbox`): their own `latitud`/`longitud`, or their venue's (`lugar_id`). */
  coordinates?: 'own' | 'venue';
  /** Fields that name records of other resources (the store holds them to it by foreign keys). */
  references?: Record<string, Reference>;
  /** The fields no two records may share all of (titles and names compared by their comparable form). */
  unique: readonly NoInfer<K | (keyof F & string)>[];
  /**
   * What people call a record where its unique value is no name (an artist's dni): the form a
   * sheet shows first, then others an import also takes.
   */
  knownAs?: (record: Record<string, unknown>) => string[];
  /**
   * Rules that tie fields together (coordinates both or neither, an end after the start), judged on
   * the whole record a write would store: one sentence per problem, none when it holds.
   */
  rules?: (record: Static<TObject<F>>) => Problem[];
  /** Whether its records have images (`/imagenes`, `?_embed=imagenes`): the one line that gives a resource pictures. */
  images?: true;
  /** Fields answered but never taken from a client: what the service works out itself (an image's size). */
  readOnly?: readonly (keyof F & string)[];
  /**
   * The field in which an export carries a record's file (its bytes in base64) and an import reads
   * it back: an image's original, `archivo_base64`. Spreadsheets list the other fields without it.
   */
  file?: string;
  /** Its queries; what they are given to store carries every comparable column, filled from the text fields (see defineResource). */
  queries(db: Db): Queries<
    Record<K, number> & Static<TObject<F>>,
    // A client-chosen key always comes with the record; a service-assigned one only in a restore.
    (ClientKey extends true ? Record<K, number> & Static<TObject<F>> : Static<TObject<F>> & Partial<Record<K, number>>) & ComparableColumns<T>,
    Static<TObject<F>> & ComparableColumns<T>,
    Static<L>
  >;
}

/** A resource: what its file declares, and what follows from it. */
export interface Resource<
  T extends keyof Database = keyof Database,
  K extends string = string,
  F extends TProperties = TProperties,
  L extends TSchema = TSchema,
  ClientKey extends boolean = boolean,
> extends Omit<ResourceDefinition<T, K, F, L, ClientKey>, 'queries' | 'rules'> {
  /** Base path, exactly as the interface spells it: `/Obras`. */
  path: string;
  schemas: {
    /** A record as answered. */
    item: TObject;
    /** A new record as sent: with its key when clients choose it. */
    create: TObject;
    /** A whole record replacing another (PUT): the key may repeat the path's. */
    update: TObject;
    /** Some fields (PATCH). */
    patch: TObject;
    /** A record as imported: its key may come with it (a restore). */
    restore: TObject;
  };
  /** The fields besides the key, in the interface's order. */
  fieldNames: string[];
  /** Each field's kind, for filters and sorting. */
  kinds: Record<string, FieldKind>;
  /** The text fields: each has a comparable column, `<field>_clave`, that search, sorting and uniqueness compare. */
  textFields: string[];
  /** The queries, given records as the API has them: the comparable columns are filled here. */
  queries(db: Db): Queries<
    Record<K, number> & Static<TObject<F>>,
    ClientKey extends true ? Record<K, number> & Static<TObject<F>> : Static<TObject<F>> & Partial<Record<K, number>>,
    Static<TObject<F>>,
    Static<L>
  >;
  /**
   * Stores many new records (an import), many a statement, in transaction `db`; answers them as
   * stored, in no particular order. The store refuses them all if it refuses one.
   */
  createMany(db: Db, inputs: Record<string, unknown>[]): Promise<Record<string, unknown>[]>;
  /** The columns a new record is stored as (its defaults, booleans as 0 and 1, its comparable columns): what queries.create is given. */
  newRow(record: Record<string, unknown>): Record<string, unknown>;
  /** The columns an update of `fields` sets (booleans as 0 and 1, the comparable columns of its text fields): what queries.update is given. */
  updatedColumns(fields: Record<string, unknown>): Record<string, unknown>;
  /** The record exactly as the API answers it: its ETag and every export are computed from this. */
  representation(record: Record<string, unknown>): string;
  /**
   * The record's fields as PostgreSQL writes them in its answer (db/prepared.ts, replaceLogged), the
   * key first: given when every field is an integer or text, none has a default, none is worked
   * out by the service and no rule spans fields, so that a PUT's or a PATCH's columns are the
   * fields it sends, whatever the record held. Undefined otherwise.
   */
  answeredInSql?: AnsweredColumn[];
  /**
   * The record with every field it leaves out, or sends as null, at its default (null where none):
   * what a PUT stores. A Refusal when it breaks a rule that spans fields.
   */
  whole(record: Record<string, unknown>): Record<string, unknown>;
  /** What the "Ya existe…" sentence names: the unique fields' values. */
  uniqueValue(record: Record<string, unknown>): string;
  /** How a sheet names the record where another refers to it: its title or name, an artist's name and DNI. */
  shownAs(record: Record<string, unknown>): string;
}

type Row = Record<string, unknown>;

/**
 * A resource as the code that serves them all alike sees it (the HTTP routes, the writes, the
 * command line): records are plain rows there, validated against the resource's own schemas.
 */
export interface AnyResource extends Omit<Resource, 'table' | 'key' | 'example' | 'location' | 'unique' | 'queries'> {
  table: keyof Database;
  key: { name: string; schema: TSchema; chosenByClient: boolean };
  example: Row;
  unique: readonly string[];
  location(item: Row): string;
  queries(db: Db): Queries<Row, Row, Row, string | number>;
}

/** Derives the schemas, kinds and representation of a resource from its definition. */
export function defineResource<T extends keyof Database, K extends string, F extends TProperties, L extends TSchema, ClientKey extends boolean>(
  def: ResourceDefinition<T, K, F, L, ClientKey>,
): Resource<T, K, F, L, ClientKey> {
  const { key } = def;
  const item = Type.Object({ [key.name]: key.schema, ...def.fields }, { examples: [def.example] });
  const readOnly = new Set<string>(def.readOnly ?? []);
  const taken = Object.fromEntries(Object.entries(def.fields).filter(([name]) => !readOnly.has(name)));
  const worked = Object.fromEntries(Object.entries(def.fields).filter(([name]) => readOnly.has(name)).map(([name, schema]) => [name, Type.Optional(schema)]));
  const update = Type.Object({ ...taken, [key.name]: Type.Optional(key.schema) });
  const names = Object.keys(item.properties);
  const kinds = fieldKinds(item);
  const textFields = Object.keys(taken).filter((name) => kinds[name]?.type === 'text');
  // The one place comparable columns are made: ComparableColumns<T> are the `<field>_clave` of these text fields (test/db/schema.test.ts holds the two together).
  // Every field's value when a record leaves it out or sends null: its default, else null (a PUT replaces).
  const defaults = Object.entries(def.fields).map(([name, schema]) => [name, ((schema as { default?: unknown }).default) ?? null] as const);
  const booleans = Object.keys(def.fields).filter((name) => kinds[name]?.type === 'boolean');
  const withDefaults = (record: Record<string, unknown>) => {
    const complete = { ...record };
    for (const [name, value] of defaults) complete[name] ??= value;
    return complete;
  };
  // A whole record as a write stores it: defaults where a field is absent or null, refused when it
  // breaks a rule that spans fields (coordinates both or neither).
  const whole = (record: Record<string, unknown>) => {
    const complete = withDefaults(record);
    const problems = def.rules?.(complete as Static<TObject<F>>) ?? [];
    if (problems.length > 0) throw new Refusal('invalid', problems.map((p) => p.sentence).join(' '), problems);
    return complete;
  };
  // The columns of the fields a write sets (all of a new record's, those an update changes):
  // booleans as 0 and 1 (SQLite has no booleans, and better-sqlite3 binds none), and the
  // comparable columns of the text fields among them.
  const stored = <R extends object>(row: R) => {
    const columns: Record<string, unknown> = { ...(row as Record<string, unknown>) };
    for (const name of booleans) if (name in columns) columns[name] = columns[name] ? 1 : 0;
    return withComparables(columns, textFields) as R & ComparableColumns<T>;
  };
  const withForms = <R extends object>(row: R) => stored(whole(row as Record<string, unknown>) as R);
  // A record as answered: a boolean the store keeps as 0 or 1 answered as false or true.
  const answered = (record: Record<string, unknown>) => (name: string) =>
    booleans.includes(name) ? record[name] === true || record[name] === 1 : record[name];
  const uniqueValue = (record: Record<string, unknown>) => def.unique.map((field) => String(record[field])).join(', ');
  const json = (kind: FieldKind | undefined) => (kind?.type === 'integer' ? 'number' : kind?.type === 'text' || kind?.type === 'enum' ? 'string' : undefined);
  const columns = names.map((name) => ({ name, json: json(kinds[name]) }));
  const writtenAsSent = !def.rules && readOnly.size === 0 && defaults.every(([, value]) => value === null);
  const answeredInSql = columns.every((column): column is AnsweredColumn => column.json !== undefined) && writtenAsSent ? columns : undefined;
  return {
    ...def,
    queries: (db) => {
      const queries = def.queries(db);
      return { ...queries, create: (input) => queries.create(withForms(input)), update: (id, fields) => queries.update(id, stored(fields)) };
    },
    createMany: (db, inputs) => insertManyReturning(db, def.table, inputs.map((input) => withForms(input) as Insertable<Database[T]>)),
    newRow: withForms,
    updatedColumns: stored,
    path: `/${def.name}`,
    schemas: {
      item,
      create: key.chosenByClient ? item : Type.Object(taken),
      update,
      patch: Type.Partial(update),
      // A restore (an import, an undo) brings back what the service once worked out too, when it has it.
      restore: key.chosenByClient ? item : Type.Object({ ...taken, ...worked, [key.name]: Type.Optional(key.schema) }),
    },
    fieldNames: Object.keys(def.fields),
    kinds,
    textFields,
    representation: (record) => {
      // Built field by field: an import makes one per record it stores (the change's despues).
      const field = answered(record);
      const answer: Record<string, unknown> = {};
      for (const name of names) answer[name] = field(name);
      return JSON.stringify(answer);
    },
    answeredInSql,
    whole,
    uniqueValue,
    shownAs: (record) => def.knownAs?.(record)[0] ?? uniqueValue(record),
  };
}

/** Each field's kind, read off the record's schema. */
function fieldKinds(item: TObject): Record<string, FieldKind> {
  return Object.fromEntries(
    Object.entries(item.properties).map(([name, schema]) => {
      const s = schema as { type?: string | string[]; format?: string; enum?: string[]; minimum?: number; maximum?: number };
      const type = [s.type].flat()[0];
      const kind: FieldKind =
        s.enum ? { type: 'enum', values: s.enum } :
        type === 'integer' ? { type: 'integer', minimum: s.minimum ?? -Number.MAX_SAFE_INTEGER, maximum: s.maximum ?? Number.MAX_SAFE_INTEGER } :
        type === 'number' ? { type: 'number' } :
        type === 'boolean' ? { type: 'boolean' } :
        s.format === 'fecha' ? { type: 'fecha' } :
        s.format === 'inicio' ? { type: 'fecha', timed: true } :
        { type: 'text' };
      return [name, kind];
    }),
  );
}
