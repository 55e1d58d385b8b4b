import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kraken, RateLimitedError, RateProviderError } from "@/lib/rates/providers/index";
import { startMockServer, transportFailureTests, type MockServer, type Reply } from "./mock-server";

const NOW = new Date("2024-03-25T08:46:00Z");

const pair = (wsname: string, status = "online") => ({ altname: wsname.replace("/", ""), wsname, status, pair_decimals: 1 });

/** AssetPairs as documented: canonical keys, X/Z prefixes on old assets, a `.d` pair, a non-online pair. */
const ASSET_PAIRS = {
  error: [],
  result: {
    XXBTZUSD: { ...pair("XBT/USD"), base: "XXBT", quote: "ZUSD" },
    "XXBTZUSD.d": pair("XBT/USD"),
    XXBTZEUR: pair("XBT/EUR"),
    XETHZUSD: pair("ETH/USD"),
    XLTCZUSD: pair("LTC/USD", "cancel_only"),
    SOLUSD: pair("SOL/USD"),
    USDCUSD: pair("USDC/USD"),
    USDTZUSD: pair("USDT/USD"),
    XXMRZUSD: pair("XMR/USD"),
    ZEURZUSD: pair("EUR/USD"),
    ZUSDZJPY: pair("USD/JPY"),
  },
};

const tick = (c: unknown) => ({
  a: ["1", "1", "1.000"], b: ["1", "1", "1.000"], c: [c, "0.00067643"], v: ["1", "1"], p: ["1", "1"],
  t: [34619, 38907], l: ["1", "1"], h: ["1", "1"], o: "1",
});

/** Ticker prices per canonical key; the server answers only the keys asked for in `pair`. */
let prices: Record<string, unknown> = {};
const tickerReply = (url: URL): Reply => {
  const asked = (url.searchParams.get("pair") ?? "").split(",");
  const result = Object.fromEntries(asked.filter((k) => k in prices).map((k) => [k, tick(prices[k])]));
  return { body: { error: [], result } };
};

const GOOD_PRICES = {
  XXBTZUSD: "30303.20000",
  XETHZUSD: "3012.45",
  SOLUSD: "145.123456",
  USDCUSD: "0.8700",
  USDTZUSD: "1.0002",
  XXMRZUSD: "120.5",
  ZEURZUSD: "1.25000",
  ZUSDZJPY: "150.125",
};

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ "/0/public/AssetPairs": { body: ASSET_PAIRS }, "/0/public/Ticker": tickerReply });
});
afterAll(() => server.close());
const opts = () => ({ baseUrl: server.baseUrl, timeoutMs: 2000, now: () => NOW });

describe("kraken adapter", () => {
  it("reads c[0] of the online USD pairs as exact decimals, and EUR/USD, USD/JPY as fiat per USD", async () => {
    prices = { ...GOOD_PRICES };
    server.requests.length = 0;
    const s = await kraken.fetchRates(opts());
    expect(s.provider).toBe("kraken");
    expect(s.fetchedAt).toEqual(NOW);
    expect(s.usd.get("BITCOIN")).toBe("30303.2");
    expect(s.usd.get("ETHEREUM")).toBe("3012.45");
    expect(s.usd.get("CONTRACT_ERC20_ETH")).toBe("3012.45");
    expect(s.usd.get("SOLANA")).toBe("145.123456");
    expect(s.usd.get("MONERO")).toBe("120.5");
    // A de-pegged stablecoin keeps its market price on every chain that carries it.
    for (const c of ["ETH_USD_COIN", "TRX_USD_C", "SOL_USD_COIN", "CONTRACT_ERC20_USDC", "CONTRACT_TRC20_USDC"] as const) {
      expect(s.usd.get(c)).toBe("0.87");
    }
    expect(s.usd.get("TRX_TETHER")).toBe("1.0002");
    expect(Object.fromEntries(s.fiat!)).toEqual({ EUR: "0.8", JPY: "150.125" });
    // The dark-pool pair and the cancel_only LTC pair are never asked for.
    const ticker = server.requests.find((r) => r.url.pathname === "/0/public/Ticker")!;
    expect(ticker.url.searchParams.get("pair")!.split(",").sort()).toEqual(
      ["SOLUSD", "USDCUSD", "USDTZUSD", "XETHZUSD", "XXBTZUSD", "XXMRZUSD", "ZEURZUSD", "ZUSDZJPY"],
    );
    expect(s.usd.has("LITECOIN")).toBe(false);
    expect(s.skipped).toContainEqual({ key: "LITECOIN", why: "LTC: AssetPairs lists no online LTC/USD pair" });
    expect(s.skipped).toContainEqual({ key: "ETH_BUSD", why: "BUSD: AssetPairs lists no online BUSD/USD pair" });
  });

  it("skips a zero, a negative and a non-numeric price alone; the other pairs stand", async () => {
    prices = { ...GOOD_PRICES, SOLUSD: "0.00000", XETHZUSD: "-3012.45", USDTZUSD: "abc", ZEURZUSD: "" };
    const s = await kraken.fetchRates(opts());
    expect(s.usd.get("BITCOIN")).toBe("30303.2");
    expect(s.usd.has("SOLANA")).toBe(false);
    expect(s.usd.has("ETHEREUM")).toBe(false);
    expect(s.usd.has("ETH_TETHER")).toBe(false);
    expect(s.skipped).toContainEqual({ key: "SOLANA", why: "SOL: SOLUSD.c[0]: price 0.00000 is not positive" });
    expect(s.skipped).toContainEqual({ key: "ETHEREUM", why: "ETH: XETHZUSD.c[0]: price -3012.45 is not positive" });
    expect(s.skipped).toContainEqual({ key: "TRX_TETHER", why: 'USDT: USDTZUSD.c[0]: price "abc" is not a decimal number' });
    expect(s.skipped).toContainEqual({ key: "EUR", why: 'ZEURZUSD.c[0]: price "" is not a decimal number' });
    expect(s.fiat!.has("EUR")).toBe(false);
  });

  it("a pair the Ticker leaves out is skipped, not invented", async () => {
    prices = { ...GOOD_PRICES };
    delete prices.XXMRZUSD;
    const s = await kraken.fetchRates(opts());
    expect(s.usd.has("MONERO")).toBe(false);
    expect(s.skipped).toContainEqual({ key: "MONERO", why: "XMR: no ticker for XXMRZUSD" });
  });

  it("a ticker without its documented `c` field is a malformed answer", async () => {
    server.route("/0/public/Ticker", { body: { error: [], result: { XXBTZUSD: { a: ["1", "1", "1"] } } } });
    const e = await kraken.fetchRates(opts()).catch((x: unknown) => x);
    server.route("/0/public/Ticker", tickerReply);
    expect(e).toBeInstanceOf(RateProviderError);
    expect((e as RateProviderError).kind).toBe("malformed");
    expect((e as Error).message).toContain("XXBTZUSD.c");
  });

  it("an envelope without `result` is malformed", async () => {
    server.route("/0/public/AssetPairs", { body: { error: [] } });
    const e = await kraken.fetchRates(opts()).catch((x: unknown) => x);
    server.route("/0/public/AssetPairs", { body: ASSET_PAIRS });
    expect((e as RateProviderError).kind).toBe("malformed");
  });

  it("HTTP 200 with an `error` array is a provider error; throttling strings are RateLimitedError", async () => {
    const cases: [string[], string, number | null][] = [
      [["EQuery:Unknown asset pair"], "provider", null],
      [["EAPI:Rate limit exceeded"], "rate-limited", null],
      [["EGeneral:Too many requests"], "rate-limited", null],
      [[`EService: Throttled: ${NOW.getTime() / 1000 + 30}`], "rate-limited", 30_000],
    ];
    for (const [error, kind, delay] of cases) {
      server.route("/0/public/Ticker", { body: { error } });
      const e = (await kraken.fetchRates(opts()).catch((x: unknown) => x)) as RateProviderError;
      expect(e.kind).toBe(kind);
      expect(e.message).toContain(error[0]);
      if (kind === "rate-limited") expect((e as RateLimitedError).retryAfterMs).toBe(delay);
    }
    server.route("/0/public/Ticker", tickerReply);
  });

  describe("transport failures on AssetPairs", () => {
    transportFailureTests(kraken, "/0/public/AssetPairs", () => server, () => ({ body: ASSET_PAIRS }));
  });
  describe("transport failures on Ticker", () => {
    transportFailureTests(kraken, "/0/public/Ticker", () => server, () => tickerReply);
  });
});
