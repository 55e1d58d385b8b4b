import { z } from "zod";
import { coinsBySymbol, isFiatCode, recordSymbol } from "./coin-ids";
import { inverse, positivePrice } from "./decimal";
import { RateProviderError } from "./errors";
import { describeIssues, endpoint, getJson } from "./http";
import type { FetchRatesOptions, ProviderSnapshot, RateProvider } from "./types";

/**
 * Coinbase v2 exchange rates (reference §3b), one call per poll for every coin and currency:
 *
 * `GET {base}/v2/exchange-rates?currency=USD` → `data.currency` (must be "USD") and
 * `data.rates[<CODE>]`, decimal text, units of CODE per 1 USD, fiat and crypto mixed.
 * A coin's USD price is therefore 1 / `rates[SYMBOL]` (30 places, half-up, as rates.ts); a
 * fiat code's `rates[CODE]` is already the units-per-USD the snapshot holds.
 *
 * One request instead of one Exchange `/products/{id}/ticker` per coin keeps well inside the
 * 10 req/s limit. These are reference rates (no bid/ask, no timestamp): their age can only be
 * judged against the other providers, which the median does.
 * USDC is skipped: Coinbase books USDC together with USD (reference §3a), so its rate is the
 * 1.00 booking, not a market price, and would hide a de-peg.
 * Errors are non-2xx with `{"errors":[{"id","message"}]}` (429 `rate_limit_exceeded`).
 */
export const COINBASE_BASE_URL = "https://api.coinbase.com";

const NOT_MARKET_PRICED: Readonly<Record<string, string>> = {
  USDC: "Coinbase books USDC as USD, so its rate is no market price",
};

const body = z.object({
  data: z.object({
    currency: z.literal("USD"),
    rates: z.record(z.string(), z.unknown()),
  }),
});

async function fetchRates(o: FetchRatesOptions = {}): Promise<ProviderSnapshot> {
  const now = o.now ?? (() => new Date());
  const url = endpoint(o.baseUrl ?? COINBASE_BASE_URL, "/v2/exchange-rates", { currency: "USD" });
  const json = await getJson("coinbase", url, o);
  const fetchedAt = now();
  const errors = z.object({ errors: z.array(z.object({ message: z.string() }).loose()).min(1) }).safeParse(json);
  if (errors.success) throw new RateProviderError("coinbase", "provider", errors.data.errors.map((e) => e.message).join(", "), 200);
  const parsed = body.safeParse(json);
  if (!parsed.success) throw new RateProviderError("coinbase", "malformed", `exchange-rates: ${describeIssues(parsed.error.issues)}`);
  const { rates } = parsed.data.data;

  const snapshot: ProviderSnapshot = { provider: "coinbase", fetchedAt, usd: new Map(), fiat: new Map(), skipped: [] };
  const bySymbol = coinsBySymbol();
  for (const symbol of bySymbol.keys()) {
    if (NOT_MARKET_PRICED[symbol]) {
      recordSymbol(snapshot, bySymbol, symbol, { why: NOT_MARKET_PRICED[symbol] });
      continue;
    }
    if (!Object.hasOwn(rates, symbol)) {
      recordSymbol(snapshot, bySymbol, symbol, { why: "not in data.rates" });
      continue;
    }
    const perUsd = positivePrice(rates[symbol]);
    recordSymbol(snapshot, bySymbol, symbol, perUsd.ok ? { usd: inverse(perUsd.value) } : { why: `data.rates.${symbol}: ${perUsd.why}` });
  }
  for (const [code, value] of Object.entries(rates)) {
    if (code === "USD" || !isFiatCode(code)) continue;
    const perUsd = positivePrice(value);
    if (perUsd.ok) snapshot.fiat!.set(code, perUsd.value.toFixed());
    else snapshot.skipped.push({ key: code, why: `data.rates.${code}: ${perUsd.why}` });
  }
  return snapshot;
}

export const coinbase: RateProvider = { id: "coinbase", fetchRates };
