import http from "node:http";
import type { AddressInfo } from "node:net";
import Big from "big.js";
import { COINS, COIN_NAMES } from "@/domain/coins";
import { DEFAULT_RATE_TABLE } from "@/lib/rates/default-rates";
import { COINGECKO_IDS } from "@/lib/rates/providers/coin-ids";

/**
 * One local HTTP server standing in for all three market APIs (Kraken, Coinbase, CoinGecko) at
 * once, answering their documented paths in their documented shapes (see the header comments of
 * lib/rates/providers/*.ts) from one price table. Free of vitest, so both vitest and
 * Playwright's global setup can start it; a Playwright worker drives the one global setup
 * started through its control endpoint (`marketMockControl`).
 *
 * Control endpoint, on the same server:
 * - `POST /__mock/silence?on=1|0`: accept provider requests and never answer them (or answer again);
 * - `POST /__mock/price?symbol=BTC&usd=70000`: a coin's USD price;
 * - `POST /__mock/reset`: the starting prices, not silenced, counts kept;
 * - `GET /__mock/requests`: `{ requests, answered, silenced }`, counts per provider.
 */

export type MarketPrices = {
  /** USD per one coin, by market symbol (BTC, ETH, …), decimal text. */
  coins: Record<string, string>;
  /** Units of the currency per 1 USD, by ISO 4217 code (USD itself left out), decimal text. */
  fiatPerUsd: Record<string, string>;
};

export const MARKET_PROVIDERS = ["kraken", "coinbase", "coingecko"] as const;
export type MarketProvider = (typeof MARKET_PROVIDERS)[number];
export type ProviderCounts = Record<MarketProvider, number>;

/** Divisions at the 30 places, half-up, rates.ts and the adapters use. */
const Dec = Big();
Dec.DP = 30;
Dec.RM = Big.roundHalfUp;

const text = (d: Big) => d.toFixed();

/** Finer divisions for the quotes the adapters invert, so that inverting gives the price back. */
const Fine = Big();
Fine.DP = 60;
Fine.RM = Big.roundHalfUp;

/**
 * 1 / x as decimal text with as many places as the adapters read (64 characters at most):
 * Coinbase's coins per USD and Kraken's USD per EUR invert back to the table's price at the
 * adapters' 30 places, exactly.
 */
function inverseText(x: string): string {
  const q = new Fine(1).div(x);
  const intDigits = q.round(0, Big.roundDown).toFixed().length;
  return q.round(Math.min(60, 62 - intDigits), Big.roundHalfUp).toFixed();
}

/** DEFAULT_RATE_TABLE as market prices: quotes from them equal the static table's to ~30 places. */
export function defaultMarketPrices(): MarketPrices {
  const coins: Record<string, string> = {};
  for (const coin of COIN_NAMES) {
    const usd = DEFAULT_RATE_TABLE.coins[coin];
    if (usd !== undefined && coins[COINS[coin].symbol] === undefined) coins[COINS[coin].symbol] = text(new Dec(usd));
  }
  const fiatPerUsd: Record<string, string> = {};
  for (const [code, usdPerUnit] of Object.entries(DEFAULT_RATE_TABLE.currencies)) {
    if (code !== "USD") fiatPerUsd[code] = text(new Dec(1).div(usdPerUnit));
  }
  return { coins, fiatPerUsd };
}

// ---- Kraken: GET /0/public/AssetPairs, GET /0/public/Ticker?pair=… ----

/** Kraken's canonical keys and names for the old assets (XBT for BTC, X/Z prefixes). */
const KRAKEN_NAMES: Record<string, { key: string; ws: string }> = {
  BTC: { key: "XXBTZUSD", ws: "XBT" },
  ETH: { key: "XETHZUSD", ws: "ETH" },
  LTC: { key: "XLTCZUSD", ws: "LTC" },
  XMR: { key: "XXMRZUSD", ws: "XMR" },
  USDT: { key: "USDTZUSD", ws: "USDT" },
};
/** Symbols without a Kraken book (BUSD was never listed). */
const NOT_ON_KRAKEN = new Set(["BUSD"]);
/** Kraken's fiat books: EUR/GBP/AUD quoted in USD, USD quoted in JPY/CAD/CHF. */
const KRAKEN_FIAT: { code: string; key: string; usdIsBase: boolean }[] = [
  { code: "EUR", key: "ZEURZUSD", usdIsBase: false },
  { code: "GBP", key: "ZGBPZUSD", usdIsBase: false },
  { code: "AUD", key: "AUDUSD", usdIsBase: false },
  { code: "JPY", key: "ZUSDZJPY", usdIsBase: true },
  { code: "CAD", key: "ZUSDZCAD", usdIsBase: true },
  { code: "CHF", key: "USDCHF", usdIsBase: true },
];

/** Every online book, by key, with the last-trade price it shows now. */
function krakenBooks(p: MarketPrices): Map<string, { wsname: string; price: string }> {
  const books = new Map<string, { wsname: string; price: string }>();
  for (const [symbol, usd] of Object.entries(p.coins)) {
    if (NOT_ON_KRAKEN.has(symbol)) continue;
    const name = KRAKEN_NAMES[symbol] ?? { key: `${symbol}USD`, ws: symbol };
    books.set(name.key, { wsname: `${name.ws}/USD`, price: usd });
  }
  for (const f of KRAKEN_FIAT) {
    const perUsd = p.fiatPerUsd[f.code];
    if (perUsd === undefined) continue;
    books.set(f.key, {
      wsname: f.usdIsBase ? `USD/${f.code}` : `${f.code}/USD`,
      price: f.usdIsBase ? perUsd : inverseText(perUsd),
    });
  }
  return books;
}

function krakenAssetPairs(p: MarketPrices): unknown {
  const result: Record<string, unknown> = {};
  for (const [key, book] of krakenBooks(p)) {
    const [base, quote] = book.wsname.split("/");
    result[key] = { altname: base + quote, wsname: book.wsname, base, quote, pair_decimals: 5, lot_decimals: 8, status: "online" };
  }
  return { error: [], result };
}

function krakenTicker(p: MarketPrices, url: URL): unknown {
  const books = krakenBooks(p);
  const asked = (url.searchParams.get("pair") ?? "").split(",").filter(Boolean);
  if (asked.length === 0 || asked.some((k) => !books.has(k))) return { error: ["EQuery:Unknown asset pair"] };
  const result: Record<string, unknown> = {};
  for (const key of asked) {
    const c = books.get(key)!.price;
    result[key] = { a: [c, "1", "1.000"], b: [c, "1", "1.000"], c: [c, "0.00100000"], v: ["1", "1"], p: [c, c], t: [1, 1], l: [c, c], h: [c, c], o: c };
  }
  return { error: [], result };
}

// ---- Coinbase: GET /v2/exchange-rates?currency=USD ----

function coinbaseRates(p: MarketPrices, url: URL): { status: number; body: unknown } {
  const currency = (url.searchParams.get("currency") ?? "USD").toUpperCase();
  if (currency !== "USD") return { status: 400, body: { errors: [{ id: "invalid_request", message: `mock answers currency=USD only, not ${currency}` }] } };
  const rates: Record<string, string> = { USD: "1" };
  for (const [code, perUsd] of Object.entries(p.fiatPerUsd)) rates[code] = perUsd;
  for (const [symbol, usd] of Object.entries(p.coins)) rates[symbol] = inverseText(usd);
  return { status: 200, body: { data: { currency: "USD", rates } } };
}

// ---- CoinGecko: GET /api/v3/simple/price?ids=…, GET /api/v3/exchange_rates ----

const SYMBOL_OF_ID = new Map(Object.entries(COINGECKO_IDS).map(([symbol, id]) => [id, symbol]));

/** JSON numbers are written as the price's own digits, never through a double. */
function coingeckoPrices(p: MarketPrices, url: URL, now: Date): string {
  const ids = (url.searchParams.get("ids") ?? "").split(",").filter(Boolean);
  const updated = Math.floor(now.getTime() / 1000);
  const entries = ids.flatMap((id) => {
    const usd = p.coins[SYMBOL_OF_ID.get(id) ?? ""];
    return usd === undefined ? [] : [`${JSON.stringify(id)}:{"usd":${usd},"last_updated_at":${updated}}`];
  });
  return `{${entries.join(",")}}`;
}

function coingeckoExchangeRates(p: MarketPrices): string {
  const btc = p.coins.BTC;
  const entries = [`"btc":{"name":"Bitcoin","unit":"BTC","value":1.0,"type":"crypto"}`];
  if (btc !== undefined) {
    if (p.coins.ETH) entries.push(`"eth":{"name":"Ether","unit":"ETH","value":${text(new Dec(btc).div(p.coins.ETH))},"type":"crypto"}`);
    entries.push(`"usd":{"name":"US Dollar","unit":"$","value":${btc},"type":"fiat"}`);
    for (const [code, perUsd] of Object.entries(p.fiatPerUsd)) {
      const value = text(new Dec(perUsd).times(btc));
      entries.push(`${JSON.stringify(code.toLowerCase())}:{"name":${JSON.stringify(code)},"unit":${JSON.stringify(code)},"value":${value},"type":"fiat"}`);
    }
  }
  return `{"rates":{${entries.join(",")}}}`;
}

// ---- the server ----

type Answer = { status?: number; body: unknown };

const ROUTES: Record<string, { provider: MarketProvider; answer: (p: MarketPrices, url: URL) => Answer }> = {
  "/0/public/AssetPairs": { provider: "kraken", answer: (p) => ({ body: krakenAssetPairs(p) }) },
  "/0/public/Ticker": { provider: "kraken", answer: (p, url) => ({ body: krakenTicker(p, url) }) },
  "/v2/exchange-rates": { provider: "coinbase", answer: (p, url) => coinbaseRates(p, url) },
  "/api/v3/simple/price": { provider: "coingecko", answer: (p, url) => ({ body: coingeckoPrices(p, url, new Date()) }) },
  "/api/v3/exchange_rates": { provider: "coingecko", answer: (p) => ({ body: coingeckoExchangeRates(p) }) },
};

const zero = (): ProviderCounts => ({ kraken: 0, coinbase: 0, coingecko: 0 });

function positive(value: string | null): string | null {
  if (value === null || !/^\d+(\.\d+)?$/.test(value)) return null;
  return new Big(value).gt(0) ? value : null;
}

function reply(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

export type MarketMock = Awaited<ReturnType<typeof startMarketMock>>;

export async function startMarketMock(o: { port?: number; prices?: MarketPrices } = {}) {
  const initial = o.prices ?? defaultMarketPrices();
  const copy = (p: MarketPrices): MarketPrices => ({ coins: { ...p.coins }, fiatPerUsd: { ...p.fiatPerUsd } });
  let prices = copy(initial);
  let silenced = false;
  /** Provider requests received, and those answered (a silenced one never is). */
  const requests = zero();
  const answered = zero();

  const mock = {
    baseUrl: "",
    port: 0,
    requests,
    answered,
    get prices(): MarketPrices {
      return copy(prices);
    },
    get silenced() {
      return silenced;
    },
    setPrice(symbol: string, usd: string) {
      if (positive(usd) === null) throw new RangeError(`price ${usd} is not a positive decimal`);
      prices.coins[symbol.toUpperCase()] = usd;
    },
    silence(on: boolean) {
      silenced = on;
    },
    reset() {
      prices = copy(initial);
      silenced = false;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  function control(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const action = url.pathname.slice("/__mock/".length);
    if (req.method === "GET" && action === "requests") return reply(res, 200, { requests, answered, silenced });
    if (req.method !== "POST") return reply(res, 405, { error: `${req.method} ${url.pathname} is not a control` });
    if (action === "silence") {
      mock.silence(["1", "true", "on"].includes(url.searchParams.get("on") ?? "1"));
      return reply(res, 200, { silenced });
    }
    if (action === "price") {
      const symbol = url.searchParams.get("symbol")?.toUpperCase();
      const usd = positive(url.searchParams.get("usd"));
      if (!symbol || usd === null) return reply(res, 400, { error: "price needs symbol=<SYMBOL> and usd=<positive decimal>" });
      mock.setPrice(symbol, usd);
      return reply(res, 200, { symbol, usd });
    }
    if (action === "reset") {
      mock.reset();
      return reply(res, 200, { silenced });
    }
    return reply(res, 404, { error: `no control ${url.pathname}` });
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://mock");
    if (url.pathname.startsWith("/__mock/")) return control(req, res, url);
    const route = ROUTES[url.pathname];
    if (!route) return reply(res, 404, { message: "NotFound" });
    requests[route.provider]++;
    if (silenced) return; // accepted, never answered: the client's timeout ends it
    const a = route.answer(prices, url);
    answered[route.provider]++;
    reply(res, a.status ?? 200, a.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  mock.port = (server.address() as AddressInfo).port;
  mock.baseUrl = `http://127.0.0.1:${mock.port}`;
  return mock;
}

/** The control endpoint of a mock started elsewhere (Playwright's global setup), over HTTP. */
export function marketMockControl(baseUrl: string) {
  const post = async (path: string) => {
    const res = await fetch(`${baseUrl}/__mock/${path}`, { method: "POST" });
    if (!res.ok) throw new Error(`market mock ${path}: HTTP ${res.status} ${await res.text()}`);
  };
  return {
    silence: (on: boolean) => post(`silence?on=${on ? 1 : 0}`),
    setPrice: (symbol: string, usd: string) => post(`price?symbol=${encodeURIComponent(symbol)}&usd=${encodeURIComponent(usd)}`),
    reset: () => post("reset"),
    async requests(): Promise<{ requests: ProviderCounts; answered: ProviderCounts; silenced: boolean }> {
      const res = await fetch(`${baseUrl}/__mock/requests`);
      if (!res.ok) throw new Error(`market mock requests: HTTP ${res.status}`);
      return (await res.json()) as { requests: ProviderCounts; answered: ProviderCounts; silenced: boolean };
    },
  };
}
