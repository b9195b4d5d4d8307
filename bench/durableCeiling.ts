/**
 * The durable ceiling: the least a Node process can do to answer cartelera's lookups and durable
 * writes, to measure the writes and the mix against. A bare node:http server on a SQLite file that
 * commits as cartelera does by default: WAL, `synchronous=NORMAL`, the writes that arrive together
 * in one transaction, then the WAL `fdatasync`ed on libuv's thread pool before any of them is
 * answered, one group at a time. Each write stores its row and one row of a change log. What it
 * leaves out is everything else a service does: routing, validation, the change's snapshots and
 * indexes, caches that any process's writes invalidate, errors, the live feed.
 *
 *   GET /peliculas/{titulo}    a movie, its bytes kept in memory and replaced when a write commits
 *   GET /peliculas             every movie;  GET ...?_page=n&_limit=100  a page of 100 (made when
 *                              first asked, kept until the next commit)
 *   POST /peliculas            a new movie (201);  PUT /peliculas/{id}  a whole movie (200)
 *
 * Env: PORT, FILE (the SQLite file, made fresh), MOVIES (default 10000).
 */
import { closeSync, fdatasync, openSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import SQLite from 'better-sqlite3';
import { movie, type Movie } from './catalogue.js';

const count = Number(process.env.MOVIES ?? 10_000);
const file = process.env.FILE ?? 'durable-ceiling.sqlite';
for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });

const db = new SQLite(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`
  create table peliculas (id integer primary key, titulo text not null unique, sipnosis text not null, duracion integer not null, categoria_id integer not null);
  create table cambios (id integer primary key, pelicula integer not null, despues text not null, cuando text not null)`);
const insert = db.prepare('insert into peliculas (titulo, sipnosis, duracion, categoria_id) values (@titulo, @sipnosis, @duracion, @categoria_id) returning *');
const update = db.prepare('update peliculas set titulo = @titulo, sipnosis = @sipnosis, duracion = @duracion, categoria_id = @categoria_id where id = @id returning *');
const logged = db.prepare('insert into cambios (pelicula, despues, cuando) values (?, ?, ?)');

type Row = Movie & { id: number };
/** Every movie by id, and each one's answer by the path that asks for it. */
const rows = new Map<number, Row>();
const bodies = new Map<string, Buffer>();
/** Lists and pages as first made after the last commit, by the URL that asked. */
const lists = new Map<string, Buffer>();
const pathOf = (titulo: string) => `/peliculas/${encodeURIComponent(titulo)}`;
const kept = (row: Row) => {
  const old = rows.get(row.id);
  if (old && old.titulo !== row.titulo) bodies.delete(pathOf(old.titulo));
  rows.set(row.id, row);
  const body = Buffer.from(JSON.stringify(row));
  bodies.set(pathOf(row.titulo), body);
  return body;
};
db.transaction(() => {
  for (let n = 1; n <= count; n++) kept(insert.get(movie(n)) as Row);
})();

const wal = openSync(`${file}-wal`, 'r');

interface Pending {
  id: number | undefined;
  fields: Movie;
  response: ServerResponse;
}
let queue: Pending[] = [];
let running = false;

/** Commits the writes queued, syncs the WAL, answers them; then the writes queued meanwhile. */
function commitGroup(): void {
  if (running || queue.length === 0) return;
  running = true;
  const group = queue;
  queue = [];
  const now = new Date().toISOString();
  const stored = db.transaction(() =>
    group.map(({ id, fields }) => {
      const row = (id === undefined ? insert.get(fields) : update.get({ ...fields, id })) as Row | undefined;
      if (row) logged.run(row.id, JSON.stringify(row), now);
      return row;
    }),
  )();
  fdatasync(wal, (error) => {
    running = false;
    lists.clear();
    group.forEach(({ id, response }, i) => {
      const row = stored[i];
      if (error || !row) return answer(response, error ? 503 : 404, Buffer.from('{}'));
      answer(response, id === undefined ? 201 : 200, kept(row));
    });
    commitGroup();
  });
}

function answer(response: ServerResponse, status: number, body: Buffer): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
}

function write(request: IncomingMessage, response: ServerResponse, id: number | undefined): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    queue.push({ id, fields: JSON.parse(Buffer.concat(chunks).toString()) as Movie, response });
    // After this turn of the event loop, so that the writes whose requests arrived in it join.
    if (!running && queue.length === 1) setImmediate(commitGroup);
  });
}

const server = createServer((request, response) => {
  const url = request.url ?? '/';
  if (request.method === 'PUT') return write(request, response, Number(url.slice('/peliculas/'.length)));
  if (request.method === 'POST') return write(request, response, undefined);
  request.resume();
  const one = bodies.get(url);
  if (one) return answer(response, 200, one);
  let listed = lists.get(url);
  if (!listed) {
    const page = /_page=(\d+)/.exec(url)?.[1];
    const all = [...rows.values()];
    listed = Buffer.from(JSON.stringify(page === undefined ? all : all.slice((Number(page) - 1) * 100, Number(page) * 100)));
    lists.set(url, listed);
  }
  answer(response, 200, listed);
});

server.listen(Number(process.env.PORT ?? 8091), '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    closeSync(wal);
    db.close();
    process.exit(0);
  });
}
