/** Text of ASCII characters alone (control characters included): no diacritics, and lower case is its fold. */
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/**
 * The comparable form of a text: trimmed, without diacritics, case-folded. "La Canción " and
 * "la cancion" share the comparable form "la cancion". Titles and names are unique by it, and
 * looked up, filtered, searched and sorted by it, so a lookup can never match two records. (A
 * table keeps each text field's comparable form in its column `<field>_clave`: db/schema.ts.)
 */
export function comparable(value: string): string {
  // ASCII has no diacritics and folds as it lowers: an import folds a long synopsis per record.
  if (ASCII.test(value)) return value.trim().toLowerCase();
  return value
    .trim()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    // toUpperCase first folds characters that have no one-letter lower case (ß → SS → ss).
    .toUpperCase()
    .toLowerCase()
    .normalize('NFC');
}

/**
 * `row` plus, for each text field named that it holds, its comparable form in its column
 * `<field>_clave` (an update that leaves a field out leaves its comparable form as stored).
 */
export function withComparables(row: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const withForms: Record<string, unknown> = { ...row };
  // A text that may be null has a null comparable form.
  for (const field of fields) if (field in row) withForms[`${field}_clave`] = row[field] === null ? null : comparable(String(row[field]));
  return withForms;
}
