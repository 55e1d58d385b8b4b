import { z } from "zod";
import { coinsBySymbol, isFiatCode, krakenSymbol, recordSymbol } from "./coin-ids";
import { inverse, positivePrice } from "./decimal";
import { RateLimitedError, RateProviderError } from "./errors";
import { describeIssues, endpoint, getJson } from "./http";
import type { FetchRatesOptions, ProviderSnapshot, RateProvider } from "./types";

/**
 * Kraken Spot REST, public (reference §2), two calls per poll:
 *
 * 1. `GET {base}/0/public/AssetPairs` → `result[<key>].wsname` ("XBT/USD": base/quote, with XBT
 *    renamed BTC) and `result[<key>].status`. Only `online` pairs count, and keys holding `.d`
 *    (dark-pool books) are left out. Keys are never parsed by length (`XXBTZUSD` vs `SOLUSD`).
 * 2. `GET {base}/0/public/Ticker?pair=<key>,<key>,…` with the chosen keys → `result[<key>].c[0]`,
 *    the last trade price (decimal text). There is no timestamp in the ticker.
 *
 * Coins come from `<SYMBOL>/USD` pairs. Fiat comes from Kraken's own fiat books, `EUR/USD`
 * (1 / price EUR per USD) or `USD/JPY` (price JPY per USD), whichever AssetPairs lists.
 * Kraken answers HTTP 200 with a non-empty `error` array for failures (`EQuery:Unknown asset
 * pair`, `EGeneral:Too many requests`, `EAPI:Rate limit exceeded`, `EService: Throttled: <unix s>`).
 */
export const KRAKEN_BASE_URL = "https://api.kraken.com";

const envelope = z.object({ error: z.array(z.string()), result: z.unknown().optional() });

const assetPairs = z.record(
  z.string(),
  z.looseObject({ wsname: z.string().optional(), status: z.string().optional() }),
);

/** Only `c` is read; the other documented fields (a, b, v, p, t, l, h, o) are let through unchecked. */
const tickers = z.record(z.string(), z.looseObject({ c: z.array(z.unknown()).min(1) }));

const RATE_LIMIT = /^(EGeneral:Too many requests|EAPI:Rate limit exceeded|EService: ?Throttled)/;

function checkEnvelope(body: unknown, path: string, now: Date): unknown {
  const parsed = envelope.safeParse(body);
  if (!parsed.success) throw new RateProviderError("kraken", "malformed", `${path}: ${describeIssues(parsed.error.issues)}`);
  const { error, result } = parsed.data;
  if (error.length > 0) {
    const limited = error.find((e) => RATE_LIMIT.test(e));
    if (limited) {
      // "EService: Throttled: 1711356300" names the moment throttling ends.
      const until = /Throttled: ?\[?(\d+)/.exec(limited);
      const delay = until ? Math.max(0, Number(until[1]) * 1000 - now.getTime()) : null;
      throw new RateLimitedError("kraken", delay, `${path}: ${error.join(", ")}`, 200);
    }
    throw new RateProviderError("kraken", "provider", `${path}: ${error.join(", ")}`, 200);
  }
  if (result === undefined) throw new RateProviderError("kraken", "malformed", `${path}: result is missing`);
  return result;
}

function strict<T>(schema: z.ZodType<T>, value: unknown, path: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new RateProviderError("kraken", "malformed", `${path}: ${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}

type Wanted = { key: string; kind: "coin"; symbol: string } | { key: string; kind: "fiat"; code: string; usdIsBase: boolean };

async function fetchRates(o: FetchRatesOptions = {}): Promise<ProviderSnapshot> {
  const now = o.now ?? (() => new Date());
  const base = o.baseUrl ?? KRAKEN_BASE_URL;
  const bySymbol = coinsBySymbol();

  const pairsBody = await getJson("kraken", endpoint(base, "/0/public/AssetPairs"), o);
  const pairs = strict(assetPairs, checkEnvelope(pairsBody, "AssetPairs", now()), "AssetPairs.result");

  const wanted = new Map<string, Wanted>();
  const fiatSeen = new Set<string>();
  for (const [key, pair] of Object.entries(pairs)) {
    if (key.includes(".d") || pair.status !== "online" || !pair.wsname) continue;
    const parts = pair.wsname.split("/");
    if (parts.length !== 2) continue;
    const [b, q] = parts.map(krakenSymbol);
    if (q === "USD" && bySymbol.has(b) && ![...wanted.values()].some((w) => w.kind === "coin" && w.symbol === b)) {
      wanted.set(key, { key, kind: "coin", symbol: b });
    } else if (q === "USD" && isFiatCode(b) && !fiatSeen.has(b)) {
      wanted.set(key, { key, kind: "fiat", code: b, usdIsBase: false });
      fiatSeen.add(b);
    } else if (b === "USD" && isFiatCode(q) && !fiatSeen.has(q)) {
      wanted.set(key, { key, kind: "fiat", code: q, usdIsBase: true });
      fiatSeen.add(q);
    }
  }

  const snapshot: ProviderSnapshot = { provider: "kraken", fetchedAt: now(), usd: new Map(), fiat: new Map(), skipped: [] };
  const fiat = snapshot.fiat!;
  let ticks: z.infer<typeof tickers> = {};
  if (wanted.size > 0) {
    const url = endpoint(base, "/0/public/Ticker", { pair: [...wanted.keys()].join(",") });
    const body = await getJson("kraken", url, o);
    ticks = strict(tickers, checkEnvelope(body, "Ticker", now()), "Ticker.result");
    snapshot.fetchedAt = now();
  }

  const priced = new Set<string>();
  for (const w of wanted.values()) {
    const tick = ticks[w.key];
    const price = tick ? positivePrice(tick.c[0]) : ({ ok: false, why: `no ticker for ${w.key}` } as const);
    const where = tick ? `${w.key}.c[0]: ` : "";
    if (w.kind === "coin") {
      priced.add(w.symbol);
      recordSymbol(snapshot, bySymbol, w.symbol, price.ok ? { usd: price.value.toFixed() } : { why: where + price.why });
    } else if (price.ok) {
      fiat.set(w.code, w.usdIsBase ? price.value.toFixed() : inverse(price.value));
    } else {
      snapshot.skipped.push({ key: w.code, why: where + price.why });
    }
  }
  for (const symbol of bySymbol.keys()) {
    if (!priced.has(symbol)) recordSymbol(snapshot, bySymbol, symbol, { why: `AssetPairs lists no online ${symbol}/USD pair` });
  }
  return snapshot;
}

export const kraken: RateProvider = { id: "kraken", fetchRates };
