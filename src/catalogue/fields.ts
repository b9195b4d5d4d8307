import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import { TIPOS_IMAGEN } from './imageTypes.js';

/**
 * The field types every resource is built from. Each carries its contract rule once; the
 * validator, the serializer, the TypeScript types and the API description all read it from here.
 */

/** Service-assigned ids: positive 32-bit integers. */
export const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });

/** An artist's national id: positive and exact in a JSON number (at most 2^53-1). */
export const Dni = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

/**
 * Text the store keeps exactly as sent: no U+0000 (PostgreSQL cannot hold it) and no lone
 * surrogate (it has no UTF-8 form, so it would come back as U+FFFD).
 */
export const STORABLE_TEXT = '^[^\\u0000\\p{Cs}]*$';

/** Other short text: artists' names and kinds, places (trimmed before validation). */
export const ShortText = Type.String({ minLength: 1, maxLength: 255, pattern: STORABLE_TEXT });

/**
 * Titles and names, which are looked up by path: "." and ".." could not be, since URL parsing
 * resolves them away (even percent-encoded) before a request leaves the client.
 */
export const Title = Type.String({ minLength: 1, maxLength: 255, pattern: STORABLE_TEXT, not: { enum: ['.', '..'] } });

/** Synopses and descriptions. */
export const LongText = Type.String({ minLength: 1, maxLength: 5000, pattern: STORABLE_TEXT });

/** Minutes. */
export const Duracion = Type.Integer({ minimum: 1, maximum: 100000 });

/** See fecha.ts: accepted as a date or date-time, answered as the wall clock in canonical form. */
export const Fecha = Type.String({
  format: 'fecha',
  description: "The event's wall clock, in UTC notation: a plain date is that whole day; a date-time with an offset other than Z or +00:00 is stored as its wall clock in TIMEZONE.",
  examples: ['2025-10-10T00:00:00.000+00:00'],
});

/** The kinds of item a participation can name. */
export const TIPOS_EVENTO = ['pelicula', 'obra', 'eventoUrbano'] as const;
export type TipoEvento = (typeof TIPOS_EVENTO)[number];
export const TipoEvento = Type.Enum(TIPOS_EVENTO);

/** What a change of the change log did to its record: created, modified (replaced or patched), deleted. */
export const OPERACIONES = ['alta', 'modificacion', 'baja'] as const;
export type Operacion = (typeof OPERACIONES)[number];

/**
 * A value that may be null. JSON Schema's `type: [T, 'null']` rather than a union, so that every
 * other rule of T (lengths, ranges, formats) still names the field in one sentence.
 */
const orNull = <S extends TSchema>(schema: S): TUnsafe<Static<S> | null> =>
  Type.Unsafe<Static<S> | null>({ ...schema, type: [(schema as unknown as { type: string }).type, 'null'] });

/** Degrees, kept to 6 decimals (about 11 cm): both or neither (see lugares.ts). */
export const Latitud = orNull(Type.Number({ minimum: -90, maximum: 90 }));
export const Longitud = orNull(Type.Number({ minimum: -180, maximum: 180 }));

/** Step-free access; absent or null is false. */
export const Accesible = Type.Boolean({ default: false });

/** A web address, `http://` or `https://`; empty is null. */
export const Url = orNull(Type.String({ maxLength: 2048, pattern: '^https?://[^\\s\\u0000\\p{Cs}]+$' }));

/**
 * A showtime's wall clock (see fecha.ts, canonicalInicio): always timed, to the minute; answered
 * `YYYY-MM-DDTHH:MM:00.000+00:00`.
 */
export const Inicio = Type.String({
  format: 'inicio',
  description: "The showtime's wall clock, to the minute: sent YYYY-MM-DDTHH:MM, answered in UTC notation; with an offset other than Z or +00:00, stored as its wall clock in TIMEZONE.",
  examples: ['2026-12-25T20:00:00.000+00:00'],
});
export const Fin = orNull(Inicio);

/** What became of a showtime. */
export const ESTADOS = ['programada', 'cancelada', 'aplazada', 'agotada'] as const;
export type Estado = (typeof ESTADOS)[number];
export const Estado = Type.Enum(ESTADOS, { default: 'programada' });

/** A showtime's notes (`Subtitulada`); empty is null. */
export const Notas = orNull(Type.String({ maxLength: 500, pattern: STORABLE_TEXT }));
/** What an image shows, for people who cannot see it. */
export const Alt = Type.String({ minLength: 1, maxLength: 500, pattern: STORABLE_TEXT });

/** A photographer or source; empty means none. */
export const Credito = Type.Union([Type.String({ maxLength: 255, pattern: STORABLE_TEXT }), Type.Null()]);

/** A focal point's coordinate: percent of the width or height. */
export const Foco = Type.Integer({ minimum: 0, maximum: 100, default: 50 });

/** A place in a list, from 1. */
export const Orden = Type.Integer({ minimum: 1, maximum: 2147483647 });

/** Pixels, bytes: positive counts. */
export const Count = Type.Integer({ minimum: 1, maximum: 2147483647 });

export { TIPOS_IMAGEN };
/** The image formats kept, judged by a file's content. */
export type TipoImagen = (typeof TIPOS_IMAGEN)[number];
export const TipoImagen = Type.Enum(TIPOS_IMAGEN);
