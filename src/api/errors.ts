import { Type, type Static } from 'typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { messages, type Nouns, type Operation } from '../catalogue/messages.js';
import { Refusal, type RefusalKind } from '../catalogue/refusal.js';
import { validationProblems } from '../catalogue/validation.js';
import { storeFaultOf, type StoreFault } from '../db/errors.js';
import { localDateTimeMillis } from './time.js';

/** The spec's error body, answered on every non-2xx status. */
export const ErrorBody = Type.Object(
  {
    type: Type.Literal('error'),
    code: Type.String({ examples: ['404'] }),
    details: Type.String({ examples: ['No se encontró la película con el título: Roma'] }),
    location: Type.String({ examples: ['uri=/peliculas/Roma'] }),
    moreInfo: Type.String({ examples: ['No se encontró en la ruta: /peliculas/Roma'] }),
    timestamp: Type.String({ examples: ['2025-10-10T12:30:05.123'] }),
  },
  { $id: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** A refusal with a known status and Spanish sentence, thrown by the HTTP layer. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly details: string,
  ) {
    super(details);
  }
}
export const badRequest = (details: string) => new HttpError(400, details);

/** The status each kind of catalogue refusal answers. */
const REFUSAL_STATUS: Record<RefusalKind, number> = { invalid: 400, not_found: 404, changed: 412, conflict: 409, too_large: 413, unsupported: 415 };

/** What a route tells the error handler about itself, to word moreInfo (see crudRoutes.ts). */
declare module 'fastify' {
  interface FastifyContextConfig {
    nouns?: Nouns;
    operation?: Operation;
  }
}

/** The request path as the client sent it, without the query. */
export function requestPath(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q === -1 ? request.url : request.url.slice(0, q);
}

export function errorBody(request: FastifyRequest, status: number, details: string): ErrorBody {
  const path = requestPath(request);
  return errorBodyOf(path, status, details, moreInfo(request, status, path));
}

/** The error body itself: every refusal the service answers is built here. */
export function errorBodyOf(path: string, status: number, details: string, moreInfo: string): ErrorBody {
  return { type: 'error', code: String(status), details, location: `uri=${path}`, moreInfo, timestamp: localDateTimeMillis() };
}

function moreInfo(request: FastifyRequest, status: number, path: string): string {
  const m = messages.moreInfo;
  if (status === 404) return m.notFound(path);
  if (status === 405) return m.methodNotAllowed(path);
  if (status === 503) return m.unavailable(path);
  if (status >= 500) return m.internal(path);
  const { nouns, operation } = request.routeOptions.config;
  return nouns && operation ? m[operation](nouns, path) : m.general(path);
}

export function sendError(request: FastifyRequest, reply: FastifyReply, status: number, details: string) {
  return reply.code(status).type('application/json; charset=utf-8').send(errorBody(request, status, details));
}

/** What each fault of the store answers, and how soon to try again: space or a writable store takes someone's doing. */
const FAULT_ANSWERS: Record<StoreFault, { details: string; retryAfter: string }> = {
  disk_full: { details: messages.storeFull, retryAfter: '30' },
  read_only: { details: messages.storeReadOnly, retryAfter: '30' },
  unavailable: { details: messages.storeUnavailable, retryAfter: '1' },
};

/** The requests answered 503 because of the store's fault, and which (ops/storeFaults.ts counts and logs them). */
const faultsAnswered = new WeakMap<FastifyRequest, StoreFault>();
export const storeFaultAnswered = (request: FastifyRequest): StoreFault | undefined => faultsAnswered.get(request);

/** Turns anything thrown while serving a request into the error body; 5xx details stay in the log. */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const fault = storeFaultOf(error);
  if (fault) {
    // Said once when writes stop and once when they resume (ops/storeFaults.ts), not for every request.
    request.log.debug({ reason: error.message, fault }, 'store unavailable');
    faultsAnswered.set(request, fault);
    const { details, retryAfter } = FAULT_ANSWERS[fault];
    return sendError(request, reply.header('retry-after', retryAfter), 503, details);
  }
  const { status, details } = describe(error, request);
  if (status === 503) {
    request.log.warn({ reason: error.message }, 'store unavailable');
    reply.header('retry-after', FAULT_ANSWERS.unavailable.retryAfter);
  } else if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
  }
  return sendError(request, reply, status, details);
}

function describe(error: FastifyError, request: FastifyRequest): { status: number; details: string } {
  if (error instanceof HttpError) return { status: error.statusCode, details: error.details };
  if (error instanceof Refusal) return { status: REFUSAL_STATUS[error.kind], details: error.details };
  if (error.validation) {
    const problems = validationProblems(error.validation as never, error.validationContext ?? 'body');
    return { status: 400, details: problems.map((p) => p.sentence).join(' ') || messages.badRequest };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, details: messages.malformedJson };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, details: messages.emptyBody };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, details: messages.unsupportedMediaType(request.headers['content-type'] ?? '') };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, details: messages.bodyTooLarge };
    case 'FST_ERR_BAD_URL':
      return { status: 400, details: messages.badUrl };
  }
  // secure-json-parse refusing __proto__/constructor keys, and other malformed bodies.
  if (error instanceof SyntaxError) return { status: 400, details: messages.malformedJson };
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status, details: messages.badRequest };
  return { status: 500, details: messages.internal };
}

/**
 * Unknown routes: 404, or 405 with `Allow` when the path exists for other methods. Fastify's
 * router only says "no match", so a second router mirrors the registered routes to tell which.
 */
export function methodAwareNotFound() {
  // Parameters longer than the service's router takes are refused before routing (414); any the
  // router took must match here too, whatever their length.
  const mirror = FindMyWay({ maxParamLength: Number.MAX_SAFE_INTEGER });
  const methods = new Set<HTTPMethod>();
  function handler(request: FastifyRequest, reply: FastifyReply) {
    const path = requestPath(request);
    const allowed = [...methods].filter((m) => mirror.find(m, path) !== null).sort();
    // The request's own method may have a route and still find nothing (a missing file under /docs).
    if (allowed.length === 0 || allowed.includes(request.method as HTTPMethod)) {
      return sendError(request, reply, 404, messages.routeNotFound(request.method, path));
    }
    reply.header('allow', allowed.join(', '));
    return sendError(request, reply, 405, messages.methodNotAllowed(request.method));
  }
  return {
    onRoute(route: { method: string | string[]; url: string }) {
      for (const method of [route.method].flat() as HTTPMethod[]) {
        if (!mirror.hasRoute(method, route.url)) mirror.on(method, route.url, () => {});
        methods.add(method);
      }
    },
    handler,
    /** An onRequest hook: without a route there is no body to read, so a bad one cannot turn the 404/405 into a 400 or 415. */
    beforeBody(request: FastifyRequest, reply: FastifyReply, done: () => void) {
      if (request.is404) handler(request, reply);
      else done();
    },
  };
}
