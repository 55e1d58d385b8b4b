import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CoinName } from "@/domain/coins";
import { providersFromList, type ProviderSnapshot } from "@/lib/rates/providers/index";
import { type RateProviderId } from "@/lib/config/rates";
import { medianDecimal, snapshotRateSource } from "@/lib/rates/snapshot-source";
import { UnknownRateError } from "@/lib/rates/rate-source";
import { startMockServer, type MockServer } from "./mock-server";

const T0 = new Date("2024-03-25T08:46:00Z");
const at = (s: number) => new Date(T0.getTime() + s * 1000);

function snap(provider: RateProviderId, fetchedAt: Date, usd: Partial<Record<CoinName, string>>, fiat: Record<string, string> | null): ProviderSnapshot {
  return {
    provider,
    fetchedAt,
    usd: new Map(Object.entries(usd) as [CoinName, string][]),
    fiat: fiat && new Map(Object.entries(fiat)),
    skipped: [],
  };
}

const SNAPSHOTS = [
  snap("kraken", T0, { BITCOIN: "64000", ETHEREUM: "3000" }, { EUR: "0.92", JPY: "150.125" }),
  snap("coinbase", at(1), { BITCOIN: "64100", ETHEREUM: "3001", ETH_SHIBA_INU: "0.000025" }, { EUR: "0.925", JPY: "151" }),
  snap("coingecko", at(2), { BITCOIN: "70000", ETH_SHIBA_INU: "0.0000171234" }, { EUR: "0.93" }),
];

describe("medianDecimal", () => {
  it("takes the middle value of an odd count and the exact mean of the two middle ones otherwise", () => {
    expect(medianDecimal(["3", "1", "2"])).toBe("2");
    expect(medianDecimal(["64000", "70000", "64100"])).toBe("64100");
    expect(medianDecimal(["0.1", "0.2"])).toBe("0.15");
    expect(medianDecimal(["0.000000000000000000000000000001", "0.000000000000000000000000000002"])).toBe("0.0000000000000000000000000000015");
    expect(() => medianDecimal([])).toThrow(RangeError);
  });
});

describe("snapshotRateSource", () => {
  const source = snapshotRateSource(SNAPSHOTS);

  it("prices in USD with the median of three providers, an outlier left out", async () => {
    expect(await source.rate("BITCOIN", "USD")).toEqual({ rate: "64100", source: "median(kraken,coinbase,coingecko)", at: T0, usdPerUnit: "1" });
    expect((await source.rate("ETHEREUM", "usd")).rate).toBe("3000.5");
  });

  it("crosses EUR and JPY through USD exactly: coin→USD median × USD→currency median", async () => {
    expect(await source.rate("BITCOIN", "EUR")).toEqual({
      rate: "59292.5", // 64100 × 0.925
      source: "median(kraken,coinbase,coingecko)×EUR:median(kraken,coinbase,coingecko)",
      at: T0,
      // the USD value of one euro, the fiat leg inverted at 30 places: netAmountUsd is settled at it
      usdPerUnit: "1.081081081081081081081081081081",
    });
    expect((await source.rate("BITCOIN", "JPY")).rate).toBe("9651056.25"); // 64100 × (150.125 + 151) / 2
    const shib = await source.rate("ETH_SHIBA_INU", "JPY");
    expect(shib).toEqual({
      rate: "0.00317110220625", // (0.000025 + 0.0000171234) / 2 × 150.5625
      source: "median(coinbase,coingecko)×JPY:median(kraken,coinbase)",
      at: T0, // the oldest input: kraken's JPY leg
      usdPerUnit: "0.006641760066417600664176006642", // 1 / 150.5625, half-up at 30 places
    });
  });

  it("refuses a coin no provider quoted and a currency no provider has", async () => {
    await expect(source.rate("MONERO", "USD")).rejects.toBeInstanceOf(UnknownRateError);
    await expect(source.rate("BITCOIN", "GBP")).rejects.toThrow(/USD→GBP/);
  });

  it("lists the currencies it can price and exposes each leg", () => {
    expect(source.currencies()).toEqual(["EUR", "JPY", "USD"]);
    expect(source.fiatPerUsd("USD")).toEqual({ value: "1", providers: [], at: null });
    expect(source.coinUsd("ETH_SHIBA_INU")).toEqual({ value: "0.0000210617", providers: ["coinbase", "coingecko"], at: at(1) });
    expect(source.coinUsd("TON")).toBeNull();
  });
});

describe("providersFromList", () => {
  it("reads a RATE_PROVIDERS-style list and refuses unknown names", () => {
    expect(providersFromList(" Kraken,coinbase,,coingecko,kraken").map((p) => p.id)).toEqual(["kraken", "coinbase", "coingecko"]);
    expect(() => providersFromList("kraken,bitfinex")).toThrow(/Unknown rate provider "bitfinex"; known: kraken, coinbase, coingecko/);
    expect(() => providersFromList(" ")).toThrow(/No rate provider/);
  });
});

describe("three adapters over HTTP into one source", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({
      "/0/public/AssetPairs": { body: { error: [], result: {
        XXBTZUSD: { wsname: "XBT/USD", status: "online" },
        ZEURZUSD: { wsname: "EUR/USD", status: "online" },
      } } },
      "/0/public/Ticker": { body: { error: [], result: { XXBTZUSD: { c: ["64000.0", "1"] }, ZEURZUSD: { c: ["1.25", "1"] } } } },
      "/v2/exchange-rates": { body: { data: { currency: "USD", rates: { BTC: "0.000016", EUR: "0.9", JPY: "150" } } } },
      "/api/v3/simple/price": { body: '{"bitcoin":{"usd":70000,"last_updated_at":1711356350}}' },
      "/api/v3/exchange_rates": { body: '{"rates":{"usd":{"value":64000,"type":"fiat"},"jpy":{"value":9664000,"type":"fiat"}}}' },
    });
  });
  afterAll(() => server.close());

  it("fetches each provider from the local server and prices BTC in EUR and JPY", async () => {
    const o = { baseUrl: server.baseUrl, timeoutMs: 2000, now: () => T0 };
    const snapshots = await Promise.all(providersFromList("kraken,coinbase,coingecko").map((p) => p.fetchRates(o)));
    const source = snapshotRateSource(snapshots);
    // BTC/USD: kraken 64000, coinbase 1/0.000016 = 62500, coingecko 70000 → 64000.
    expect((await source.rate("BITCOIN", "USD")).rate).toBe("64000");
    // EUR per USD: kraken 1/1.25 = 0.8, coinbase 0.9 → 0.85; JPY: coinbase 150, coingecko 151 → 150.5.
    expect((await source.rate("BITCOIN", "EUR")).rate).toBe("54400");
    expect((await source.rate("BITCOIN", "JPY")).rate).toBe("9632000");
  });
});
