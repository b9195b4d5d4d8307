import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagOf } from '../cache/etag.js';
import { messages } from '../catalogue/messages.js';
import { Refusal } from '../catalogue/refusal.js';
import type { Precondition } from '../resources/writes.js';

/** An entity-tag of a conditional header: its opaque-tag (quotes included) and whether it is weak. */
interface EntityTag {
  weak: boolean;
  opaque: string;
}

// RFC 9110 §8.8.3: entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc may include commas.
const ENTITY_TAG = /(W\/)?("[^"]*")/g;

/** `*`, or the entity-tags listed; malformed entries are ignored. */
function parseTags(header: string): '*' | EntityTag[] {
  if (header.trim() === '*') return '*';
  return [...header.matchAll(ENTITY_TAG)].map(([, weak, opaque = '']) => ({ weak: weak !== undefined, opaque }));
}

/**
 * Every GET/HEAD 200 with a serialized body carries an ETag (strong, but for a gzipped answer:
 * compressed.ts); an If-None-Match that matches it (weak comparison, RFC 9110 §13.1.2) turns the
 * answer into a bodiless 304.
 */
export function conditionalGets(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const method = request.method;
    if ((method !== 'GET' && method !== 'HEAD') || reply.statusCode !== 200) return done(null, payload);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);

    // A route that knows its ETag already (a cached list) has set it: no need to hash the bytes again.
    const known = reply.getHeader('etag');
    const etag = typeof known === 'string' ? known : etagOf(payload);
    reply.header('etag', etag);
    if (!isNotModified(request.headers['if-none-match'], etag)) return done(null, payload);

    notModified(reply);
    // Fastify's HEAD route hook runs after this one and needs the GET payload to size the
    // Content-Length a 200 would have had (RFC 9110 §8.6 allows exactly that value on a 304);
    // it then drops the body itself.
    return done(null, method === 'HEAD' ? payload : null);
  });
}

/** True when If-None-Match names the current representation, so the GET answers 304 (weak comparison: opaque-tags alike). */
function isNotModified(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = parseTags(header);
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  return tags === '*' || tags.some((tag) => tag.opaque === opaque);
}

function notModified(reply: FastifyReply): void {
  reply.code(304);
  // A 304 carries the validators, not the representation's metadata (RFC 9110 §15.4.5).
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  reply.removeHeader('content-encoding');
}

/**
 * For writes: when the request has If-Match, the record as GET serializes it must still match
 * (strong comparison; `*` matches any existing record), or the write is refused with 412.
 */
export function ifMatch(request: FastifyRequest): Precondition | undefined {
  const header = request.headers['if-match'];
  if (header === undefined) return undefined;
  const tags = parseTags(header);
  return (current) => {
    if (current !== undefined) {
      if (tags === '*') return;
      const etag = etagOf(current);
      if (tags.some((tag) => !tag.weak && tag.opaque === etag)) return;
    }
    throw new Refusal('changed', messages.preconditionFailed);
  };
}
