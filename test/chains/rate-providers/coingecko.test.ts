import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coingecko, RateProviderError } from "@/lib/rates/providers/index";
import { startMockServer, transportFailureTests, type MockServer } from "./mock-server";

const NOW = new Date("2024-03-25T08:46:00Z"); // 1711356360
const PRICE = "/api/v3/simple/price";
const FX = "/api/v3/exchange_rates";

/**
 * Sent verbatim: JSON numbers as CoinGecko writes them, including more digits than a double
 * holds (SHIB), an exponent (XMR), a stale quote (DAI) and a quote without `usd` (APE).
 */
const PRICES = `{
  "bitcoin":{"usd":67187.3358936566,"usd_24h_change":null,"last_updated_at":1711356300},
  "shiba-inu":{"usd":0.000017123456789012345678,"last_updated_at":1711356290},
  "tether":{"usd":1.0001,"last_updated_at":1711356300},
  "usd-coin":{"usd":0.87,"last_updated_at":1711356300},
  "monero":{"usd":1.5e2,"last_updated_at":1711356300},
  "matic-network":{"usd":0.7,"last_updated_at":1711356300},
  "dai":{"usd":1,"last_updated_at":1711350000},
  "apecoin":{"last_updated_at":1711356300}
}`;

const RATES = {
  rates: {
    btc: { name: "Bitcoin", unit: "BTC", value: 1.0, type: "crypto" },
    usd: { name: "US Dollar", unit: "$", value: 64000.0, type: "fiat" },
    eur: { name: "Euro", unit: "€", value: 59200.0, type: "fiat" },
    jpy: { name: "Japanese Yen", unit: "¥", value: 9632000, type: "fiat" },
    xau: { name: "Gold - Troy Ounce", unit: "XAU", value: 27.5, type: "commodity" },
  },
};

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ [PRICE]: { body: PRICES }, [FX]: { body: RATES } });
});
afterAll(() => server.close());
const opts = () => ({ baseUrl: server.baseUrl, timeoutMs: 2000, now: () => NOW });

describe("coingecko adapter", () => {
  it("asks simple/price for the mapped ids in usd with last_updated_at, sending the demo key", async () => {
    server.requests.length = 0;
    await coingecko.fetchRates({ ...opts(), apiKey: "CG-test" });
    const req = server.requests.find((r) => r.url.pathname === PRICE)!;
    const ids = req.url.searchParams.get("ids")!.split(",");
    expect(ids).toContain("bitcoin");
    expect(ids).toContain("matic-network");
    expect(ids).not.toContain("polygon-ecosystem-token");
    expect(ids).toHaveLength(18);
    expect(req.url.searchParams.get("vs_currencies")).toBe("usd");
    expect(req.url.searchParams.get("include_last_updated_at")).toBe("true");
    expect(req.headers["x-cg-demo-api-key"]).toBe("CG-test");
  });

  it("keeps JSON numbers' exact digits, never a double", async () => {
    const s = await coingecko.fetchRates(opts());
    expect(s.usd.get("BITCOIN")).toBe("67187.3358936566");
    expect(s.usd.get("ETH_SHIBA_INU")).toBe("0.000017123456789012345678");
    expect(s.usd.get("MONERO")).toBe("150");
    expect(s.usd.get("CONTRACT_TRC20_USDT")).toBe("1.0001");
    expect(s.usd.get("SOL_USD_COIN")).toBe("0.87");
    expect(s.usd.get("ETH_MATIC")).toBe("0.7");
  });

  it("derives fiat per USD from exchange_rates (BTC-based) and ignores non-fiat entries", async () => {
    const s = await coingecko.fetchRates(opts());
    expect(Object.fromEntries(s.fiat!)).toEqual({ EUR: "0.925", JPY: "150.5" });
  });

  it("skips missing ids, a missing usd field and stale quotes", async () => {
    const s = await coingecko.fetchRates(opts());
    expect(s.skipped).toContainEqual({ key: "ETHEREUM", why: "ETH: id ethereum is not in the answer" });
    expect(s.skipped).toContainEqual({ key: "ETH_APE_COIN", why: "APE: apecoin.usd: price is missing, not a number" });
    expect(s.skipped).toContainEqual({ key: "ETH_DAI", why: "DAI: dai.last_updated_at 2024-03-25T07:00:00.000Z is older than 900000 ms" });
    const fresh = await coingecko.fetchRates({ ...opts(), maxAgeMs: 24 * 3600_000 });
    expect(fresh.usd.get("ETH_DAI")).toBe("1");
  });

  it("skips a zero, a negative and a string price alone", async () => {
    server.route(PRICE, { body: `{"bitcoin":{"usd":0},"tether":{"usd":-1.0},"tron":{"usd":"abc"},"solana":{"usd":145.5}}` });
    const s = await coingecko.fetchRates(opts());
    server.route(PRICE, { body: PRICES });
    expect(Object.fromEntries(s.usd)).toEqual({ SOLANA: "145.5" });
    expect(s.skipped).toContainEqual({ key: "BITCOIN", why: "BTC: bitcoin.usd: price 0 is not positive" });
    expect(s.skipped).toContainEqual({ key: "ETH_TETHER", why: "USDT: tether.usd: price -1.0 is not positive" });
    expect(s.skipped).toContainEqual({ key: "TRON", why: 'TRX: tron.usd: price "abc" is not a decimal number' });
  });

  it("exchange_rates without `rates` is malformed; without a usd entry, fiat is null and coins stand", async () => {
    server.route(FX, { body: { data: {} } });
    const e = (await coingecko.fetchRates(opts()).catch((x: unknown) => x)) as RateProviderError;
    expect(e.kind).toBe("malformed");
    expect(e.message).toContain("rates");
    server.route(FX, { body: { rates: { eur: RATES.rates.eur } } });
    const s = await coingecko.fetchRates(opts());
    server.route(FX, { body: RATES });
    expect(s.fiat).toBeNull();
    expect(s.usd.get("BITCOIN")).toBe("67187.3358936566");
    expect(s.skipped).toContainEqual({ key: "fiat", why: "exchange_rates.rates.usd.value: price is missing, not a number" });
  });

  describe("transport failures on simple/price", () => {
    transportFailureTests(coingecko, PRICE, () => server, () => ({ body: PRICES }));
  });
  describe("transport failures on exchange_rates", () => {
    transportFailureTests(coingecko, FX, () => server, () => ({ body: RATES }));
  });
});
