/**
 * The comparable form of a text: trimmed, without diacritics, case-folded. "La Canción " and
 * "la cancion" share the comparable form "la cancion". Titles and names are unique by it, and
 * looked up, filtered, searched and sorted by it, so a lookup can never match two records. (A
 * table keeps each text field's comparable form in its column `<field>_clave`: db/schema.ts.)
 */
export function comparable(value: string): string {
  return value
    .trim()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    // toUpperCase first folds characters that have no one-letter lower case (ß → SS → ss).
    .toUpperCase()
    .toLowerCase()
    .normalize('NFC');
}

/** `row` plus, for each text field named, its comparable form in its column `<field>_clave`. */
export function withComparables(row: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const withForms: Record<string, unknown> = { ...row };
  // A field that may be empty (an image's credito) has no comparable form then.
  for (const field of fields) withForms[`${field}_clave`] = row[field] === null ? null : comparable(String(row[field]));
  return withForms;
}
