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
