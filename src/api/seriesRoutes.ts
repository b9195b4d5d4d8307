import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Estado, Id, Notas, TipoEvento } from '../catalogue/fields.js';
import type { Db } from '../db/schema.js';
import { funciones } from '../resources/funciones.js';
import { createSeries, type Series } from '../resources/series.js';
import { ErrorBody } from './errors.js';

const SeriesBody = Type.Object({
  tipo_evento: TipoEvento,
  evento_id: Id,
  lugar_id: Id,
  desde: Type.String({ description: 'The first day, YYYY-MM-DD.', examples: ['2026-12-01'] }),
  hasta: Type.String({ description: 'The last day, YYYY-MM-DD, included.', examples: ['2026-12-31'] }),
  dias: Type.Array(Type.String(), { minItems: 1, description: 'Weekdays, lunes … domingo (case and accents aside).', examples: [['viernes', 'sábado']] }),
  horas: Type.Array(Type.String(), { minItems: 1, description: 'Times of day, HH:MM.', examples: [['18:00', '21:30']] }),
  excepto: Type.Optional(Type.Array(Type.String(), { description: 'Dates to leave out, YYYY-MM-DD.', examples: [['2026-12-25']] })),
  estado: Type.Optional(Estado),
  notas: Type.Optional(Notas),
});

/** `POST /funciones/serie`: many showtimes from one rule, all or nothing (resources/series.ts). */
export function seriesRoutes(app: FastifyInstance, db: Db, timeZone: string): void {
  app.post(
    `${funciones.path}/serie`,
    {
      schema: {
        tags: [funciones.name],
        summary: `Create a series of showtimes: every given weekday and time between two dates, at most 1000`,
        operationId: 'createSerieFunciones',
        body: SeriesBody,
        response: { 201: Type.Array(funciones.schemas.item), '4xx': ErrorBody, '5xx': ErrorBody },
        described: {
          answers: {
            201: 'Every showtime of the series as stored, in inicio order.',
            400: 'A field is not as the rules say, the item or the venue does not exist, the rule gives no showtime or more than 1000, or some already exist: the sentences name each. Nothing is stored.',
            413: 'The body is over 1 MiB.',
            415: 'The body is not JSON.',
          },
        },
      },
      config: { nouns: funciones.nouns, operation: 'create' },
    },
    // Ajv has validated the body against SeriesBody.
    async (request, reply) => reply.code(201).send(await createSeries(db, request.body as Series, timeZone, { quien: request.quien })),
  );
}
