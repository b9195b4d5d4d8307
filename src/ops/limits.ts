import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { errorBodyOf } from '../api/errors.js';
import { messages } from '../catalogue/messages.js';
import type { Config } from '../config.js';

/**
 * The HTTP server's limits on slow and oversized clients, as Fastify options
 * (docs/operations.md, "Protection"). A request cut by them is answered here, on the socket: no route ever saw it.
 */
export function serverLimits(config: Config) {
  return {
    connectionTimeout: config.CONNECTION_TIMEOUT_MS,
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    maxRequestsPerSocket: config.MAX_REQUESTS_PER_SOCKET,
    http: {
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      // Also here, because Node checks headersTimeout against it when it creates the server.
      requestTimeout: config.REQUEST_TIMEOUT_MS,
      maxHeaderSize: config.MAX_HEADER_BYTES,
      // Node looks for expired requests this often (every 30 s by default): a timeout then holds to within a second.
      connectionsCheckingInterval: 1000,
    },
    clientErrorHandler(this: FastifyInstance, error: ConnectionError, socket: Socket) {
      answerClientError(this, error, socket, config.MAX_HEADER_BYTES);
    },
  };
}

/**
 * A request whose `Expect` is anything but `100-continue` is refused with 417 (RFC 9110 §10.1.1)
 * before it is routed; Node answers it with an empty body unless told otherwise, and the contract
 * wants the error body on every refusal.
 */
export function expectationRefusals(app: FastifyInstance): void {
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    const details = messages.protection.expectation(String(request.headers.expect ?? ''));
    const json = JSON.stringify(errorBodyOf(path, 417, details, messages.moreInfo.general(path)));
    response.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) }).end(json);
  });
}

/** Node's internals that say what a socket is doing; the same ones its own clientError answer reads. */
interface HttpSocket extends Socket {
  _httpMessage?: { headersSent: boolean } | null;
  parser?: { incoming?: { url?: string; complete: boolean } | null } | null;
}

function answerClientError(app: FastifyInstance, error: ConnectionError, socket: HttpSocket, maxHeaderBytes: number) {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const m = messages.protection;
  const [status, details] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, m.requestTimeout]
    : error.code === 'HPE_HEADER_OVERFLOW' ? [431, m.headersTooLarge(maxHeaderBytes)]
    : [400, m.malformedRequest];
  app.log.debug({ code: error.code, reason: error.message, status }, 'request refused before it was read');
  // Never write into an answer that has begun.
  if (socket.writable && !socket._httpMessage?.headersSent) {
    const path = pathOf(socket, error);
    const json = JSON.stringify(errorBodyOf(path, status, details, messages.moreInfo.unread(path)));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(error);
}

/** The request's path without the query, when it is known: its headers arrived, or the refused bytes begin with it. */
function pathOf(socket: HttpSocket, error: ConnectionError): string {
  const incoming = socket.parser?.incoming;
  // A completed request is the previous one on this keep-alive connection, not the one refused.
  const raw = incoming && !incoming.complete ? incoming.url : requestLine(error.rawPacket);
  return raw?.split('?')[0] ?? '';
}

function requestLine(packet: unknown): string | undefined {
  if (!Buffer.isBuffer(packet)) return undefined;
  return /^[A-Z]+ (\/\S*) HTTP\/1\.[01]\r?\n/.exec(packet.subarray(0, 8192).toString('latin1'))?.[1];
}
