import { Type } from 'typebox';

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

/** The image formats kept, judged by a file's content. */
export const TIPOS_IMAGEN = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'] as const;
export type TipoImagen = (typeof TIPOS_IMAGEN)[number];
export const TipoImagen = Type.Enum(TIPOS_IMAGEN);
