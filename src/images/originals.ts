/**
 * The originals read last to make renditions, kept in memory within `maxBytes` (the least recently
 * used go first), by digest: the renditions of one image come in bursts (a page asks for several
 * sizes and formats of the same poster), and reading a picture of several MB from the store for
 * each, then dropping it, cost more than the store's read: the garbage collector's work on every
 * large buffer let go.
 */
export class RecentOriginals {
  private readonly kept = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The original with `digest`, kept or read now by `read`. */
  async get(digest: string, read: () => Promise<Uint8Array>): Promise<Buffer> {
    const known = this.kept.get(digest);
    if (known) {
      this.kept.delete(digest);
      this.kept.set(digest, known);
      return known;
    }
    const stored = await read();
    // The store's bytes as they are: a view, not a copy.
    const datos = Buffer.isBuffer(stored) ? stored : Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
    if (datos.length <= this.maxBytes && !this.kept.has(digest)) {
      this.kept.set(digest, datos);
      this.bytes += datos.length;
      for (const [oldest, kept] of this.kept) {
        if (this.bytes <= this.maxBytes) break;
        this.kept.delete(oldest);
        this.bytes -= kept.length;
      }
    }
    return datos;
  }
}
