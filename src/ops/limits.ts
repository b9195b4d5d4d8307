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

/**
 * Lingering close, as nginx does it: a request refused before all of it was read is answered, then
 * the rest of what the client sends is read and dropped, up to LINGER_BYTES and LINGER_MS, before
 * the connection closes. Closing at once, with the client's bytes still unread, makes the system
 * reset the connection, and a client still sending its request then loses the answer.
 */
export const LINGER_BYTES = 8 * 1024 * 1024;
export const LINGER_MS = 5000;

/** Sockets lingering. */
const lingering = new WeakSet<Socket>();

/** How often a lingering socket's count of bytes read is looked at (Node's parser reads it, and says nothing of what it drops). */
const LINGER_CHECK_MS = 10;

/**
 * Ends `socket` after what is written, then lets Node's parser read and drop what arrives, until
 * the client is done (`request`'s body ends, or the client closes) or a bound is reached.
 * `request`: the request whose body is still arriving, when its headers were read.
 */
function linger(socket: Socket, request: IncomingMessage | undefined): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  socket.end();
  const start = socket.bytesRead;
  const deadline = Date.now() + LINGER_MS;
  const check = setInterval(() => {
    if (socket.bytesRead - start > LINGER_BYTES || Date.now() > deadline) socket.destroy();
  }, LINGER_CHECK_MS);
  socket.once('close', () => clearInterval(check));
  request?.once('end', () => socket.destroy());
}

/**
 * Answers sent before the request was read whole (a 413, a 401 or 415 before the body) close the
 * connection lingering, instead of at once (Fastify asks to close it after a body it refused) or
 * after reading the rest without bound (Node's default otherwise).
 */
export function lingeringClose(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    const incoming = request.raw;
    if (incoming.complete) return;
    reply.header('connection', 'close');
    // Node closes a connection that is not kept alive with destroySoon() once the answer is written.
    const socket = incoming.socket as Socket & { destroySoon(): void };
    socket.destroySoon = () => linger(socket, incoming);
  });
}

function answerClientError(app: FastifyInstance, error: ConnectionError, socket: HttpSocket, maxHeaderBytes: number) {
  // A reset connection has nobody left to answer; one answered already is lingering (Node's parser
  // refuses each chunk it is given after the first refusal).
  if (error.code === 'ECONNRESET' || socket.destroyed || lingering.has(socket)) return;
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
  // A timed-out client has stopped sending, or sends too slowly to wait for.
  if (status === 408) socket.destroy(error);
  else linger(socket, undefined);
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
