import { createWriteStream, mkdirSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { constants } from 'node:os';
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
export function writeWholeFile(path: string, write: (out: Writable) => Promise<void>): Promise<void> {
  return writeWholeFileAt(path, (temporary) => writeStream(temporary, write));
}

/** Files of one folder, each named and filled by `write` (`file(name, write)`). */
export type FolderWriter = (file: (name: string, write: (out: Writable) => Promise<void>) => Promise<void>) => Promise<void>;

/**
 * Writes files into `folder` all or none: each is filled under a temporary name beside where it
 * goes, and only once every one is whole are they renamed into place. On any failure the temporary
 * files are removed, and the folder too if this made it: the folder is left as it was.
 */
export async function writeWholeFiles(folder: string, each: FolderWriter): Promise<void> {
  let made: string | undefined;
  const whole: [temporary: string, path: string][] = [];
  try {
    made = mkdirSync(folder, { recursive: true });
    await each(async (name, write) => {
      const path = join(folder, name);
      const temporary = temporaryFor(path);
      whole.push([temporary, path]);
      await writeStream(temporary, write);
    });
    for (const [temporary, path] of whole) await rename(temporary, path);
  } catch (error) {
    for (const [temporary] of whole) await rm(temporary, { force: true }).catch(() => undefined);
    if (made !== undefined) await rm(made, { recursive: true, force: true }).catch(() => undefined);
    throw new FileNotWritten(`${folder}: not written (${reasonOf(error)}); the folder was left as it was`);
  }
}

/** Fills the file at `path` through a stream, flushed to disk before this settles. */
async function writeStream(path: string, write: (out: Writable) => Promise<void>): Promise<void> {
  const out = createWriteStream(path, { flush: true });
  // The stream's error ends the wait for `write`, which may be waiting for a drain that never comes.
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  try {
    await Promise.race([write(out), failed]);
    out.end();
    await finished(out);
  } finally {
    out.destroy();
  }
}

const temporaryFor = (path: string) => join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.parcial`);

/**
 * The same for a file that something else writes by its name (SQLite's backup): `write` makes the
 * temporary file it is given, on disk, whole; it is then renamed to `path`.
 */
export async function writeWholeFileAt(path: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = temporaryFor(path);
  try {
    await write(temporary);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw new FileNotWritten(`${path}: not written (${reasonOf(error)}); nothing was left under that name`);
  }
}

function reasonOf(error: unknown): string {
  const { errno, code } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof errno === 'number') return getSystemErrorMessage(errno);
  // SQLite says "database or disk is full"; the system's own words are the same as for any other file.
  if (code === 'SQLITE_FULL') return getSystemErrorMessage(-constants.errno.ENOSPC);
  return error instanceof Error ? error.message : String(error);
}
