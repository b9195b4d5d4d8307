import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { getSystemErrorMessage } from 'node:util';

/** A file that could not be written, said in one line: which, and the system's reason. */
export class FileNotWritten extends Error {}

/**
 * Writes the file at `path` whole or not at all. `write` fills a temporary file in the same folder
 * (so that the rename is atomic), which is flushed to disk, then renamed to `path`. On any failure
 * (a full disk, a read-only file system) the temporary file is removed and whatever was at `path`
 * is left as it was.
 */
export async function writeWholeFile(path: string, write: (out: Writable) => Promise<void>): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.parcial`);
  const out = createWriteStream(temporary, { flush: true });
  // The stream's error ends the wait for `write`, which may be waiting for a drain that never comes.
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  try {
    await Promise.race([write(out), failed]);
    out.end();
    await finished(out);
    await rename(temporary, path);
  } catch (error) {
    out.destroy();
    await rm(temporary, { force: true }).catch(() => undefined);
    throw new FileNotWritten(`${path}: not written (${reasonOf(error)}); nothing was left under that name`);
  }
}

function reasonOf(error: unknown): string {
  const errno = (error as NodeJS.ErrnoException | undefined)?.errno;
  if (typeof errno === 'number') return getSystemErrorMessage(errno);
  return error instanceof Error ? error.message : String(error);
}
