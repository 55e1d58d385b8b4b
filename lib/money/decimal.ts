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
