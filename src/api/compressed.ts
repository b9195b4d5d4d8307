import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedAnswer } from '../cache/answers.js';
import { sendingKept } from './durable.js';

/**
 * Sends a kept answer, gzipped to a client that takes gzip (Accept-Encoding) when the answer is
 * worth compressing: what's on as a week's JSON-LD or calendar is hundreds of kB of repeated
 * text, a tenth of that gzipped, and is compressed once per kept answer, not per request. A client
 * that does not ask gets the same bytes as ever. The gzipped body is another representation, so
 * its ETag is the answer's, weak (RFC 9110 §8.8.1), which If-None-Match still matches.
 */
export async function sendKept(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer): Promise<FastifyReply> {
  sendingKept(request, answer);
  reply.headers(answer.headers).header('vary', 'accept-encoding');
  const accepted = request.headers['accept-encoding'];
  if (answer.gzipped === undefined || accepted === undefined || negotiate(accepted, ['gzip', 'identity']) !== 'gzip') return reply.send(answer.body);
  return reply.header('content-encoding', 'gzip').header('etag', `W/${answer.etag}`).send(await answer.gzipped());
}
