import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Incoming } from '../../src/transfer/read/types.js';
import { tempDir } from '../tempDir.js';

/** A file named `name` holding `text`, in a folder of its own removed when the test's process exits. */
export function fileWith(name: string, text: string): string {
  const file = join(tempDir('cartelera-reader-'), name);
  writeFileSync(file, text);
  return file;
}

/** Every entry a file reader yields, its batches joined. */
export async function readAll(reader: (file: string, progress: () => void) => AsyncIterable<Incoming[]>, file: string): Promise<Incoming[]> {
  const read: Incoming[] = [];
  for await (const batch of reader(file, () => {})) read.push(...batch);
  return read;
}
