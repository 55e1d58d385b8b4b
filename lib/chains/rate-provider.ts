import { isPayableCurrency } from "@/lib/money/currencies";
import { loadRateTable, StaticRateSource } from "./rates";

/**
 * The process's rate source: the static table (or the RATES_FILE one) today. A live price feed
 * implements the same `RateSource` interface and is chosen here.
 */
const g = globalThis as unknown as { __paymentsRates?: StaticRateSource };

export function rateSource(): StaticRateSource {
  g.__paymentsRates ??= new StaticRateSource(loadRateTable());
  return g.__paymentsRates;
}

/**
 * The currencies a payment may be created in: those the rate source can price a coin in. A
 * payment in any other currency could never be paid (every coin selection would fail), so
 * create refuses it; the OpenAPI document lists these as the `currency` enum.
 */
export function acceptedCurrencies(): string[] {
  return Object.keys(rateSource().table.currencies).filter(isPayableCurrency).sort();
}

export function isAcceptedCurrency(code: string): boolean {
  return isPayableCurrency(code) && Object.hasOwn(rateSource().table.currencies, code);
}
