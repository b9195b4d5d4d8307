import { mkdirSync, rmSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { lowerEncoderPriority } from './priority.js';
import { Slots } from './slots.js';

/** Renditions encoded since start: what asking again for a kept one does not add to. */
export const encodings = { count: 0 };

/**
 * Renditions made once and kept on disk, within `maxBytes` (the least recently used go first). A
 * rendition's key holds its image's id and its strong ETag, which changes with the image: when it
 * changes, the image's renditions made before are dropped as the first new one is made. Two requests for the same new rendition wait
 * for one encoding, and at most as many encode at once as there are cores.
 */
export class RenditionCache {
  /** Kept files by key, least recently used first (a Map keeps insertion order): their size, and their image's state. */
  private readonly kept = new Map<string, { size: number; state: string }>();
  private bytes = 0;
  private readonly making = new Map<string, Promise<Buffer>>();
  private readonly slots = new Slots(availableParallelism());

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

  /**
   * The rendition `tag` of image `id`, kept or made now by `make`. `state` is what of the image its
   * renditions depend on (its file and focal point): those made from another state are dropped.
   */
  async get(id: number, state: string, tag: string, make: () => Promise<Buffer>): Promise<Buffer> {
    const key = `${id}-${tag.replace(/[^A-Za-z0-9_-]/g, '')}`;
    const known = this.kept.get(key);
    if (known) {
      this.kept.delete(key);
      this.kept.set(key, known);
      const body = await readFile(join(this.folder, key)).catch(() => undefined);
      if (body) return body;
      this.forget(key);
    }
    let made = this.making.get(key);
    if (!made) {
      made = this.encode(id, state, key, make).finally(() => this.making.delete(key));
      this.making.set(key, made);
    }
    return made;
  }

  private async encode(id: number, state: string, key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    const body = await this.slots.run(async () => {
      try {
        return await make();
      } finally {
        lowerEncoderPriority();
      }
    });
    encodings.count++;
    for (const [other, { state: was }] of [...this.kept]) if (other.startsWith(`${id}-`) && was !== state) this.forget(other);
    if (this.usable && body.length <= this.maxBytes) {
      const temporary = join(this.folder, `${key}.${process.pid}.tmp`);
      // A disk that takes no more only costs the keeping: the answer goes out all the same.
      const kept = await writeFile(temporary, body).then(() => rename(temporary, join(this.folder, key))).then(() => true, () => false);
      if (!kept) {
        rm(temporary, { force: true }).catch(() => undefined);
        return body;
      }
      this.kept.set(key, { size: body.length, state });
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
    this.bytes -= this.kept.get(key)?.size ?? 0;
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
