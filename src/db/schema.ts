import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Estado, Operacion, TipoEvento, TipoImagen } from '../catalogue/fields.js';

// The tables as Kysely sees them. Each `<field>_clave` column holds the comparable form of a text
// field (catalogue/comparable.ts): unique indexes, lookups, filters and search compare these. They
// are never answered to clients. Only as this suffix does `clave` mean the comparable form;
// everywhere else (`cambios.clave`, the change log's `clave`) it is a record's key.
export interface CategoriasTable {
  id: Generated<number>;
  nombre: string;
  nombre_clave: string;
}

export interface PeliculasTable {
  id: Generated<number>;
  titulo: string;
  titulo_clave: string;
  sipnosis: string;
  sipnosis_clave: string;
  duracion: number;
  categoria_id: number;
}

export interface ObrasTable {
  id: Generated<number>;
  titulo: string;
  titulo_clave: string;
  descripcion: string;
  descripcion_clave: string;
  duracion: number;
  categoria_id: number;
}

export interface EventosUrbanosTable {
  id: Generated<number>;
  titulo: string;
  titulo_clave: string;
  descripcion: string;
  descripcion_clave: string;
  /** Always the canonical `YYYY-MM-DDTHH:MM:SS.mmm+00:00` text (see catalogue/fecha.ts). */
  fecha: string;
  lugar: string;
  lugar_clave: string;
  categoria_id: number;
}

export interface ArtistasTable {
  dni: number;
  nombre: string;
  nombre_clave: string;
  apellido: string;
  apellido_clave: string;
  tipo: string;
  tipo_clave: string;
  descripcion: string;
  descripcion_clave: string;
}

export interface ParticipacionesTable {
  id: Generated<number>;
  artistas_dni: number;
  tipo_evento: TipoEvento;
  evento_id: number;
  // Generated from tipo_evento + evento_id; they exist to carry one foreign key per item table.
  pelicula_id: Generated<number | null>;
  obra_id: Generated<number | null>;
  evento_urbano_id: Generated<number | null>;
}

/** Venues (migration 0010): coordinates both or neither, in degrees to 6 decimals. */
export interface LugaresTable {
  id: Generated<number>;
  nombre: string;
  nombre_clave: string;
  direccion: string;
  direccion_clave: string;
  latitud: number | null;
  longitud: number | null;
  /** A boolean to the code; the store keeps 0 or 1, converted both ways in one place (resources/define.ts). */
  accesible: ColumnType<boolean, boolean | undefined, boolean>;
  url: string | null;
  url_clave: string | null;
}

/** Showtimes (migration 0010): the item as participations name it, a venue, and wall clocks as canonical text. */
export interface FuncionesTable {
  id: Generated<number>;
  tipo_evento: TipoEvento;
  evento_id: number;
  pelicula_id: Generated<number | null>;
  obra_id: Generated<number | null>;
  evento_urbano_id: Generated<number | null>;
  lugar_id: number;
  /** The canonical `YYYY-MM-DDTHH:MM:00.000+00:00` text (catalogue/fecha.ts, canonicalInicio). */
  inicio: string;
  fin: string | null;
  estado: ColumnType<Estado, Estado | undefined, Estado>;
  notas: string | null;
  notas_clave: string | null;
}

/**
 * Rows per table kept by triggers on every change to it: a version (migration 0003) and a row count
 * (0004). A table's are the sums over its rows (`ranura`: several on PostgreSQL, migration 0006).
 */
export interface VersionesTable {
  tabla: string;
  ranura: number;
  version: number;
  filas: number;
}

/** The change log (migration 0005): see resources/changeLog.ts. */
export interface CambiosTable {
  id: Generated<number>;
  recurso: string;
  clave: number;
  operacion: Operacion;
  antes: string | null;
  despues: string | null;
  campos: string;
  quien: string | null;
  quien_clave: string | null;
  cuando: string;
  causa: number | null;
  deshace: number | null;
}

/** An image's fields (migration 0009); its original is in `imagen_archivos`. */
export interface ImagenesTable {
  id: Generated<number>;
  recurso: string;
  clave: number;
  alt: string;
  alt_clave: string;
  credito: string | null;
  credito_clave: string | null;
  foco_x: number;
  foco_y: number;
  orden: number;
  ancho: number;
  alto: number;
  tipo: TipoImagen;
  bytes: number;
  /** `/imagenes/<id>/archivo`, set by the store. */
  url: Generated<string>;
}

/** An image's original, byte for byte, with its SHA-256 (hex); kept while the image or a change refers to it. */
export interface ImagenArchivosTable {
  imagen_id: number;
  digest: string;
  datos: Uint8Array;
}

export interface Database {
  versiones: VersionesTable;
  cambios: CambiosTable;
  categorias: CategoriasTable;
  peliculas: PeliculasTable;
  obras: ObrasTable;
  eventos_urbanos: EventosUrbanosTable;
  artistas: ArtistasTable;
  participaciones: ParticipacionesTable;
  lugares: LugaresTable;
  funciones: FuncionesTable;
  imagenes: ImagenesTable;
  imagen_archivos: ImagenArchivosTable;
}

export type Db = Kysely<Database>;
