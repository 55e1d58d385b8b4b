import { isLosslessNumber, type LosslessNumber } from "lossless-json";
import { z } from "zod";
import { COINGECKO_IDS, coinsBySymbol, isFiatCode, recordSymbol } from "./coin-ids";
import { Dec, positivePrice } from "./decimal";
import { RateProviderError } from "./errors";
import { describeIssues, endpoint, getJson } from "./http";
import type { FetchRatesOptions, ProviderSnapshot, RateProvider } from "./types";

/**
 * CoinGecko (reference §5), two calls per poll:
 *
 * 1. `GET {base}/api/v3/simple/price?ids=<ids>&vs_currencies=usd&include_last_updated_at=true&precision=full`
 *    → `<id>.usd` (a JSON number, read as its exact digits by lossless-json) and
 *    `<id>.last_updated_at` (unix seconds). Unknown ids are left out of the answer, so a missing
 *    id is "no rate", and a quote older than maxAgeMs is skipped as stale.
 * 2. `GET {base}/api/v3/exchange_rates` → `rates.<code>.value` (units per 1 BTC, a number) and
 *    `rates.<code>.type`; for each `"fiat"` code, units per USD = value / `rates.usd.value`.
 *
 * An optional demo key goes in the `x-cg-demo-api-key` header (demo keys only work on
 * api.coingecko.com). Over the limit CoinGecko answers HTTP 429.
 */
export const COINGECKO_BASE_URL = "https://api.coingecko.com";

/** CoinGecko refreshes every 60 s on the free API; a quarter of an hour is clearly stale. */
export const COINGECKO_MAX_AGE_MS = 15 * 60_000;

const lossless = z.custom<LosslessNumber>((v) => isLosslessNumber(v), "must be a JSON number");

const prices = z.record(
  z.string(),
  z.looseObject({ usd: z.unknown().optional(), last_updated_at: lossless.nullable().optional() }),
);

const exchangeRates = z.object({
  rates: z.record(z.string(), z.looseObject({ value: z.unknown().optional(), type: z.string() })),
});

function strict<T>(schema: z.ZodType<T>, value: unknown, path: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new RateProviderError("coingecko", "malformed", `${path}: ${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}

async function fetchRates(o: FetchRatesOptions = {}): Promise<ProviderSnapshot> {
  const now = o.now ?? (() => new Date());
  const base = o.baseUrl ?? COINGECKO_BASE_URL;
  const maxAgeMs = o.maxAgeMs ?? COINGECKO_MAX_AGE_MS;
  const headers = o.apiKey ? { "x-cg-demo-api-key": o.apiKey } : undefined;
  const bySymbol = coinsBySymbol();
  const ids = [...bySymbol.keys()].flatMap((s) => (COINGECKO_IDS[s] ? [COINGECKO_IDS[s]] : []));

  const [priceBody, ratesBody] = await Promise.all([
    getJson("coingecko", endpoint(base, "/api/v3/simple/price", {
      ids: ids.join(","),
      vs_currencies: "usd",
      include_last_updated_at: "true",
      precision: "full",
    }), { ...o, headers }),
    getJson("coingecko", endpoint(base, "/api/v3/exchange_rates"), { ...o, headers }),
  ]);
  const fetchedAt = now();
  const quoted = strict(prices, priceBody, "simple/price");
  const { rates } = strict(exchangeRates, ratesBody, "exchange_rates");

  const snapshot: ProviderSnapshot = { provider: "coingecko", fetchedAt, usd: new Map(), fiat: new Map(), skipped: [] };
  for (const symbol of bySymbol.keys()) {
    const id = COINGECKO_IDS[symbol];
    const quote = id === undefined ? undefined : quoted[id];
    if (id === undefined || quote === undefined) {
      recordSymbol(snapshot, bySymbol, symbol, { why: id ? `id ${id} is not in the answer` : "no CoinGecko id mapped" });
      continue;
    }
    const price = positivePrice(quote.usd);
    if (!price.ok) {
      recordSymbol(snapshot, bySymbol, symbol, { why: `${id}.usd: ${price.why}` });
      continue;
    }
    const updated = quote.last_updated_at ? Number(quote.last_updated_at.value) * 1000 : null;
    if (updated !== null && fetchedAt.getTime() - updated > maxAgeMs) {
      recordSymbol(snapshot, bySymbol, symbol, { why: `${id}.last_updated_at ${new Date(updated).toISOString()} is older than ${maxAgeMs} ms` });
      continue;
    }
    recordSymbol(snapshot, bySymbol, symbol, { usd: price.value.toFixed() });
  }

  const usdPerBtc = positivePrice(rates.usd?.value);
  if (!usdPerBtc.ok) {
    // Without the USD leg no fiat cross can be formed; the coin prices above still stand.
    snapshot.fiat = null;
    snapshot.skipped.push({ key: "fiat", why: `exchange_rates.rates.usd.value: ${usdPerBtc.why}` });
    return snapshot;
  }
  for (const [key, entry] of Object.entries(rates)) {
    const code = key.toUpperCase();
    if (entry.type !== "fiat" || code === "USD" || !isFiatCode(code)) continue;
    const perBtc = positivePrice(entry.value);
    if (perBtc.ok) snapshot.fiat!.set(code, new Dec(perBtc.value).div(usdPerBtc.value).toFixed());
    else snapshot.skipped.push({ key: code, why: `exchange_rates.rates.${key}.value: ${perBtc.why}` });
  }
  return snapshot;
}

export const coingecko: RateProvider = { id: "coingecko", fetchRates };
