import { beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { allRates, providerRuns } from "@/db/queries/rates";
import { findBusiness } from "@/db/queries/businesses";
import { quoteRate } from "@/lib/rates/quote";
import { jumpPercent, refreshRates } from "@/lib/rates/refresh";
import { newBusiness } from "../helpers";
import { oneFileAtATime } from "../serial";
import { at, failure, limited, RATES, RATES_TESTS_LOCK, resetRates, scriptedProvider } from "./fixtures";
import { startMarketMock } from "./market-mock";

oneFileAtATime(RATES_TESTS_LOCK);

const quiet = () => ({ warn: vi.fn() });

function market() {
  return {
    kraken: scriptedProvider("kraken", { usd: { BITCOIN: "64000", LITECOIN: "80.5" }, fiat: { EUR: "0.92" } }),
    coinbase: scriptedProvider("coinbase", { usd: { BITCOIN: "64100" }, fiat: { EUR: "0.93", JPY: "150" } }),
    coingecko: scriptedProvider("coingecko", { usd: { BITCOIN: "64200.123456789012345678" }, fiat: null }),
  };
}

async function stored() {
  const rows = await allRates(await getDb());
  return Object.fromEntries(rows.map((r) => [`${r.provider}:${r.kind}:${r.key}`, { value: r.value, at: r.fetchedAt.toISOString(), rejected: r.rejectedValue }]));
}

describe("refreshRates", () => {
  beforeEach(async () => resetRates(await getDb(), at(0)));

  it("does nothing without providers", async () => {
    expect(await refreshRates(await getDb(), { ...RATES, providers: [] }, { now: at(0) })).toBeNull();
  });

  it("stores every provider's values with the provider and the time read, exactly", async () => {
    const m = market();
    const result = await refreshRates(await getDb(), RATES, { now: at(1), providers: Object.values(m), log: quiet() });
    expect(result).toEqual({
      answered: [
        { provider: "kraken", stored: 3, refused: 0 },
        { provider: "coinbase", stored: 3, refused: 0 },
        { provider: "coingecko", stored: 1, refused: 0 },
      ],
      failed: [],
      backingOff: [],
    });
    const rows = await stored();
    expect(rows["coingecko:coin:BITCOIN"].value).toBe("64200.123456789012345678");
    expect(rows["kraken:fiat:EUR"]).toEqual({ value: "0.92", at: at(1).toISOString(), rejected: null });
    expect(Object.keys(rows)).toHaveLength(7);
  });

  it("fetches once per period, however many instances ask", async () => {
    const db = await getDb();
    const m = market();
    const providers = Object.values(m);
    // Five instances ask at the same moment: one fetches.
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => refreshRates(db, RATES, { now: at(1), owner: `instance-${n}`, providers, log: quiet() })),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(m.kraken.calls).toBe(1);
    // Within the period nobody fetches; once it has passed, one does again.
    expect(await refreshRates(db, RATES, { now: at(59), owner: "instance-2", providers, log: quiet() })).toBeNull();
    expect(await refreshRates(db, RATES, { now: at(61), owner: "instance-3", providers, log: quiet() })).not.toBeNull();
    expect(m.kraken.calls).toBe(2);
  });

  it("skips and logs a provider that fails, keeping its last good values; the others are stored", async () => {
    const db = await getDb();
    const m = market();
    await refreshRates(db, RATES, { now: at(0), providers: Object.values(m) });
    m.kraken.answer = failure("kraken");
    m.coinbase.answer = { usd: { BITCOIN: "64150" } };
    const log = quiet();
    const result = await refreshRates(db, RATES, { now: at(60), providers: Object.values(m), log });
    expect(result!.failed).toEqual([{ provider: "kraken", error: "kraken: GET api.example/ failed: ECONNREFUSED" }]);
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining("kraken: GET api.example/ failed: ECONNREFUSED"));
    const rows = await stored();
    expect(rows["kraken:coin:BITCOIN"]).toMatchObject({ value: "64000", at: at(0).toISOString() });
    expect(rows["coinbase:coin:BITCOIN"]).toMatchObject({ value: "64150", at: at(60).toISOString() });
    const runs = Object.fromEntries((await providerRuns(db)).map((r) => [r.provider, r]));
    expect(runs.kraken).toMatchObject({ lastError: "kraken: GET api.example/ failed: ECONNREFUSED", lastErrorAt: at(60), lastSuccessAt: at(0) });
    expect(runs.coinbase).toMatchObject({ lastSuccessAt: at(60), backoffUntil: null });
  });

  it("tries again after 15 s, not a whole period, when every provider failed", async () => {
    const db = await getDb();
    const m = market();
    m.kraken.answer = failure("kraken");
    m.coinbase.answer = failure("coinbase");
    const providers = [m.kraken, m.coinbase];
    await refreshRates(db, RATES, { now: at(0), providers, log: quiet() });
    expect(await refreshRates(db, RATES, { now: at(14), providers, log: quiet() })).toBeNull();
    m.coinbase.answer = { usd: { BITCOIN: "64100" } };
    expect((await refreshRates(db, RATES, { now: at(15), providers, log: quiet() }))!.answered).toEqual([{ provider: "coinbase", stored: 1, refused: 0 }]);
    // One answered: the next is a period later again.
    expect(await refreshRates(db, RATES, { now: at(74), providers, log: quiet() })).toBeNull();
    expect(m.coinbase.calls).toBe(2);
  });

  it("refuses a jump beyond RATE_MAX_JUMP_PERCENT against a fresh last value, and logs it", async () => {
    const db = await getDb();
    const m = market();
    await refreshRates(db, RATES, { now: at(0), providers: Object.values(m) });
    m.kraken.answer = { usd: { BITCOIN: "6400", LITECOIN: "96" }, fiat: { EUR: "0.92" } }; // a lost digit; LTC +19.25 %
    const log = quiet();
    const result = await refreshRates(db, RATES, { now: at(60), providers: [m.kraken], log });
    expect(result!.answered).toEqual([{ provider: "kraken", stored: 2, refused: 1 }]);
    expect(log.warn).toHaveBeenCalledWith("kraken BITCOIN 6400 refused: moved 90.00% from 64000 (more than RATE_MAX_JUMP_PERCENT=20)");
    const rows = await stored();
    expect(rows["kraken:coin:BITCOIN"]).toEqual({ value: "64000", at: at(0).toISOString(), rejected: "6400" });
    expect(rows["kraken:coin:LITECOIN"].value).toBe("96");
  });

  it("takes a large move once the last good value has aged out, so a real move locks nothing for ever", async () => {
    const db = await getDb();
    const m = market();
    await refreshRates(db, RATES, { now: at(0), providers: [m.kraken] });
    m.kraken.answer = { usd: { BITCOIN: "40000" } };
    const late = new Date(at(0).getTime() + RATES.maxAgeMs + 1);
    const result = await refreshRates(db, RATES, { now: late, providers: [m.kraken], log: quiet() });
    expect(result!.answered).toEqual([{ provider: "kraken", stored: 1, refused: 0 }]);
    expect((await stored())["kraken:coin:BITCOIN"]).toEqual({ value: "40000", at: late.toISOString(), rejected: null });
  });

  it("does not ask a provider that rate-limited us before its Retry-After has passed", async () => {
    const db = await getDb();
    const m = market();
    m.coingecko.answer = limited("coingecko", 150_000);
    await refreshRates(db, RATES, { now: at(0), providers: Object.values(m), log: quiet() });
    const runs = Object.fromEntries((await providerRuns(db)).map((r) => [r.provider, r]));
    expect(runs.coingecko.backoffUntil).toEqual(new Date(at(0).getTime() + 150_000));
    m.coingecko.answer = { usd: { BITCOIN: "64300" } };
    const second = await refreshRates(db, RATES, { now: new Date(at(0).getTime() + 60_000), providers: Object.values(m), log: quiet() });
    expect(second!.backingOff).toEqual(["coingecko"]);
    expect(m.coingecko.calls).toBe(1);
    const third = await refreshRates(db, RATES, { now: new Date(at(0).getTime() + 180_000), providers: Object.values(m), log: quiet() });
    expect(third!.backingOff).toEqual([]);
    expect(m.coingecko.calls).toBe(2);
  });

  it("backs off two periods after a 429 without Retry-After", async () => {
    const db = await getDb();
    const m = market();
    m.kraken.answer = limited("kraken", null);
    await refreshRates(db, RATES, { now: at(0), providers: [m.kraken], log: quiet() });
    const [run] = await providerRuns(db);
    expect(run.backoffUntil).toEqual(new Date(at(0).getTime() + 2 * RATES.refreshMs));
  });
});

describe("refreshRates with the real adapters over HTTP", () => {
  it("stores all three providers' answers; when they go silent it logs the timeouts, keeps the values, and quotes stop once they age out", async () => {
    const db = await getDb();
    // The real clock: CoinGecko's answer carries its own time (last_updated_at), checked against it.
    const t0 = new Date();
    const later = (ms: number) => new Date(t0.getTime() + ms);
    await resetRates(db, t0);
    const mock = await startMarketMock();
    try {
      const cfg = { ...RATES, timeoutMs: 500, baseUrls: { kraken: mock.baseUrl, coinbase: mock.baseUrl, coingecko: mock.baseUrl } };
      const first = await refreshRates(db, cfg, { now: t0 });
      expect(first!.failed).toEqual([]);
      expect(first!.answered.map((a) => a.provider)).toEqual(["kraken", "coinbase", "coingecko"]);
      const b = (await findBusiness(db, (await newBusiness({ mode: "live" })).businessId))!;
      expect(await quoteRate(db, b, "BITCOIN", "EUR", later(30_000), cfg)).toMatchObject({
        rate: "60185.18518518518518518518518519", // 65000 × (1 / 1.08): the mock's EUR leg is 1 / 1.08 at 30 places
        source: "median(coinbase,coingecko,kraken)×EUR:median(coinbase,coingecko,kraken)",
        at: t0,
      });

      mock.silence(true);
      const log = quiet();
      const second = await refreshRates(db, cfg, { now: later(60_000), log });
      expect(second!.answered).toEqual([]);
      expect(second!.failed.map((f) => f.provider)).toEqual(["kraken", "coinbase", "coingecko"]);
      expect(second!.failed[0].error).toMatch(/^kraken: no complete answer from 127\.0\.0\.1:\d+\/0\/public\/AssetPairs within 500 ms$/);
      expect(log.warn).toHaveBeenCalledTimes(3);
      expect((await stored())["coinbase:coin:BITCOIN"].at).toBe(t0.toISOString());
      // Still quotable until the values are RATE_MAX_AGE_SECONDS old, then refused.
      await expect(quoteRate(db, b, "BITCOIN", "EUR", later(RATES.maxAgeMs), cfg)).resolves.toMatchObject({ at: t0 });
      await expect(quoteRate(db, b, "BITCOIN", "EUR", later(RATES.maxAgeMs + 1), cfg)).rejects.toMatchObject({
        status: 503,
        detail: "Bitcoin is temporarily unavailable: the market rate of BTC in USD is older than 10 minutes. Choose another coin or try again later.",
      });
    } finally {
      await mock.close();
    }
  });
});

describe("jumpPercent", () => {
  it("is exact, in percent of the last value", () => {
    expect(jumpPercent("100", "120").toFixed()).toBe("20");
    expect(jumpPercent("100", "79.9").toFixed()).toBe("20.1");
    expect(jumpPercent("0.00002", "0.000025").toFixed()).toBe("25");
  });
});
