import Big from "big.js";
import { isLosslessNumber } from "lossless-json";

/**
 * The same private big.js settings rates.ts uses for cross rates: divisions (inverting a
 * "coins per USD" quote) to 30 decimal places, half-up, without touching the shared Big.
 */
export const Dec = Big();
Dec.DP = 30;
Dec.RM = Big.roundHalfUp;

/** Longer text is no price: it only bounds big.js's work on hostile input. */
const MAX_PRICE_TEXT = 64;
const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export type PriceResult = { ok: true; value: Big } | { ok: false; why: string };

/**
 * A price field as an exact decimal: decimal text (Kraken, Coinbase) or a JSON number kept as
 * its text by lossless-json (CoinGecko), never a double. Zero, negative, non-numeric and
 * missing values are refused with the reason, so the caller skips that pair alone.
 */
export function positivePrice(value: unknown): PriceResult {
  let text: string;
  if (typeof value === "string") text = value;
  else if (isLosslessNumber(value)) text = value.value;
  else return { ok: false, why: `price is ${value === undefined ? "missing" : JSON.stringify(value)}, not a number` };
  if (text.length > MAX_PRICE_TEXT || !NUMERIC.test(text)) return { ok: false, why: `price ${JSON.stringify(text)} is not a decimal number` };
  const d = new Dec(text);
  if (!d.gt(0)) return { ok: false, why: `price ${text} is not positive` };
  return { ok: true, value: d };
}

/** 1 / x at the 30-place precision of rates.ts, as plain decimal text. */
export function inverse(x: Big): string {
  return new Dec(1).div(x).toFixed();
}
