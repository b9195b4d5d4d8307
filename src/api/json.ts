import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';
import { messages } from '../catalogue/messages.js';

const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const NUMBER = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * JSON bodies: Fastify's own parser (which refuses `__proto__` and `constructor.prototype`), then
 * a refusal of any number the parse could not keep exactly. `JSON.parse` turns
 * 9007199254740990.5 into the integer 9007199254740990, which validation would accept; the
 * contract says such values are refused, never rounded.
 */
export function strictJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // PATCH bodies are JSON merge patches (RFC 7396); plain application/json is accepted too.
  app.addContentTypeParser(['application/json', 'application/merge-patch+json'], { parseAs: 'string' }, (request, body, done) => {
    parse(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      const inexact = firstInexactNumber(body as string);
      if (inexact === undefined) return done(null, value);
      const v = messages.validation;
      const details = inexact.key === undefined ? messages.inexactNumber(inexact.literal) : v.integer(v.subject('body', inexact.key));
      done(new HttpError(400, details), undefined);
    });
  });
}

/**
 * The first number literal of a valid JSON text whose parsed value is not exactly what it says,
 * with the key it is the value of, when it is one.
 */
export function firstInexactNumber(json: string): { literal: string; key?: string } | undefined {
  // Only a literal with a fraction or an exponent can be inexact: a digit right before `.`, `e` or
  // `E` somewhere. Most bodies have none, and skip the scan.
  if (!/\d[.eE]/.test(json)) return undefined;
  let previous: { text: string; end: number } | undefined;
  for (const match of json.matchAll(TOKEN)) {
    const [token] = match;
    if (!token.startsWith('"') && !isExact(token)) {
      const isValueOf = previous?.text.startsWith('"') && json.slice(previous.end, match.index).trim() === ':';
      return isValueOf && previous ? { literal: token, key: JSON.parse(previous.text) as string } : { literal: token };
    }
    previous = { text: token, end: match.index + token.length };
  }
  return undefined;
}

function isExact(literal: string): boolean {
  // A plain integer literal rounds only beyond 2^53, past every integer field's maximum, so
  // validation refuses it by name.
  if (!/[.eE]/.test(literal)) return true;
  const value = Number(literal);
  // Fractions stay fractions after parsing, and validation judges them; only integers can hide a rounding.
  if (!Number.isInteger(value)) return Number.isFinite(value);
  const [, whole = '', fraction = '', exponentText = '0'] = NUMBER.exec(literal) ?? [];
  const digits = BigInt(whole + fraction);
  if (digits === 0n) return true;
  const exponent = Number(exponentText) - fraction.length;
  // Beyond these exponents no integer a double holds can be written exactly (bounds the BigInt work).
  if (exponent > 400 || exponent < -400) return false;
  const scale = 10n ** BigInt(Math.abs(exponent));
  if (exponent < 0 && digits % scale !== 0n) return false;
  const written = exponent >= 0 ? digits * scale : digits / scale;
  return written === BigInt(Math.abs(value));
}
