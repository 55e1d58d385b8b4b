import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ratesCheck } from "@/scripts/rates-check";
import { startMockServer, type MockServer } from "./mock-server";

/** `npm run rates:check` against the local stand-in for the three providers' hosts. */
describe("npm run rates:check", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({
      "/0/public/AssetPairs": { body: { error: [], result: { XXBTZUSD: { wsname: "XBT/USD", status: "online" }, ZEURZUSD: { wsname: "EUR/USD", status: "online" } } } },
      "/0/public/Ticker": { body: { error: [], result: { XXBTZUSD: { c: ["64000.0", "1"] }, ZEURZUSD: { c: ["1.25", "1"] } } } },
      "/v2/exchange-rates": { body: { data: { currency: "USD", rates: { BTC: "0.000016", EUR: "0.9", JPY: "150" } } } },
      "/api/v3/simple/price": { silent: true },
    });
  });
  afterAll(() => server.close());

  it("prints what each provider answered, its failure, and the median rates; exits 1 when one failed", async () => {
    const lines: string[] = [];
    const code = await ratesCheck(["--base-url", server.baseUrl, "--timeout-ms", "500"], (l) => lines.push(l));
    const text = lines.join("\n");
    expect(code).toBe(1);
    expect(text).toMatch(/^kraken: ok in \d+ ms: 1 coins priced in USD, 1 fiat currencies, \d+ skipped$/m);
    expect(text).toMatch(/^coinbase: ok in \d+ ms: /m);
    expect(text).toMatch(/^coingecko: FAILED: .*/m);
    // BTC: kraken 64000, coinbase 1/0.000016 = 62500 → 63250; EUR per USD: 0.8 and 0.9 → 0.85.
    expect(text).toContain("median of kraken, coinbase:");
    expect(text).toContain("1 BTC (BITCOIN) = 63250 USD · 53762.5 EUR · 9487500 JPY");
    expect(text).toContain("1 LTC (LITECOIN) = no USD rate · no EUR rate · no JPY rate");
  });

  it("exits 0 when every provider named answered", async () => {
    expect(await ratesCheck(["kraken,coinbase", "--base-url", server.baseUrl], () => {})).toBe(0);
  });
});
