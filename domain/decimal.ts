import Big from "big.js";

/**
 * Exact decimal handling. JSON numbers arrive as doubles; the shortest decimal that
 * round-trips (what the client most likely typed) is taken as the exact value, and all
 * arithmetic after that is decimal (big.js), never float.
 */
export function decimalOf(n: number): Big {
  return new Big(n);
}

export function decimalPlaces(n: number | string | Big): number {
  const s = (n instanceof Big ? n : new Big(n)).toFixed();
  const dot = s.indexOf(".");
  return dot === -1 ? 0 : s.length - dot - 1;
}

/** A stored numeric (string) as a JSON number for output. */
export function toJsonNumber(value: string | null): number | null {
  return value === null ? null : Number(value);
}

export { Big };

/**
 * Whether the decimal `text` (JSON or query number syntax) is exactly the value of the double
 * it parses to, taking the shortest round-trip decimal (String(n)) as the double's value.
 * `49.90` and `1e2` are; `0.499999999999999999999` (parses to 0.5) and `1e400` are not.
 */
export function isExactDouble(text: string): boolean {
  const n = Number(text);
  if (!Number.isFinite(n)) return false;
  try {
    return new Big(text).eq(new Big(n));
  } catch {
    return false; // an exponent past big.js's limits
  }
}
