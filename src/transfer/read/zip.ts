import { Unzip, UnzipInflate, UnzipPassThrough, unzipSync } from 'fflate';

/** The most bytes a workbook's parts may unpack to: a catalogue of 100,000 movies takes about a tenth. */
export const MOST_UNPACKED = 256 * 1024 * 1024;

/**
 * What a workbook (a zip archive, .xlsx or .ods) says its parts unpack to, read from its
 * directory without unpacking anything, so that a small file that would fill memory is refused
 * before it is read; undefined for bytes that are no zip archive.
 */
export function unpackedSize(bytes: Uint8Array): number | undefined {
  let total = 0;
  try {
    unzipSync(bytes, { filter: (part) => ((total += part.originalSize), false) });
  } catch {
    return undefined;
  }
  return total;
}

/** The most bytes of a part decoded at once. */
const TEXT_SLICE = 32 * 1024;

/** A part of an archive read as it unpacks: its text a piece at a time, then its end. */
export interface PartReader {
  write(text: string): void;
  close(): void;
}

/**
 * The archive pushed a piece at a time (64 KiB), each part that `open` gives a reader for decoded
 * as UTF-8 and handed to it as it unpacks, the others skipped; yields each piece's size once it is
 * read. `open` is asked of every part, in the archive's order. Throws when the archive cannot be
 * read, a part is not UTF-8, one ends early, or the parts read unpack past MOST_UNPACKED.
 */
export function* unpackingParts(bytes: Uint8Array, open: (name: string) => PartReader | undefined): Generator<number> {
  let unpacked = 0;
  const unfinished = new Set<string>();
  const unzip = new Unzip((entry) => {
    const reader = open(entry.name);
    if (!reader) return;
    unfinished.add(entry.name);
    const text = new TextDecoder('utf-8', { fatal: true });
    entry.ondata = (error, chunk, final) => {
      if (error) throw error;
      // The directory's sizes may lie: what is really unpacked counts too.
      if ((unpacked += chunk.length) > MOST_UNPACKED) throw new Error(`${entry.name} unpacks past the most allowed`);
      // In slices: text of a few pages dies young, where a large piece's would wait for a full collection.
      for (let at = 0; at < chunk.length; at += TEXT_SLICE) reader.write(text.decode(chunk.subarray(at, at + TEXT_SLICE), { stream: true }));
      if (final) {
        reader.write(text.decode());
        reader.close();
        unfinished.delete(entry.name);
      }
    };
    entry.start();
  });
  unzip.register(UnzipPassThrough);
  unzip.register(UnzipInflate);
  const PIECE = 64 * 1024;
  for (let at = 0; at < bytes.length; at += PIECE) {
    const piece = bytes.subarray(at, at + PIECE);
    unzip.push(piece, at + PIECE >= bytes.length);
    yield piece.length;
  }
  if (unfinished.size > 0) throw new Error(`${[...unfinished].join(', ')} ends early`);
}

/**
 * What a reader tells of an archive it walks through several times: each walk an equal share of
 * its size, so that what is told reaches the size as the last walk ends, never before. `walks` is
 * how many there will be as far as is known; a reader that learns more says how many are left with `expect`.
 */
export type Walks = ReturnType<typeof walksOver>;

export function walksOver(size: number, bytesRead: (n: number) => void, walks: number) {
  let done = 0;
  let told = 0;
  const tell = (fraction: number) => {
    const now = Math.min(size, Math.floor(size * fraction));
    if (now > told) bytesRead(now - told);
    told = Math.max(told, now);
  };
  /** Bytes of the archive the walk under way has pushed. */
  const at = (pushed: number) => tell((done + pushed / size) / walks);
  const walked = () => tell(++done / walks);
  return {
    expect: (left: number) => void (walks = done + Math.max(left, 1)),
    at,
    walked,
    /** A whole walk: each piece `pieces` yields told as it is pushed, until `enough` says the rest is not needed. */
    walk(pieces: Iterable<number>, enough: () => boolean = () => false) {
      let pushed = 0;
      for (const piece of pieces) {
        at((pushed += piece));
        if (enough()) break;
      }
      walked();
    },
    /** The rest, once the reader is through (walks it found it did not need). */
    end: () => tell(1),
  };
}
