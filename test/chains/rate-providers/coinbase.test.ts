import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coinbase, RateProviderError } from "@/lib/rates/providers/index";
import { startMockServer, transportFailureTests, type MockServer } from "./mock-server";

const NOW = new Date("2024-03-25T08:46:00Z");
const PATH = "/v2/exchange-rates";

/** The documented v2 shape: strings, upper-case codes, fiat and crypto mixed, base USD. */
const RATES = {
  BTC: "0.000015594",
  ETH: "0.0004",
  SHIB: "40000",
  USDT: "1.0005",
  USDC: "1.0",
  DOGE: "6.5",
  EUR: "0.9259",
  JPY: "151.5",
  GBP: "0.79",
  XAU: "0.0004",
};
const good = () => ({ body: { data: { currency: "USD", rates: RATES } } });

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ [PATH]: good() });
});
afterAll(() => server.close());
const opts = () => ({ baseUrl: server.baseUrl, timeoutMs: 2000, now: () => NOW });

describe("coinbase adapter", () => {
  it("asks for currency=USD and inverts coins per USD to USD per coin at 30 places", async () => {
    server.requests.length = 0;
    const s = await coinbase.fetchRates(opts());
    expect(server.requests[0].url.searchParams.get("currency")).toBe("USD");
    expect(s.provider).toBe("coinbase");
    expect(s.fetchedAt).toEqual(NOW);
    expect(s.usd.get("BITCOIN")).toBe("64127.228421187636270360395023727075");
    expect(s.usd.get("ETHEREUM")).toBe("2500");
    expect(s.usd.get("ETH_SHIBA_INU")).toBe("0.000025");
    expect(s.usd.get("SOL_TETHER")).toBe("0.999500249875062468765617191404");
    // Fiat as sent (units per USD); XAU has no minor units and DOGE is no currency.
    expect(Object.fromEntries(s.fiat!)).toEqual({ EUR: "0.9259", JPY: "151.5", GBP: "0.79" });
  });

  it("skips USDC (booked as USD, no market price) and coins absent from data.rates", async () => {
    const s = await coinbase.fetchRates(opts());
    expect(s.usd.has("ETH_USD_COIN")).toBe(false);
    expect(s.skipped).toContainEqual({ key: "ETH_USD_COIN", why: "USDC: Coinbase books USDC as USD, so its rate is no market price" });
    expect(s.usd.has("MONERO")).toBe(false);
    expect(s.skipped).toContainEqual({ key: "MONERO", why: "XMR: not in data.rates" });
  });

  it("skips a zero, a negative and a non-numeric rate alone", async () => {
    server.route(PATH, { body: { data: { currency: "USD", rates: { ...RATES, BTC: "0", ETH: "-0.0004", SHIB: "abc", GBP: "n/a" } } } });
    const s = await coinbase.fetchRates(opts());
    server.route(PATH, good());
    expect(s.usd.get("SOL_TETHER")).toBe("0.999500249875062468765617191404");
    expect(s.skipped).toContainEqual({ key: "BITCOIN", why: "BTC: data.rates.BTC: price 0 is not positive" });
    expect(s.skipped).toContainEqual({ key: "ETHEREUM", why: "ETH: data.rates.ETH: price -0.0004 is not positive" });
    expect(s.skipped).toContainEqual({ key: "ETH_SHIBA_INU", why: 'SHIB: data.rates.SHIB: price "abc" is not a decimal number' });
    expect(s.skipped).toContainEqual({ key: "GBP", why: 'data.rates.GBP: price "n/a" is not a decimal number' });
    expect([...s.usd.keys()]).not.toContain("BITCOIN");
    expect(s.fiat!.has("GBP")).toBe(false);
  });

  it("an answer without data.rates, or for another base currency, is malformed", async () => {
    for (const body of [{ data: { currency: "USD" } }, { data: { currency: "BTC", rates: RATES } }]) {
      server.route(PATH, { body });
      const e = (await coinbase.fetchRates(opts()).catch((x: unknown) => x)) as RateProviderError;
      expect(e).toBeInstanceOf(RateProviderError);
      expect(e.kind).toBe("malformed");
      expect(e.message).toMatch(/data\.(rates|currency)/);
    }
    server.route(PATH, good());
  });

  it("the documented `errors` envelope is a provider error with its message", async () => {
    server.route(PATH, { body: { errors: [{ id: "internal_server_error", message: "Something went wrong" }] } });
    const e = (await coinbase.fetchRates(opts()).catch((x: unknown) => x)) as RateProviderError;
    server.route(PATH, good());
    expect(e.kind).toBe("provider");
    expect(e.message).toContain("Something went wrong");
  });

  it("a 404 with a `message` body is an http error quoting it", async () => {
    const e = (await coinbase.fetchRates({ ...opts(), baseUrl: `${server.baseUrl}/elsewhere` }).catch((x: unknown) => x)) as RateProviderError;
    expect(e.kind).toBe("http");
    expect(e.status).toBe(404);
    expect(e.message).toContain("NotFound");
  });

  describe("transport failures", () => {
    transportFailureTests(coinbase, PATH, () => server, good);
  });
});
