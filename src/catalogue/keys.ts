/**
 * The comparison key of titles and names: trimmed, without diacritics, case-folded.
 * "La Canción " and "la cancion" share the key "la cancion". The unique indexes and the
 * lookups both use it, so a lookup can never match two records.
 */
export function normalizeKey(value: string): string {
  return value
    .trim()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    // toUpperCase first folds characters that have no one-letter lower case (ß → SS → ss).
    .toUpperCase()
    .toLowerCase()
    .normalize('NFC');
}

/** `row` plus the normalized key column of each text field named: what a store writes. */
export function withKeys<T extends Record<K, string>, K extends string>(
  row: T,
  ...fields: K[]
): T & Record<`${K}_clave`, string> {
  const keys = Object.fromEntries(fields.map((field) => [`${field}_clave`, normalizeKey(row[field])]));
  return { ...row, ...keys } as T & Record<`${K}_clave`, string>;
}
