import { hash } from 'node:crypto';

/** A strong ETag of the exact bytes answered: `"` + base64url(SHA-1) + `"`. */
export function etagOf(serialized: string | Buffer): string {
  return `"${hash('sha1', serialized, 'base64url')}"`;
}
