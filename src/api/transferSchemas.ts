/**
 * The wire of `POST /importar`, declared once: the route validates and serializes with it, the
 * OpenAPI document describes it, and the admin's import page takes its types from it.
 */
import { Type, type Static } from 'typebox';

/** What `existentes` may say of a record whose title, name or dni is already stored: a problem, leave it, or replace it. */
export const EXISTENTES = ['error', 'omitir', 'actualizar'] as const;

export const ImportQuery = Type.Object(
  {
    comprobar: Type.Optional(Type.Enum(['true', 'false'], { description: 'true: check everything and store nothing' })),
    existentes: Type.Optional(
      Type.Enum(EXISTENTES, { description: 'a record already stored: error (a problem), omitir (leave it) or actualizar (replace it)', default: 'error' }),
    ),
  },
  { description: 'Parameters it does not know are ignored, as on every route.' },
);

/** The upload: one or more files, each in a part named `archivo`. */
export const Upload = Type.Object({
  archivo: Type.Array(Type.String({ format: 'binary' }), { minItems: 1, description: 'CSV files named after their resource (peliculas.csv), or one workbook (.xlsx, .ods)' }),
});

export const Problem = Type.Object({
  archivo: Type.String(),
  hoja: Type.Optional(Type.String({ description: "a workbook's sheet" })),
  fila: Type.Optional(Type.Integer({ description: "the spreadsheet's row (the header is row 1)" })),
  recurso: Type.Optional(Type.String()),
  campo: Type.Optional(Type.String()),
  columna: Type.Optional(Type.String({ description: "the cell's column as the sheet's header names it" })),
  valor: Type.Optional(Type.String({ description: 'the cell as the file wrote it' })),
  frase: Type.String({ description: 'what is wrong, as the API says it, with examples for a format' }),
});

export const Counts = Type.Object({ nuevos: Type.Integer(), actualizados: Type.Integer(), sin_cambios: Type.Integer() });

export const ImportReport = Type.Object(
  {
    guardado: Type.Boolean({ description: 'whether the records were stored (never part of them)' }),
    problemas: Type.Array(Problem, { description: 'the first 1,000 problems' }),
    problemas_sin_listar: Type.Optional(Type.Integer({ description: 'problems found past the first 1,000: counted, not listed' })),
    avisos: Type.Array(Type.Object({ archivo: Type.String(), hoja: Type.Optional(Type.String()), aviso: Type.String() })),
    recuentos: Type.Record(Type.String(), Counts, { description: 'per resource: what is (or would be) stored' }),
  },
  { $id: 'ImportReport' },
);
export type ImportReport = Static<typeof ImportReport>;

export type ImportProblemWire = Static<typeof Problem>;
export type Existentes = (typeof EXISTENTES)[number];

/** `GET /exportar.*`: which list (else the whole catalogue); that list's own filter and sort parameters come beside it. */
const Recurso = Type.Union([Type.String(), Type.Array(Type.String())], { description: 'the resource whose list to export, by its path name', examples: ['peliculas'] });
export const ExportQuery = Type.Object({ recurso: Type.Optional(Recurso) });
/** A CSV file holds one resource: `recurso` is required. */
export const CsvExportQuery = Type.Object({ recurso: Recurso });
