import type { Place } from './read/types.js';

/** The field of a place that counts records: a spreadsheet's row, a list's position, an NDJSON line. */
const COUNTERS = ['row', 'position', 'line'] as const;
/** Places that differ only in that number share a shape (their file, sheet or list); a code keeps the shape's index in its low bits. */
const SHAPES = 2 ** 20;

/**
 * Places as single numbers, for an import to keep where each title and key first came without an
 * object per record (CompactIndex holds numbers).
 */
export class PlaceCodes {
  private readonly shapes: Place[] = [];
  private readonly shapeIndex = new Map<string, number>();

  /** The last place coded and its shape's index: a file's records come one after another. */
  private last: { place: Place; index: number } | undefined;

  code(place: Place): number {
    const counter = COUNTERS.find((name) => place[name] !== undefined);
    const number = counter ? (place[counter] ?? 0) : 0;
    if (this.last && sameShape(this.last.place, place)) return number * SHAPES + this.last.index;
    const shape: Place = counter ? { ...place, [counter]: 0 } : { ...place };
    const text = JSON.stringify(shape);
    let index = this.shapeIndex.get(text);
    if (index === undefined) {
      index = this.shapes.length;
      if (index >= SHAPES) throw new Error(`more than ${SHAPES} files, sheets and lists in one import`);
      this.shapes.push(shape);
      this.shapeIndex.set(text, index);
    }
    this.last = { place, index };
    return number * SHAPES + index;
  }

  place(code: number): Place {
    const index = code % SHAPES;
    const shape = this.shapes[index];
    if (!shape) throw new Error(`no place coded ${code}`);
    const counter = COUNTERS.find((name) => shape[name] !== undefined);
    return counter ? { ...shape, [counter]: (code - index) / SHAPES } : { ...shape };
  }
}

/** Whether two places differ at most in their counter's value (and so share a shape). */
function sameShape(a: Place, b: Place): boolean {
  return a.file === b.file && a.sheet === b.sheet && a.list === b.list && COUNTERS.every((name) => (a[name] === undefined) === (b[name] === undefined));
}
