import { randomUUID } from 'node:crypto';
import { open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A new file of this process's own in the system's temporary folder, for one upload's file while the upload waits its turn. */
export interface TemporaryFile {
  /** Writes `stream` to the file as it arrives, a few chunks in memory at a time. */
  write(stream: Readable): Promise<void>;
  /** Its bytes, read whole; the file is removed then. */
  take(): Promise<Buffer>;
  remove(): Promise<void>;
}

/** A temporary file, created empty; undefined when none can be made (the folder is missing or not writable). */
export async function temporaryFile(): Promise<TemporaryFile | undefined> {
  const path = join(tmpdir(), `cartelera-upload-${randomUUID()}`);
  const handle = await open(path, 'wx', 0o600).catch(() => undefined);
  if (!handle) return undefined;
  let closed = false;
  const remove = async () => {
    if (!closed) await handle.close().catch(() => undefined);
    closed = true;
    await rm(path, { force: true });
  };
  return {
    async write(stream) {
      closed = true;
      await pipeline(stream, handle.createWriteStream());
    },
    async take() {
      const datos = await readFile(path);
      await remove();
      return datos;
    },
    remove,
  };
}
