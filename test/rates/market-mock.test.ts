import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coinbase, coingecko, kraken, RateProviderError, type RateProvider } from "@/lib/rates/providers/index";
import { snapshotRateSource } from "@/lib/rates/snapshot-source";
import { DEFAULT_RATE_TABLE } from "@/lib/rates/default-rates";
import { tableRate } from "@/lib/rates/rate-source";
import { marketMockControl, startMarketMock, type MarketMock } from "./market-mock";

const PROVIDERS: RateProvider[] = [kraken, coinbase, coingecko];
/** EUR per USD as the static table implies it: 1 / 1.08 at 30 places, half-up. */
const Dec = Big();
Dec.DP = 30;
Dec.RM = Big.roundHalfUp;
const EUR_PER_USD = new Dec(1).div(DEFAULT_RATE_TABLE.currencies.EUR).toFixed();

let mock: MarketMock;
beforeAll(async () => {
  mock = await startMarketMock();
});
afterAll(() => mock.close());
const opts = () => ({ baseUrl: mock.baseUrl, timeoutMs: 2000 });

describe("market mock", () => {
  it.each(PROVIDERS.map((p) => [p.id, p] as const))("%s reads BTC in USD and EUR per USD equal to the table", async (_id, provider) => {
    const s = await provider.fetchRates(opts());
    expect(s.usd.get("BITCOIN")).toBe(DEFAULT_RATE_TABLE.coins.BITCOIN);
    expect(s.fiat!.get("EUR")).toBe(EUR_PER_USD);
  });

  it("quotes from the three providers' medians equal the static table's", async () => {
    const snapshots = await Promise.all(PROVIDERS.map((p) => p.fetchRates(opts())));
    const source = snapshotRateSource(snapshots);
    expect((await source.rate("BITCOIN", "USD")).rate).toBe("65000");
    expect((await source.rate("ETH_USD_COIN", "USD")).rate).toBe("1");
    const eur = await source.rate("BITCOIN", "EUR");
    expect(eur.source).toBe("median(kraken,coinbase,coingecko)×EUR:median(kraken,coinbase,coingecko)");
    expect(new Big(eur.rate).minus(tableRate(DEFAULT_RATE_TABLE, "BITCOIN", "EUR")).abs().lt("1e-24")).toBe(true);
    for (const coin of ["TRON", "SOLANA", "BNB", "ETH_SHIBA_INU", "ETH_UNISWAP"] as const) {
      expect((await source.rate(coin, "USD")).rate).toBe(DEFAULT_RATE_TABLE.coins[coin]);
    }
    // Kraken has JPY (USD/JPY book), not e.g. INR; Coinbase and CoinGecko have both.
    expect(snapshots[0].fiat!.has("JPY")).toBe(true);
    expect(snapshots[0].fiat!.has("INR")).toBe(false);
    expect(snapshots[1].usd.has("ETH_USD_COIN")).toBe(false); // Coinbase's USDC is no market price
  });

  it("setPrice moves every provider's price; requests are counted per provider", async () => {
    const before = { ...mock.requests };
    mock.setPrice("BTC", "70123.45");
    for (const p of PROVIDERS) expect((await p.fetchRates(opts())).usd.get("BITCOIN")).toBe("70123.45");
    expect(mock.requests.kraken - before.kraken).toBe(2);
    expect(mock.requests.coinbase - before.coinbase).toBe(1);
    expect(mock.requests.coingecko - before.coingecko).toBe(2);
    mock.reset();
  });

  it("silenced, every adapter times out; the HTTP control switches it like the in-process one", async () => {
    const control = marketMockControl(mock.baseUrl);
    await control.silence(true);
    expect(mock.silenced).toBe(true);
    const started = performance.now();
    const errors = await Promise.all(PROVIDERS.map((p) => p.fetchRates({ ...opts(), timeoutMs: 300 }).catch((e: unknown) => e)));
    expect(performance.now() - started).toBeLessThan(2000);
    for (const e of errors) {
      expect(e).toBeInstanceOf(RateProviderError);
      expect((e as RateProviderError).kind).toBe("timeout");
    }
    await control.silence(false);
    await control.setPrice("ETH", "3100");
    expect((await coinbase.fetchRates(opts())).usd.get("ETHEREUM")).toBe("3100");
    const counts = await control.requests();
    expect(counts.silenced).toBe(false);
    expect(counts.requests.coinbase).toBe(counts.answered.coinbase + 1);
    await control.reset();
    expect(mock.prices.coins.ETH).toBe("3000");
  });
});
