import { unzipSync } from 'fflate';

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
