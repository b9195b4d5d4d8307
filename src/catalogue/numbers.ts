const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const NUMBER = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

// Numbers as JSON writes them. `JSON.parse` turns 9007199254740990.5 into the integer
// 9007199254740990, which validation would accept; the contract says such values are refused,
// never rounded. These find the literals a parse could not keep exactly.

/**
 * The first number literal of a valid JSON text whose parsed value is not exactly what it says,
 * with the key it is the value of, when it is one; but for the values of keys `rounded` names,
 * which are decimals a field keeps to a few places (a venue's coordinates).
 */
export function firstInexactNumber(json: string, rounded: (key: string) => boolean = () => false): { literal: string; key?: string } | undefined {
  // Only a literal with a fraction or an exponent can be inexact: a digit right before `.`, `e` or
  // `E` somewhere. Most bodies have none, and skip the scan.
  if (!/\d[.eE]/.test(json)) return undefined;
  let previous: { text: string; end: number } | undefined;
  for (const match of json.matchAll(TOKEN)) {
    const [token] = match;
    if (!token.startsWith('"') && !isExact(token)) {
      const isValueOf = previous?.text.startsWith('"') && json.slice(previous.end, match.index).trim() === ':';
      const key = isValueOf && previous ? (JSON.parse(previous.text) as string) : undefined;
      if (key === undefined) return { literal: token };
      if (!rounded(key)) return { literal: token, key };
    }
    previous = { text: token, end: match.index + token.length };
  }
  return undefined;
}

export function isExact(literal: string): boolean {
  // A plain integer literal rounds only beyond 2^53, past every integer field's maximum, so
  // validation refuses it by name.
  if (!/[.eE]/.test(literal)) return true;
  const value = Number(literal);
  // Fractions stay fractions after parsing, and validation judges them; only integers can hide a rounding.
  if (!Number.isInteger(value)) return Number.isFinite(value);
  const [, whole = '', fraction = '', exponentText = '0'] = NUMBER.exec(literal) ?? [];
  const digits = BigInt(whole + fraction);
  if (digits === 0n) return true;
  const exponent = Number(exponentText) - fraction.length;
  // Beyond these exponents no integer a double holds can be written exactly (bounds the BigInt work).
  if (exponent > 400 || exponent < -400) return false;
  const scale = 10n ** BigInt(Math.abs(exponent));
  if (exponent < 0 && digits % scale !== 0n) return false;
  const written = exponent >= 0 ? digits * scale : digits / scale;
  return written === BigInt(Math.abs(value));
}

/** The value of a JSON number literal, when parsing keeps it exactly. */
export function exactNumber(literal: string): number | undefined {
  return isExact(literal) ? Number(literal) : undefined;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** The number a decimal string (`-?digits(.digits)?`) writes, as a query parameter sends one; undefined for other text. */
export const decimal = (text: string): number | undefined => (DECIMAL.test(text.trim()) ? Number(text.trim()) : undefined);

/**
 * A number rounded to 6 decimals, to the nearest (a half away from zero), from a JSON number or a
 * decimal string (`-?digits(.digits)?`); undefined for anything else. Rounded on its decimal
 * digits, so `40.4168385` is 40.416839 whatever its binary form.
 */
export function decimal6(value: unknown): number | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? value.toFixed(Math.abs(value) < 1e-6 ? 20 : 10) : value;
  if (typeof text !== 'string') return undefined;
  const parts = DECIMAL.exec(text.trim());
  if (!parts) return undefined;
  const [, sign = '', whole = '', fraction = ''] = parts;
  const digits = BigInt(whole + fraction.padEnd(7, '0').slice(0, 7));
  const rounded = (digits + 5n) / 10n;
  const result = Number(rounded) / 1e6;
  return sign === '-' && result !== 0 ? -result : result;
}
