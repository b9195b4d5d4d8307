/**
 * The durable ceiling: the least a Node process can do to answer cartelera's lookups and durable
 * writes, to measure the writes and the mix against. A bare node:http server on a SQLite file that
 * commits as cartelera does by default: WAL, `synchronous=NORMAL`, the writes that arrive together
 * in one transaction, then the WAL `fdatasync`ed on libuv's thread pool before any of them is
 * answered, one group at a time. Each write stores its row and one row of a change log. What it
 * leaves out is everything else a service does: routing, validation, the change's snapshots and
 * indexes, caches that any process's writes invalidate, errors, the live feed.
 *
 *   GET /peliculas/{titulo}    a movie: its bytes as kept (replaced when a write of it commits; at
 *                              most 10,000 kept, as cartelera keeps; read from the file otherwise)
 *   GET /peliculas             every movie;  GET ...?_page=n&_limit=100  a page of 100 (read when
 *                              first asked, kept until the next commit)
 *   A read from the file while a commit is being synced is answered once that sync has ended.

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
const byTitle = db.prepare('select * from peliculas where titulo = ?');
const titleOf = db.prepare('select titulo from peliculas where id = ?').pluck();
const page = db.prepare('select * from peliculas order by id limit 100 offset ?');
const every = db.prepare('select * from peliculas order by id');

type Row = Movie & { id: number };
/**
 * Answers kept by the URL that asked: a movie's (the oldest leaving first past KEPT, as cartelera
 * keeps at most 10,000), with the URLs kept of each title, to drop when a write of it commits; lists
 * and pages until the next commit.
 */
const KEPT = 10_000;
const movies = new Map<string, { titulo: string; body: Buffer }>();
const urlsOf = new Map<string, Set<string>>();
const lists = new Map<string, Buffer>();
function keep(url: string, titulo: string, body: Buffer): Buffer {
  movies.set(url, { titulo, body });
  let urls = urlsOf.get(titulo);
  if (!urls) urlsOf.set(titulo, (urls = new Set()));
  urls.add(url);
  if (movies.size > KEPT) drop(movies.keys().next().value as string);
  return body;
}
function drop(url: string): void {
  const kept = movies.get(url);
  if (!kept) return;
  movies.delete(url);
  const urls = urlsOf.get(kept.titulo);
  urls?.delete(url);
  if (urls?.size === 0) urlsOf.delete(kept.titulo);
}
/** After a write of `row` committed (`before`: its title until then, for an update): its answer as it is now, the old ones dropped. */
function written(row: Row, before: string | undefined): Buffer {
  for (const titulo of before === undefined ? [row.titulo] : [before, row.titulo]) for (const url of urlsOf.get(titulo) ?? []) drop(url);
  return keep(`/peliculas/${encodeURIComponent(row.titulo)}`, row.titulo, bytesOf(row));
}
const bytesOf = (rows: unknown) => Buffer.from(JSON.stringify(rows));
/** The body of an answer that holds no movie (none by that id or title, or a failed sync). */
const NOTHING = Buffer.from('{}');

db.transaction(() => {
  for (let n = 1; n <= count; n++) insert.run(movie(n));
})();

const wal = openSync(`${file}-wal`, 'r');

interface Pending {
  id: number | undefined;
  fields: Movie;
  response: ServerResponse;
}
let queue: Pending[] = [];
/** Whether a group is committing or being synced; what reads it may show wait for its sync to answer. */
let running = false;
let afterSync: (() => void)[] = [];

/** Commits the writes queued, syncs the WAL, answers them; then the writes queued meanwhile. */
function commitGroup(): void {
  if (running || queue.length === 0) return;
  running = true;
  const group = queue;
  queue = [];
  const now = new Date().toISOString();
  // Each write: its row as stored (undefined: no such movie), and the title it had (a kept answer to drop when it changed).
  const stored = db.transaction(() =>
    group.map(({ id, fields }) => {
      const before = id === undefined ? undefined : (titleOf.get(id) as string | undefined);
      const row = (id === undefined ? insert.get(fields) : update.get({ ...fields, id })) as Row | undefined;
      if (row) logged.run(row.id, JSON.stringify(row), now);
      return { row, before };
    }),
  )();
  fdatasync(wal, (error) => {
    running = false;
    lists.clear();
    group.forEach(({ id, response }, i) => {
      const { row, before } = stored[i] ?? {};
      if (error || !row) return answer(response, error ? 503 : 404, NOTHING);
      answer(response, id === undefined ? 201 : 200, written(row, before));
    });
    const reads = afterSync;
    afterSync = [];
    for (const read of reads) read();
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

/** Answers what the file holds for `url`: a movie by title, a page or every movie (undefined: no such movie). */
function read(url: string): { body: Buffer; keep: () => void } | undefined {
  const [path = '', query = ''] = url.split('?');
  if (path === '/peliculas') {
    const pageNumber = /(?:^|&)_page=(\d+)/.exec(query)?.[1];
    const body = bytesOf(pageNumber === undefined ? every.all() : page.all((Number(pageNumber) - 1) * 100));
    return { body, keep: () => lists.set(url, body) };
  }
  const titulo = titleIn(path);
  const row = titulo === undefined ? undefined : byTitle.get(titulo);
  if (row === undefined || titulo === undefined) return undefined;
  const body = bytesOf(row);
  return { body, keep: () => keep(url, titulo, body) };
}

/** The title a lookup's path names; undefined when it names none. */
function titleIn(path: string): string | undefined {
  if (!path.startsWith('/peliculas/')) return undefined;
  try {
    return decodeURIComponent(path.slice('/peliculas/'.length));
  } catch {
    return undefined;
  }
}

const server = createServer((request, response) => {
  const url = request.url ?? '/';
  if (request.method === 'PUT') return write(request, response, Number(url.slice('/peliculas/'.length)));
  if (request.method === 'POST') return write(request, response, undefined);
  request.resume();
  const kept = movies.get(url)?.body ?? lists.get(url);
  if (kept) return answer(response, 200, kept);
  const found = read(url);
  const send = () => {
    if (!found) return answer(response, 404, NOTHING);
    found.keep();
    answer(response, 200, found.body);
  };
  if (running) afterSync.push(send);
  else send();
});

server.listen(Number(process.env.PORT ?? 8091), '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    closeSync(wal);
    db.close();
    process.exit(0);
  });
}
