/**
 * The ceiling: a bare node:http server answering bytes serialized once at start, of the same sizes as
 * cartelera's answers (the same movies, the same JSON). No routing, parsing or storage: the fastest
 * any Node process can answer these requests, to compare the real servers against.
 *
 *   GET /peliculas             every movie
 *   GET ...?_page=…            a page of 100 movies
 *   anything else              one movie (201 for a POST)
 *
 * Env: PORT, MOVIES (default 10000).
 */
import { createServer } from 'node:http';
import { movie } from './catalogue.js';

const count = Number(process.env.MOVIES ?? 10_000);
const movies = Array.from({ length: count }, (_, i) => ({ id: i + 1, ...movie(i + 1) }));

const bodies = {
  one: Buffer.from(JSON.stringify(movies[0])),
  page: Buffer.from(JSON.stringify(movies.slice(0, 100))),
  all: Buffer.from(JSON.stringify(movies)),
};

const server = createServer((request, response) => {
  request.resume();
  const body =
    request.method !== 'GET' ? bodies.one
    : request.url === '/peliculas' ? bodies.all
    : request.url?.includes('_page=') ? bodies.page
    : bodies.one;
  response.writeHead(request.method === 'POST' ? 201 : 200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
  });
  response.end(body);
});

server.listen(Number(process.env.PORT ?? 8090), '127.0.0.1');
// Nothing to flush or close cleanly.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => process.exit(0));
