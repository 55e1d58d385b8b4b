import type { CoinName } from "@/domain/coins";
import type { RateProviderId } from "@/lib/config/rates";

/**
 * What one poll of one market API yields: USD prices of the catalogue's coins and, when the
 * provider publishes fiat, how many units of each ISO 4217 currency one USD buys. Every
 * (coin, currency) rate is then coin→USD × USD→currency, so a provider that only knows USD
 * pairs still prices every accepted currency through another provider's fiat legs.
 */
export type ProviderSnapshot = {
  provider: RateProviderId;
  /** When the answer was read (the caller's clock, `now`). */
  fetchedAt: Date;
  /** Decimal text: USD per one whole coin. Only coins the provider actually quoted. */
  usd: Map<CoinName, string>;
  /** Decimal text: units of the currency per 1 USD (USD itself excluded); null when the provider gives no fiat. */
  fiat: Map<string, string> | null;
  /** Coins (by CoinName) or currencies the provider could not price, with the reason, for operators. */
  skipped: { key: string; why: string }[];
};

export type FetchRatesOptions = {
  /** Scheme, host and optional path prefix replacing the provider's public host (tests, proxies). */
  baseUrl?: string;
  /** Whole-request budget per HTTP call, headers and body included. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => Date;
  /** CoinGecko demo key, sent as `x-cg-demo-api-key`; other providers ignore it. */
  apiKey?: string;
  /** Quotes whose own timestamp is older than this are skipped as stale (providers that send one). */
  maxAgeMs?: number;
};


export interface RateProvider {
  id: RateProviderId;
  fetchRates(o?: FetchRatesOptions): Promise<ProviderSnapshot>;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
