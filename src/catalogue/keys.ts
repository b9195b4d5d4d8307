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

/** `row` plus, for each text field named, its normalized key column `<field>_clave`. */
export function withKeys(row: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const keyed: Record<string, unknown> = { ...row };
  for (const field of fields) keyed[`${field}_clave`] = normalizeKey(String(row[field]));
  return keyed;
}
