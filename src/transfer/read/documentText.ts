/**
 * A cartelera document's text, cut as it arrives into its top object's keys, its values and the
 * items of its lists, each item's text whole (for `JSON.parse`, one object per record instead of a
 * token per value). Strings are followed through their escapes; what JSON.parse judges, the
 * scanner does not: it only finds where each value ends.
 */
export type Part =
  | { kind: 'key'; key: string }
  | { kind: 'value'; text: string }
  | { kind: 'list' }
  | { kind: 'item'; text: string }
  | { kind: 'listEnd' };

/** The text is not JSON; the description says where the scanner found it out. */
export class NotJson extends Error {}

/** The text is JSON, but its top value is not an object. */
export class NotAnObject extends Error {}

/** What comes next at the top: the document, the object's key, its colon, its value, a list's item, or the end. */
type Expect = 'document' | 'key' | 'colon' | 'member' | 'memberEnd' | 'item' | 'itemEnd' | 'end';

interface Value {
  pieces: string[];
  scalar: boolean;
  depth: number;
  inString: boolean;
  escaped: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const STRING_STOP = /["\\]/g;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/** Where a number, `true`, `false` or `null` ends. */
const endsScalar = (c: number) => isSpace(c) || c === 0x2c || c === 0x5d || c === 0x7d;

export class DocumentText {
  private expect: Expect = 'document';
  private afterComma = false;
  private key = '';
  private value: Value | undefined;
  /** Characters scanned in earlier pieces, for the position a problem names. */
  private offset = 0;

  /** `opensList(key)`: whether an array under `key` is a list whose items are handed on one by one. */
  constructor(private readonly opensList: (key: string) => boolean) {}

  /** The parts completed by the next piece of text. */
  *parts(text: string): Generator<Part> {
    let i = 0;
    while (i < text.length) {
      if (this.value) {
        const end = this.valueEnd(text, i);
        if (end < 0) {
          this.value.pieces.push(text.slice(i));
          break;
        }
        const whole = this.value.pieces.length > 0 ? this.value.pieces.join('') + text.slice(i, end) : text.slice(i, end);
        this.value = undefined;
        yield this.completed(whole);
        i = end;
        continue;
      }
      const c = text.charCodeAt(i);
      if (isSpace(c) || (c === 0xfeff && this.expect === 'document' && this.offset + i === 0)) {
        i++;
        continue;
      }
      const part = this.structure(c, this.offset + i);
      if (part) yield part;
      if (!this.value) i++;
    }
    this.offset += text.length;
  }

  /** The part the file's end completes (a number at the very end), once its text is all given. */
  *end(): Generator<Part> {
    if (this.value?.scalar) {
      const whole = this.value.pieces.join('');
      this.value = undefined;
      yield this.completed(whole);
    }
    if (this.expect !== 'end') throw new NotJson(`the text ends at character ${this.offset} before the document does`);
  }

  /** A character between values: structure, or the first of a value (which `value` then follows). */
  private structure(c: number, at: number): Part | undefined {
    const char = String.fromCharCode(c);
    const unexpected = () => new NotJson(`unexpected '${char}' at character ${at}`);
    switch (this.expect) {
      case 'document':
        if (char === '{') return void this.expectNext('key', false);
        if (char === '[') throw new NotAnObject();
        return this.start(char);
      case 'key':
        if (char === '"') return this.start(char);
        if (char === '}' && !this.afterComma) return void this.expectNext('end', false);
        throw unexpected();
      case 'colon':
        if (char === ':') return void this.expectNext('member', false);
        throw unexpected();
      case 'member':
        if (char === '[' && this.opensList(this.key)) {
          this.expectNext('item', false);
          return { kind: 'list' };
        }
        if (',:]}'.includes(char)) throw unexpected();
        return this.start(char);
      case 'memberEnd':
        if (char === ',') return void this.expectNext('key', true);
        if (char === '}') return void this.expectNext('end', false);
        throw unexpected();
      case 'item':
        if (char === ']' && !this.afterComma) {
          this.expectNext('memberEnd', false);
          return { kind: 'listEnd' };
        }
        if (',:]}'.includes(char)) throw unexpected();
        return this.start(char);
      case 'itemEnd':
        if (char === ',') return void this.expectNext('item', true);
        if (char === ']') {
          this.expectNext('memberEnd', false);
          return { kind: 'listEnd' };
        }
        throw unexpected();
      case 'end':
        throw unexpected();
    }
  }

  private expectNext(expect: Expect, afterComma: boolean): void {
    this.expect = expect;
    this.afterComma = afterComma;
  }

  private start(char: string): undefined {
    this.value = { pieces: [], scalar: !'{["'.includes(char), depth: 0, inString: false, escaped: false };
    return undefined;
  }

  /** Where the value being read ends in `text` (the index after it), or -1 when it goes on past it. */
  private valueEnd(text: string, from: number): number {
    const value = this.value as Value;
    if (value.scalar) {
      for (let i = from; i < text.length; i++) if (endsScalar(text.charCodeAt(i))) return i;
      return -1;
    }
    let i = from;
    while (i < text.length) {
      if (value.escaped) {
        value.escaped = false;
        i++;
        continue;
      }
      if (value.inString) {
        // Strings are most of a record's text (an image's base64 is megabytes): skip to the next quote or backslash.
        STRING_STOP.lastIndex = i;
        const stop = STRING_STOP.exec(text);
        if (!stop) return -1;
        i = stop.index;
        if (text.charCodeAt(i) === BACKSLASH) value.escaped = true;
        else {
          value.inString = false;
          if (value.depth === 0) return i + 1;
        }
        i++;
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === QUOTE) value.inString = true;
      else if (c === 0x7b || c === 0x5b) value.depth++;
      else if ((c === 0x7d || c === 0x5d) && --value.depth === 0) return i + 1;
      i++;
    }
    return -1;
  }

  private completed(text: string): Part {
    switch (this.expect) {
      case 'document':
        parsed(text);
        throw new NotAnObject();
      case 'key':
        this.key = parsed(text) as string;
        this.expect = 'colon';
        return { kind: 'key', key: this.key };
      case 'member':
        this.expect = 'memberEnd';
        return { kind: 'value', text };
      default:
        this.expect = 'itemEnd';
        return { kind: 'item', text };
    }
  }
}

/** `text` parsed, or NotJson. */
export function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new NotJson(error instanceof Error ? error.message : String(error));
  }
}
