import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import Assembler from 'stream-json/assembler.js';
import { parser } from 'stream-json/parser.js';
import { exactNumber, firstInexactNumber } from '../../catalogue/numbers.js';
import type { AnyResource } from '../../resources/define.js';
import { transferred as resources } from '../../resources/index.js';
import { DOCUMENT } from '../export.js';
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

function counted(file: string, bytesRead: (n: number) => void): Readable {
  const stream = createReadStream(file);
  stream.on('data', (chunk) => bytesRead(chunk.length));
  return stream;
}

/** `{"formato":"cartelera","version":1,…,"peliculas":[…],…}`, read a page of records at a time. */
export async function* readDocument(file: string, bytesRead: (n: number) => void): AsyncGenerator<Incoming[]> {
  // Numbers stay text until exactNumber has judged them: a rounded number must be refused, as the API does.
  const tokens = counted(file, bytesRead).pipe(parser.asStream({ packValues: true, streamValues: false }));
  let depth = 0;
  let key: string | undefined;
  let list: { resource?: AnyResource; name: string; position: number } | undefined;
  let value: Assembler | undefined;
  const header: Record<string, unknown> = {};
  function take(token: parser.Token, out: Incoming[]): void {
    if (!value) {
      if (depth === 0) {
        if (token.name !== 'startObject') throw new UnreadableInput(`${file}: not a cartelera document (an object was expected)`);
        depth = 1;
        return;
      }
      if (!list) {
        if (token.name === 'keyValue') {
          key = token.value;
          return;
        }
        if (token.name === 'endObject') {
          depth = 0;
          return;
        }
        if (token.name === 'startArray' && key !== undefined && !(key in header)) {
          const resource = listNamed(key);
          if (resource?.name !== key) out.push({ problem: `unknown list '${key}' (expected ${resources.map((r) => r.name).join(', ')})`, place: { file } });
          list = { resource: resource?.name === key ? resource : undefined, name: key, position: 0 };
          return;
        }
      } else if (token.name === 'endArray') {
        list = undefined;
        return;
      }
      value = new Assembler({ numberAsString: true });
    }
    value.consume(exactly(token));
    if (!value.done) return;
    const done = value.current;
    value = undefined;
    if (!list) {
      if (key !== undefined) header[key] = done;
      return;
    }
    const place = { file, list: list.name, position: ++list.position };
    if (list.resource) out.push(isRecord(done) ? { resource: list.resource, record: done, place } : { problem: 'not a JSON object', place });
  }
  try {
    yield* inBatches(tokens, take);
  } catch (error) {
    if (error instanceof UnreadableInput) throw error;
    throw new UnreadableInput(`${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (header.formato !== DOCUMENT.formato || header.version !== DOCUMENT.version) {
    throw new UnreadableInput(`${file}: not a cartelera document of version ${DOCUMENT.version} ("formato":"${DOCUMENT.formato}","version":${DOCUMENT.version})`);
  }
}

/**
 * A number token as its value when that is exact, or as its text, which validation refuses as it
 * refuses the API's inexact numbers. (With numberAsString, the assembler keeps what it is given.)
 */
function exactly(token: parser.Token): parser.Token {
  if (token.name !== 'numberValue') return token;
  return { name: 'numberValue', value: (exactNumber(token.value) ?? token.value) as string };
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
  // As the API does: a number the parse rounded is refused, naming its field.
  const inexact = firstInexactNumber(text);
  if (inexact?.key !== undefined && inexact.key in entry.registro) entry.registro[inexact.key] = inexact.literal;
  return { resource, record: entry.registro, place };
}

/**
 * What `take` makes of each item `source` emits, in batches: items are handled as they arrive, and
 * the source waits while a full batch is not yet taken.
 */
async function* inBatches<T>(source: Readable, take: (item: T, out: Incoming[]) => void): AsyncGenerator<Incoming[]> {
  let out: Incoming[] = [];
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const poke = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  source.on('data', (item: T) => {
    try {
      take(item, out);
    } catch (error) {
      failure ??= error;
      source.destroy();
    }
    if (full(out) || failure !== undefined) {
      source.pause();
      poke();
    }
  });
  source.once('end', () => {
    ended = true;
    poke();
  });
  source.once('error', (error) => {
    failure ??= error;
    poke();
  });
  try {
    for (;;) {
      if (failure !== undefined) throw failure;
      if (full(out) || (ended && out.length > 0)) {
        const batch = out;
        out = [];
        yield batch;
        source.resume();
      } else if (ended) {
        return;
      } else {
        await new Promise<void>((resolve) => (wake = resolve));
      }
    }
  } finally {
    source.destroy();
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
