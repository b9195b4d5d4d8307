import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { parser } from 'stream-json/parser.js';
import { firstInexactNumber } from '../../catalogue/numbers.js';
import type { AnyResource } from '../../resources/define.js';
import { transferred as resources } from '../../resources/index.js';
import { DOCUMENT } from '../export.js';
import { DocumentText, NotAnObject, NotJson, parsed, type Part } from './documentText.js';
import { BATCH, UnreadableInput, type Incoming, type Place } from './types.js';

const byName = new Map(resources.map((r) => [r.name.toLowerCase(), r]));
/** A JSON list's or NDJSON line's resource, by its path name. */
const listNamed = (name: unknown) => (typeof name === 'string' ? byName.get(name.toLowerCase()) : undefined);

/**
 * A batch is handed on at BATCH records, or after a record that carries a file (an image's
 * original, up to IMAGE_MAX_BYTES in base64): never many files held at once.
 */
const full = (batch: Incoming[]) => {
  const last = batch.at(-1);
  return batch.length >= BATCH || (last !== undefined && 'resource' in last && last.resource.file !== undefined && last.resource.file in last.record);
};

/** `{"formato":"cartelera","version":1,…,"peliculas":[…],…}`, read a piece at a time, each record's text parsed whole. */
export async function* readDocument(file: string, bytesRead: (n: number) => void): AsyncGenerator<Incoming[]> {
  let key = '';
  let list: { resource?: AnyResource; name: string; position: number } | undefined;
  const header: Record<string, unknown> = {};
  const text = new DocumentText((name) => !(name in header));
  function take(part: Part, out: Incoming[]): void {
    switch (part.kind) {
      case 'key':
        key = part.key;
        return;
      case 'value':
        header[key] = parsed(part.text);
        return;
      case 'list': {
        const resource = listNamed(key);
        if (resource?.name !== key) out.push({ problem: `unknown list '${key}' (expected ${resources.map((r) => r.name).join(', ')})`, place: { file } });
        list = { resource: resource?.name === key ? resource : undefined, name: key, position: 0 };
        return;
      }
      case 'listEnd':
        list = undefined;
        return;
      case 'item': {
        const record = parsed(part.text);
        if (!list) return;
        const place = { file, list: list.name, position: ++list.position };
        if (list.resource) out.push(isRecord(record) ? { resource: list.resource, record: keptExact(part.text, record), place } : { problem: 'not a JSON object', place });
      }
    }
  }
  let batch: Incoming[] = [];
  try {
    const decoder = new StringDecoder('utf8');
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      bytesRead(chunk.length);
      for (const part of text.parts(decoder.write(chunk))) {
        take(part, batch);
        if (full(batch)) {
          yield batch;
          batch = [];
        }
      }
    }
    for (const part of [...text.parts(decoder.end()), ...text.end()]) take(part, batch);
  } catch (error) {
    if (error instanceof NotAnObject) throw new UnreadableInput(`${file}: not a cartelera document (an object was expected)`);
    // stream-json's words for what is wrong, as this reader has always named it; the scanner's own when it finds nothing.
    const problem = error instanceof NotJson ? ((await streamJsonProblem(file)) ?? error.message) : error instanceof Error ? error.message : String(error);
    throw new UnreadableInput(`${file}: not valid JSON (${problem})`);
  }
  if (batch.length > 0) yield batch;
  if (header.formato !== DOCUMENT.formato || header.version !== DOCUMENT.version) {
    throw new UnreadableInput(`${file}: not a cartelera document of version ${DOCUMENT.version} ("formato":"${DOCUMENT.formato}","version":${DOCUMENT.version})`);
  }
}

/** What stream-json's parser says is wrong with `file`'s JSON, read through once more; undefined when it finds nothing. */
async function streamJsonProblem(file: string): Promise<string | undefined> {
  try {
    for await (const token of createReadStream(file).pipe(parser.asStream({ packValues: true, streamValues: false }))) void token;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return undefined;
}

/** As the API does: a number the parse rounded stays the text it was, and validation refuses it naming its field. */
function keptExact(text: string, record: Record<string, unknown>): Record<string, unknown> {
  const inexact = firstInexactNumber(text);
  if (inexact?.key !== undefined && inexact.key in record) record[inexact.key] = inexact.literal;
  return record;
}

/** One `{"recurso":…,"registro":{…}}` a line; blank lines are skipped. */
export async function* readNdjson(file: string, bytesRead: (n: number) => void): AsyncGenerator<Incoming[]> {
  let line = 0;
  let batch: Incoming[] = [];
  for await (const text of linesOf(file, bytesRead)) {
    line++;
    if (text.trim() !== '') batch.push(ndjsonEntry(text, { file, line }));
    if (full(batch)) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Where a line ends, as readline has it: `\r\n`, `\n`, or a `\r` alone. */
const LINE_END = /\r\n|\n|\r/g;

/**
 * The lines of `file`, read a piece at a time as they are asked for. readline reads ahead up to a
 * thousand lines whatever its reader takes, and an NDJSON line may carry an image's original: a
 * file of large images would be held whole.
 */
async function* linesOf(file: string, bytesRead: (n: number) => void): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let pieces: string[] = [];
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    bytesRead(chunk.length);
    let text = decoder.write(chunk);
    // A \r at the end of a piece may be the first half of a \r\n: it waits for the next piece.
    const held = text.endsWith('\r') ? '\r' : '';
    if (held) text = text.slice(0, -1);
    if (pieces.length > 0 && pieces[pieces.length - 1] === '\r') text = pieces.pop() + text;
    let from = 0;
    for (const end of text.matchAll(LINE_END)) {
      pieces.push(text.slice(from, end.index));
      yield pieces.join('');
      pieces = [];
      from = end.index + end[0].length;
    }
    pieces.push(text.slice(from));
    if (held) pieces.push(held);
  }
  const rest = pieces.join('') + decoder.end();
  if (rest === '\r') yield '';
  else if (rest !== '') yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
}

function ndjsonEntry(text: string, place: Place): Incoming {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    return { problem: 'not valid JSON', place };
  }
  const resource = isRecord(entry) ? listNamed(entry.recurso) : undefined;
  if (!isRecord(entry) || !resource || !isRecord(entry.registro)) {
    return { problem: `not a {"recurso":…,"registro":{…}} line naming one of ${resources.map((r) => r.name).join(', ')}`, place };
  }
  return { resource, record: keptExact(text, entry.registro), place };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
