import Big from "big.js";
import { COINS, type CoinName } from "./coins";

/**
 * Exact conversions between whole coins, integer base units (satoshi, wei, sun, …) and fiat.
 * No float ever touches an amount: decimals are parsed as decimal strings (big.js for
 * parsing and multiplication, which are exact) and divisions are done on bigint fractions
 * with an explicit rounding direction.
 */

/** A non-negative decimal as an exact fraction digits / 10^scale. */
type Fraction = { digits: bigint; scale: number };

function toFraction(value: string | number | Big, what: string): Fraction {
  let big: Big;
  try {
    big = value instanceof Big ? value : new Big(value);
  } catch {
    throw new Error(`${what} is not a decimal number: ${String(value)}`);
  }
  if (big.lt(0)) throw new Error(`${what} must not be negative: ${big.toFixed()}`);
  const text = big.toFixed(); // plain notation, no exponent
  const dot = text.indexOf(".");
  if (dot === -1) return { digits: BigInt(text), scale: 0 };
  return { digits: BigInt(text.slice(0, dot) + text.slice(dot + 1)), scale: text.length - dot - 1 };
}

const pow10 = (n: number) => 10n ** BigInt(n);

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b; // a ≥ 0, b > 0
}

function checkDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 77) {
    throw new RangeError(`decimals must be an integer from 0 to 77; got ${decimals}`);
  }
}

/** Whole coins (e.g. "0.0015" or 0.0015) → integer base units. More decimals than the coin has → Error. */
export function toBaseUnits(coin: CoinName, wholeCoins: string | number): bigint {
  const decimals = COINS[coin].decimals;
  if (typeof wholeCoins === "number" && !Number.isFinite(wholeCoins)) {
    throw new Error(`Amount of ${coin} is not a finite number: ${wholeCoins}`);
  }
  const { digits, scale } = toFraction(wholeCoins, `Amount of ${coin}`);
  if (scale > decimals) {
    throw new Error(`Amount ${String(wholeCoins)} has ${scale} decimals; ${coin} has at most ${decimals}`);
  }
  return digits * pow10(decimals - scale);
}

/** Integer base units → whole coins as a plain decimal string without trailing zeros ("0.0015", "12"). */
export function fromBaseUnits(coin: CoinName, units: bigint): string {
  return unitsToDecimal(units, COINS[coin].decimals);
}

/** `units / 10^decimals` as a plain decimal string without trailing zeros. */
export function unitsToDecimal(units: bigint, decimals: number): string {
  checkDecimals(decimals);
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const text = abs.toString().padStart(decimals + 1, "0");
  const whole = text.slice(0, text.length - decimals);
  const fraction = text.slice(text.length - decimals).replace(/0+$/, "");
  return (negative ? "-" : "") + whole + (fraction ? `.${fraction}` : "");
}

/**
 * Base units to quote for `fiatAmount` at `rate` (fiat per whole coin):
 * ceil(fiat × 10^decimals / rate), rounded UP to the next base unit so the merchant is never short.
 */
export function quoteBaseUnits(fiatAmount: string, rate: string, decimals: number): bigint {
  checkDecimals(decimals);
  const fiat = toFraction(fiatAmount, "Fiat amount");
  const r = toFraction(rate, "Exchange rate");
  if (r.digits === 0n) throw new Error("Exchange rate must be positive");
  // fiat.digits/10^fiat.scale × 10^decimals ÷ (r.digits/10^r.scale)
  const numerator = fiat.digits * pow10(decimals + r.scale);
  const denominator = r.digits * pow10(fiat.scale);
  return ceilDiv(numerator, denominator);
}

/**
 * Fiat value of `units` base units at `rate` (fiat per whole coin), rounded half-up to the
 * currency's `minorUnits`, as a decimal string with exactly `minorUnits` decimals ("12.30").
 */
export function fiatValue(units: bigint, rate: string, decimals: number, minorUnits: number): string {
  checkDecimals(decimals);
  if (!Number.isInteger(minorUnits) || minorUnits < 0) throw new RangeError(`minorUnits must be a non-negative integer`);
  if (units < 0n) throw new Error("Base units must not be negative");
  const r = toFraction(rate, "Exchange rate");
  // value = units × r.digits / 10^(decimals + r.scale); scaled to minor units, rounded half-up
  const numerator = units * r.digits * pow10(minorUnits);
  const denominator = pow10(decimals + r.scale);
  const rounded = (2n * numerator + denominator) / (2n * denominator); // floor(x + 1/2)
  const text = unitsToDecimal(rounded, minorUnits);
  return minorUnits === 0 ? text : new Big(text).toFixed(minorUnits);
}
