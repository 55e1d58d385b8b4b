import type { Tx } from "@/db/client";
import { ratesForQuote } from "@/db/queries/rates";
import type { Business, ExchangeRateRow } from "@/db/schema";
import { config } from "@/lib/config";
import type { RatesConfig } from "@/lib/config/rates";
import { ApiError } from "@/lib/http/errors";
import { isPayableCurrency } from "@/domain/currencies";
import { COINS, type CoinName } from "@/domain/coins";
import { quoteBaseUnits } from "@/domain/amounts";
import { DEFAULT_RATE_TABLE } from "./default-rates";
import { snapshotRateSource } from "./snapshot-source";
import type { ProviderSnapshot } from "./providers/types";
import { loadRateTable, StaticRateSource, UnknownRateError, type Rate, type RateTable } from "./rate-source";

/*
 * Where a quote's rate comes from (lib/config/rates.ts):
 * - RATES_FILE: the operator's pinned table, for every business, never stale;
 * - RATE_PROVIDERS: the market rates the refresher stored, median across providers, each value
 *   used only while younger than RATE_MAX_AGE_SECONDS;
 * - neither: test businesses quote from the built-in static table; live businesses cannot
 *   quote, as a table nobody updates would lose the merchant or the customer money.
 */

const g = globalThis as unknown as { __paymentsPinnedRates?: { file: string; source: StaticRateSource } };
const staticDefault = new StaticRateSource(DEFAULT_RATE_TABLE);

function pinnedSource(file: string): StaticRateSource {
  if (g.__paymentsPinnedRates?.file !== file) {
    g.__paymentsPinnedRates = { file, source: new StaticRateSource(loadRateTable({ RATES_FILE: file }), { source: "rates-file" }) };
  }
  return g.__paymentsPinnedRates.source;
}

/** The table whose currencies a payment may be created in: the pinned one, else the built-in one. */
function currencyTable(cfg: RatesConfig = config().rates): RateTable {
  return cfg.pinnedFile ? pinnedSource(cfg.pinnedFile).table : DEFAULT_RATE_TABLE;
}

/**
 * The currencies a payment may be created in. A payment in any other currency could never be
 * paid, so create refuses it; the OpenAPI document lists these as the `currency` enum. With
 * market providers the list stays the built-in one: `npm run admin -- rates` shows which of
 * them the chosen providers actually price.
 */
export function acceptedCurrencies(): string[] {
  return Object.keys(currencyTable().currencies).filter(isPayableCurrency).sort();
}

export function isAcceptedCurrency(code: string): boolean {
  return isPayableCurrency(code) && Object.hasOwn(currencyTable().currencies, code);
}

/**
 * The most decimals a quote has: what wallets show and let people type for ETH and the
 * 18-decimal tokens (wei-exact amounts are neither readable nor typeable). Coins with fewer
 * decimals are quoted to their base unit.
 */
export const QUOTE_DECIMALS = 8;

/**
 * `units` of a coin with `decimals` decimals, rounded UP to a whole number of its shown
 * precision (10^(decimals − 8) base units when it has more than 8), so the merchant is never
 * short and the amount shown is exactly these units.
 */
export function roundUpToShown(units: bigint, decimals: number): bigint {
  if (decimals <= QUOTE_DECIMALS) return units;
  const step = 10n ** BigInt(decimals - QUOTE_DECIMALS);
  return ((units + step - 1n) / step) * step;
}

/**
 * The base units a charge asks for `fiatAmount` at `rate` (fiat per whole coin): the exact
 * quote rounded up to the next base unit, then up to at most 8 decimals. This integer is what
 * is stored and what transfers are checked against.
 */
export function quotedUnits(fiatAmount: string, rate: string, decimals: number): bigint {
  return roundUpToShown(quoteBaseUnits(fiatAmount, rate, decimals), decimals);
}

/** 503 `rate-unavailable`: what the checkout shows the customer and the API answers. */
export function rateUnavailable(coin: CoinName, why: string): ApiError {
  return new ApiError("rate-unavailable", 503, `${COINS[coin].name} is temporarily unavailable: ${why}. Choose another coin or try again later.`);
}

function minutes(ms: number): string {
  const s = Math.round(ms / 1000);
  return s % 60 === 0 ? `${s / 60} minute${s === 60 ? "" : "s"}` : `${s} seconds`;
}

/** Stored provider values as one-value snapshots: snapshotRateSource takes the medians. */
function snapshotsOf(rows: readonly ExchangeRateRow[]): ProviderSnapshot[] {
  return rows.map((r) => ({
    provider: r.provider as ProviderSnapshot["provider"],
    fetchedAt: r.fetchedAt,
    usd: r.kind === "coin" ? new Map([[r.key as CoinName, r.value]]) : new Map(),
    fiat: r.kind === "fiat" ? new Map([[r.key, r.value]]) : null,
    skipped: [],
  }));
}

/**
 * Why no quote can be made from the stored rows (null when one can): the coin's or the
 * currency's values are missing, or all older than the limit.
 */
function staleness(rows: readonly ExchangeRateRow[], fresh: readonly ExchangeRateRow[], coin: CoinName, currency: string, maxAgeMs: number) {
  const has = (list: readonly ExchangeRateRow[], kind: "coin" | "fiat", key: string) => list.some((r) => r.kind === kind && r.key === key);
  for (const [kind, key, name] of [["coin", coin, `${COINS[coin].symbol} in USD`], ["fiat", currency, `USD in ${currency}`]] as const) {
    if (kind === "fiat" && currency === "USD") continue;
    if (!has(rows, kind, key)) return `no market rate of ${name} is known`;
    if (!has(fresh, kind, key)) return `the market rate of ${name} is older than ${minutes(maxAgeMs)}`;
  }
  return null;
}

/** The fresh market rate from the stored provider values, or a 503 saying what is missing. */
async function marketRate(tx: Tx, coin: CoinName, currency: string, now: Date, maxAgeMs: number): Promise<Rate> {
  const rows = await ratesForQuote(tx, [coin], currency);
  const fresh = rows.filter((r) => now.getTime() - r.fetchedAt.getTime() <= maxAgeMs);
  const why = staleness(rows, fresh, coin, currency, maxAgeMs);
  if (why) throw rateUnavailable(coin, why);
  // By provider name, so a quote's source reads the same whatever order the rows came in.
  fresh.sort((a, b) => a.provider.localeCompare(b.provider));
  return snapshotRateSource(snapshotsOf(fresh)).rate(coin, currency);
}

/**
 * The rate a charge is quoted at, now, for `business`: see the note at the top for which source.
 * Throws ApiError 503 `rate-unavailable` when none is usable.
 */
export async function quoteRate(tx: Tx, business: Business, coin: CoinName, currency: string, now = new Date(), cfg: RatesConfig = config().rates): Promise<Rate> {
  const code = currency.toUpperCase();
  try {
    if (cfg.pinnedFile) return await pinnedSource(cfg.pinnedFile).rate(coin, code);
    if (cfg.providers.length > 0) return await marketRate(tx, coin, code, now, cfg.maxAgeMs);
    if (business.mode === "test") return await staticDefault.rate(coin, code);
  } catch (e) {
    if (e instanceof UnknownRateError) throw rateUnavailable(coin, `no exchange rate prices it in ${code}`);
    throw e;
  }
  throw rateUnavailable(coin, "the operator has configured no exchange-rate source for live payments (RATE_PROVIDERS or RATES_FILE)");
}

/**
 * The offered coins that cannot be quoted in `currency` now (the checkout marks them
 * "temporarily unavailable"): one query for all of them, as a coin list is rendered.
 */
export async function unquotableCoins(
  tx: Tx,
  business: Business,
  coins: readonly CoinName[],
  currency: string,
  now = new Date(),
  cfg: RatesConfig = config().rates,
): Promise<Set<CoinName>> {
  const code = currency.toUpperCase();
  if (cfg.pinnedFile || (cfg.providers.length === 0 && business.mode === "test")) {
    const table = cfg.pinnedFile ? pinnedSource(cfg.pinnedFile).table : DEFAULT_RATE_TABLE;
    const priced = table.currencies[code] !== undefined;
    return new Set(coins.filter((c) => !priced || table.coins[c] === undefined));
  }
  if (cfg.providers.length === 0) return new Set(coins);
  const rows = await ratesForQuote(tx, coins, code);
  const fresh = rows.filter((r) => now.getTime() - r.fetchedAt.getTime() <= cfg.maxAgeMs);
  return new Set(coins.filter((c) => staleness(rows, fresh, c, code, cfg.maxAgeMs) !== null));
}
