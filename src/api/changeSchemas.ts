/**
 * The wire of the change log, declared once: the routes describe their answers with it (the
 * OpenAPI document), and the admin takes its types from it.
 */
import { Type, type Static } from 'typebox';

const RecordValue = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]);

/** A change, as `GET /cambios` answers it (docs/api.md, "Changes"). */
export const Change = Type.Object(
  {
    id: Type.Integer({ description: "the change's number, increasing; the feed's event id" }),
    recurso: Type.String({ examples: ['peliculas'] }),
    clave: Type.Integer({ description: "the record's id, or an artist's dni" }),
    operacion: Type.Enum(['alta', 'modificacion', 'baja']),
    antes: RecordValue,
    despues: RecordValue,
    campos: Type.Array(Type.String()),
    quien: Type.Union([Type.String(), Type.Null()]),
    cuando: Type.String({ examples: ['2026-11-24T10:15:00.000+00:00'] }),
    causa: Type.Union([Type.Integer(), Type.Null()]),
    deshace: Type.Union([Type.Integer(), Type.Null()]),
  },
  { $id: 'Change' },
);

export type Change = Static<typeof Change>;
