import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';
import { messages } from '../catalogue/messages.js';
import { firstInexactNumber } from '../catalogue/numbers.js';

/**
 * JSON bodies: Fastify's own parser (which refuses `__proto__` and `constructor.prototype`), then
 * a refusal of any number the parse could not keep exactly. `JSON.parse` turns
 * 9007199254740990.5 into the integer 9007199254740990, which validation would accept; the
 * contract says such values are refused, never rounded; but for the fields of `decimalFields`,
 * kept to 6 decimals by their own rule (catalogue/numbers.ts, decimal6).
 */
export function strictJsonBodies(app: FastifyInstance, decimalFields: ReadonlySet<string>): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // PATCH bodies are JSON merge patches (RFC 7396); plain application/json is accepted too.
  app.addContentTypeParser(['application/json', 'application/merge-patch+json'], { parseAs: 'string' }, (request, body, done) => {
    parse(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      const inexact = firstInexactNumber(body as string, (key) => decimalFields.has(key));
      if (inexact === undefined) return done(null, value);
      const v = messages.validation;
      const details = inexact.key === undefined ? messages.inexactNumber(inexact.literal) : v.integer(v.subject('body', inexact.key));
      done(new HttpError(400, details), undefined);
    });
  });
}
