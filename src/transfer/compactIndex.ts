/**
 * A map of texts or numbers to numbers, held outside the JavaScript heap: typed arrays, the keys
 * as bytes in one buffer, open addressing with linear probing. An import keeps every title and
 * key it has met, so what it keeps grows with the file; on the heap, V8 lets the heap grow to a
 * few times what is live before it collects, so each MB kept there cost several of resident
 * memory (bench/analysis.md, the import). Here one costs one. A key may hold several values
 * (`columns`), each set, got and deleted apart: what an import knows of one title is kept once.
 */
export class CompactIndex<K extends string | number> {
  /** Per slot: 1 + the index of the entry there, 0 when empty; a power of two, at most half full. */
  private slots = new Uint32Array(1024);
  /** Per entry, in the order set: its key's hash, where its bytes start (entry i's end where i + 1's start), its values (NaN: none). */
  private hashes = new Uint32Array(512);
  private starts = new Uint32Array(513);
  private values: Float64Array<ArrayBuffer>;
  private bytes = new Uint8Array(16 * 1024);
  private count = 0;
  /** The key being looked for, as bytes. */
  private scratch = Buffer.alloc(1024);

  constructor(private readonly columns = 1) {
    this.values = new Float64Array(512 * columns);
  }

  get(key: K, column = 0): number | undefined {
    const entry = this.slots[this.slotOf(key)] ?? 0;
    const value = entry === 0 ? NaN : (this.values[(entry - 1) * this.columns + column] ?? NaN);
    return Number.isNaN(value) ? undefined : value;
  }

  has(key: K, column = 0): boolean {
    return this.get(key, column) !== undefined;
  }

  /** `value` must be a number (not NaN). */
  set(key: K, value: number, column = 0): this {
    const slot = this.slotOf(key);
    const entry = this.slots[slot] ?? 0;
    if (entry !== 0) {
      this.values[(entry - 1) * this.columns + column] = value;
      return this;
    }
    const length = this.keyLength;
    const start = this.starts[this.count] ?? 0;
    if (this.count === this.hashes.length) this.growEntries();
    if (start + length > this.bytes.length) this.bytes = grown(this.bytes, start + length);
    this.scratch.copy(this.bytes, start, 0, length);
    this.hashes[this.count] = this.keyHash;
    const at = this.count * this.columns;
    this.values.fill(NaN, at, at + this.columns);
    this.values[at + column] = value;
    this.starts[this.count + 1] = start + length;
    this.slots[slot] = ++this.count;
    if (this.count * 2 > this.slots.length) this.growSlots();
    return this;
  }

  delete(key: K, column = 0): void {
    const entry = this.slots[this.slotOf(key)] ?? 0;
    if (entry !== 0) this.values[(entry - 1) * this.columns + column] = NaN;
  }

  /** Set by slotOf: the key's length in bytes and its hash; the last key looked for and its slot (an import gets a key, then sets it). */
  private keyLength = 0;
  private keyHash = 0;
  private lastKey: K | undefined;
  private lastSlot = 0;

  /** The slot that holds `key`, or the empty one where it would go. */
  private slotOf(key: K): number {
    if (key === this.lastKey) return this.lastSlot;
    this.lastKey = key;
    this.lastSlot = this.probe(key);
    return this.lastSlot;
  }

  private probe(key: K): number {
    const length = this.encode(key);
    let hash = 0x811c9dc5; // FNV-1a
    for (let i = 0; i < length; i++) hash = Math.imul(hash ^ (this.scratch[i] ?? 0), 0x01000193);
    this.keyLength = length;
    this.keyHash = hash >>> 0;
    const mask = this.slots.length - 1;
    for (let slot = this.keyHash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] ?? 0;
      if (entry === 0 || this.holds(entry - 1, length)) return slot;
    }
  }

  private holds(index: number, length: number): boolean {
    const start = this.starts[index] ?? 0;
    const end = this.starts[index + 1] ?? 0;
    return this.hashes[index] === this.keyHash && end - start === length && this.scratch.compare(this.bytes, start, end, 0, length) === 0;
  }

  /** Writes the key's bytes to scratch: a text as UTF-8, a number as its 8 bytes. */
  private encode(key: K): number {
    if (typeof key === 'number') {
      this.scratch.writeDoubleLE(key, 0);
      return 8;
    }
    if (key.length * 3 > this.scratch.length) this.scratch = Buffer.alloc(key.length * 3);
    return this.scratch.write(key, 0, 'utf8');
  }

  private growEntries(): void {
    const size = this.hashes.length * 2;
    this.hashes = new Uint32Array(moved(this.hashes, size * 4));
    this.starts = new Uint32Array(moved(this.starts, (size + 1) * 4));
    this.values = new Float64Array(moved(this.values, size * this.columns * 8));
  }

  private growSlots(): void {
    const size = this.slots.length * 2;
    moved(this.slots, 0);
    this.slots = new Uint32Array(size);
    this.lastKey = undefined;
    const mask = this.slots.length - 1;
    for (let index = 0; index < this.count; index++) {
      let slot = (this.hashes[index] ?? 0) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = index + 1;
    }
  }
}

/** `bytes` at least `size` long, doubling. */
function grown(bytes: Uint8Array<ArrayBuffer>, size: number): Uint8Array<ArrayBuffer> {
  let length = bytes.length * 2;
  while (length < size) length *= 2;
  return new Uint8Array(moved(bytes, length));
}

/**
 * An array's bytes in a buffer of `length` bytes (the rest zeros), the array's own memory freed
 * now: a grown copy's old one would otherwise stay until V8's next full collection, which comes
 * late for memory outside its heap, and an import's arrays double several times.
 */
function moved(array: { buffer: ArrayBuffer }, length: number): ArrayBuffer {
  return array.buffer.transfer(length);
}
