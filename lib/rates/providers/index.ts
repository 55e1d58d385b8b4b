import { coinbase } from "./coinbase";
import { coingecko } from "./coingecko";
import { kraken } from "./kraken";
import { type RateProvider } from "./types";
import { RATE_PROVIDER_IDS, type RateProviderId } from "@/lib/config/rates";

export { RateLimitedError, RateProviderError, retryAfterMs, type RateProviderErrorKind } from "./errors";
export { type FetchRatesOptions, type ProviderSnapshot, type RateProvider } from "./types";
export { coinbase, coingecko, kraken };

export const RATE_PROVIDERS: Readonly<Record<RateProviderId, RateProvider>> = { kraken, coinbase, coingecko };

/**
 * The providers named by a RATE_PROVIDERS-style list ("kraken,coinbase,coingecko"): trimmed,
 * case-insensitive, duplicates dropped, order kept. An unknown name throws naming the known
 * ones, so a typo fails at start-up instead of silently losing a price source.
 */
export function providersFromList(list: string): RateProvider[] {
  const names = [...new Set(list.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean))];
  if (names.length === 0) throw new Error(`No rate provider named; known: ${RATE_PROVIDER_IDS.join(", ")}`);
  return names.map((name) => {
    if (!(RATE_PROVIDER_IDS as readonly string[]).includes(name)) {
      throw new Error(`Unknown rate provider "${name}"; known: ${RATE_PROVIDER_IDS.join(", ")}`);
    }
    return RATE_PROVIDERS[name as RateProviderId];
  });
}
