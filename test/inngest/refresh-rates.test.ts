import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InngestTestEngine } from "@inngest/test";
import { getDb } from "@/db/client";
import { allRates } from "@/db/queries/rates";
import { refreshRatesFunction } from "@/inngest/functions/refresh-rates";
import { config } from "@/lib/config";
import type { RatesConfig } from "@/lib/config/rates";
import { oneFileAtATime } from "../serial";
import { RATES, RATES_TESTS_LOCK, resetRates } from "../rates/fixtures";
import { startMarketMock, type MarketMock } from "../rates/market-mock";

oneFileAtATime(RATES_TESTS_LOCK);

/** One run, its sleeps between tries mocked (the engine would otherwise never resume them). */
const runOnce = (tries: number) =>
  new InngestTestEngine({ function: refreshRatesFunction }).execute({
    events: [{ name: "inngest/scheduled.timer", data: {} }],
    steps: Array.from({ length: tries - 1 }, (_, i) => ({ id: `wait-${i}`, handler: () => undefined })),
  });

describe("refresh-rates (Inngest cron function)", () => {
  const rates = config().rates;
  const saved: RatesConfig = { ...rates };
  let mock: MarketMock;
  beforeAll(async () => {
    mock = await startMarketMock();
    const baseUrls = { kraken: mock.baseUrl, coinbase: mock.baseUrl, coingecko: mock.baseUrl };
    Object.assign(rates, { ...RATES, refreshMs: 20_000, baseUrls });
  });
  afterAll(async () => {
    Object.assign(rates, saved);
    await mock?.close();
  });

  it("runs every minute and does nothing without providers", async () => {
    expect(refreshRatesFunction.opts.triggers).toEqual([{ cron: "* * * * *" }]);
    rates.providers = [];
    const { result } = await runOnce(1);
    expect(result).toEqual({ tries: 0, fetched: 0 });
    rates.providers = ["kraken", "coinbase", "coingecko"];
  });

  it("tries every RATE_REFRESH_SECONDS within the minute; the shared schedule lets one try per period fetch", async () => {
    const db = await getDb();
    await resetRates(db, new Date());
    const { result, error } = await runOnce(3);
    expect(error).toBeUndefined();
    // The sleeps are mocked, so the three tries fall in one period: the first fetches, the others find it not due.
    expect(result).toEqual({ tries: 3, fetched: 1 });
    expect(mock.requests.coinbase).toBe(1);
    const providers = new Set((await allRates(db)).map((r) => r.provider));
    expect(providers).toEqual(new Set(["kraken", "coinbase", "coingecko"]));
  });
});
