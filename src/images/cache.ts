import { mkdirSync, rmSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** Renditions encoded since start: what asking again for a kept one does not add to. */
export const encodings = { count: 0 };

/**
 * Renditions made once and kept on disk, within `maxBytes` (the least recently used go first). A
 * rendition's key holds its image's id and its strong ETag, which changes with the image: when it
 * changes, the image's other renditions are dropped. Two requests for the same new rendition wait
 * for one encoding, and at most as many encode at once as there are cores.
 */
export class RenditionCache {
  /** Kept files by key, least recently used first (a Map keeps insertion order). */
  private readonly kept = new Map<string, number>();
  private bytes = 0;
  private readonly making = new Map<string, Promise<Buffer>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly slots = availableParallelism();

  /** False when the folder cannot be written (a read-only or full disk): renditions are then made each time. */
  private usable = true;

  constructor(private readonly folder: string, private readonly maxBytes: number) {
    // What an earlier run kept is not known to this one: start empty.
    try {
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder, { recursive: true });
    } catch {
      this.usable = false;
    }
  }

  /** The rendition `tag` of image `id`, kept or made now by `make`. */
  async get(id: number, tag: string, make: () => Promise<Buffer>): Promise<Buffer> {
    const key = `${id}-${tag.replace(/[^A-Za-z0-9_-]/g, '')}`;
    if (this.kept.has(key)) {
      const size = this.kept.get(key) ?? 0;
      this.kept.delete(key);
      this.kept.set(key, size);
      const body = await readFile(join(this.folder, key)).catch(() => undefined);
      if (body) return body;
      this.forget(key);
    }
    let made = this.making.get(key);
    if (!made) {
      made = this.encode(id, key, make).finally(() => this.making.delete(key));
      this.making.set(key, made);
    }
    return made;
  }

  private async encode(id: number, key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    // A slot freed goes straight to the longest waiting, so no newcomer slips past the limit.
    if (this.running >= this.slots) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    let body: Buffer;
    try {
      body = await make();
      encodings.count++;
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
    for (const other of [...this.kept.keys()]) if (other.startsWith(`${id}-`)) this.forget(other);
    if (this.usable && body.length <= this.maxBytes) {
      const temporary = join(this.folder, `${key}.${process.pid}.tmp`);
      // A disk that takes no more only costs the keeping: the answer goes out all the same.
      const kept = await writeFile(temporary, body).then(() => rename(temporary, join(this.folder, key))).then(() => true, () => false);
      if (!kept) {
        rm(temporary, { force: true }).catch(() => undefined);
        return body;
      }
      this.kept.set(key, body.length);
      this.bytes += body.length;
      for (const [oldest] of this.kept) {
        if (this.bytes <= this.maxBytes) break;
        this.forget(oldest);
      }
    }
    return body;
  }

  /** Removes the kept renditions (the service closing, with a folder of its own in the temporary folder). */
  clear(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }

  private forget(key: string): void {
    this.bytes -= this.kept.get(key) ?? 0;
    this.kept.delete(key);
    rm(join(this.folder, key), { force: true }).catch(() => undefined);
  }
}

/**
 * Where renditions are kept: the folder configured, else `renditions` beside the SQLite file, else
 * a folder of this process's own in the system's temporary folder (removed when it closes).
 */
export function cacheFolder(configured: string | undefined, databaseUrl: string): { path: string; temporary: boolean } {
  if (configured) return { path: resolve(configured), temporary: false };
  const file = databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : '';
  if (file && file !== ':memory:') return { path: join(dirname(resolve(file)), 'renditions'), temporary: false };
  return { path: join(tmpdir(), `cartelera-renditions-${randomUUID()}`), temporary: true };
}
