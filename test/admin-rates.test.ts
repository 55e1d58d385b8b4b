import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { allRates, providerRuns, recordProviderRun, recordRejectedRate, storeRates, type GoodRate } from "@/db/queries/rates";
import { exchangeRates, rateProviderRuns, type ExchangeRateRow } from "@/db/schema";
import { ratesReport, ratesReportOf, type RatesReport } from "@/lib/rates/report";
import { COIN_NAMES } from "@/domain/coins";
import { DEFAULT_RATE_TABLE } from "@/lib/rates/default-rates";
import { acceptedCurrencies } from "@/lib/rates/quote";
import { Dec } from "@/lib/rates/providers/decimal";
import type { RateProviderId } from "@/lib/config/rates";
import type { RatesConfig } from "@/lib/config/rates";
import { isPayableCurrency } from "@/domain/currencies";
import { RatesReportSchema } from "@/lib/openapi/admin-rates";
import { adminToken, expectProblem, json, request } from "./helpers";
import { RATES, RATES_TESTS_LOCK } from "./rates/fixtures";
import { oneFileAtATime } from "./serial";

// The rate tables are shared by every file on one PostgreSQL: the files writing them take turns.
oneFileAtATime(RATES_TESTS_LOCK);

/**
 * The operator's view of the rates (lib/rates/report.ts, GET /admin/v1/rates). The database may
 * be shared with other files (DATABASE_URL), whose provider rows would count in a median: this
 * file's rows are under made-up provider names, and the assertions on values and medians read
 * only those providers' rows. Its clock is in the past, so its rows are stale for any other
 * file's quotes while they exist (a future one would count as fresh), and it removes them.
 */

const A = "test-rates-admin-a";
const B = "test-rates-admin-b";
const C = "test-rates-admin-c";
const MINE = [A, B, C];
const NOW = new Date("2021-05-01T12:00:00.000Z");
const ago = (s: number) => new Date(NOW.getTime() - s * 1000);

const cfg = (over: Partial<RatesConfig> = {}): RatesConfig => ({ ...RATES, providers: [A, B, C] as unknown as RateProviderId[], ...over });

const coin = (r: RatesReport, key: string) => r.coins.find((c) => c.key === key)!;
const currency = (r: RatesReport, key: string) => r.currencies.find((c) => c.key === key)!;

/** A row as the database returns it, for the pure function. */
function row(provider: string, kind: "coin" | "fiat", key: string, value: string, ageSeconds: number): ExchangeRateRow {
  return { provider, kind, key, value, fetchedAt: ago(ageSeconds), rejectedValue: null, rejectedAt: null, rejectedWhy: null };
}

describe("ratesReportOf (pure): market providers", () => {
  it("takes the median of the fresh providers' values: of three, of two, of one among stale ones", () => {
    const rows = [
      row(A, "coin", "BITCOIN", "60000", 10),
      row(B, "coin", "BITCOIN", "61000.5", 20),
      row(C, "coin", "BITCOIN", "70000", 30),
      row(A, "coin", "ETHEREUM", "3000", 5),
      row(B, "coin", "ETHEREUM", "3001", 15),
      row(A, "coin", "LITECOIN", "80", 40),
      row(B, "coin", "LITECOIN", "1", 601), // stale: shown, not used
      row(A, "fiat", "EUR", "0.9", 10),
      row(B, "fiat", "EUR", "0.93", 10),
    ];
    const r = ratesReportOf({ rows, runs: [], pinned: null }, NOW, cfg());
    expect(r).toMatchObject({ source: "providers", usableFor: "all businesses", pinnedFile: null, asOf: null, maxAgeSeconds: 600, refreshSeconds: 60 });
    expect(coin(r, "BITCOIN")).toMatchObject({ usd: "61000.5", usable: true, ageSeconds: 30, why: null });
    expect(coin(r, "BITCOIN").providers.map((p) => p.provider)).toEqual([A, B, C]);
    expect(coin(r, "ETHEREUM")).toMatchObject({ usd: "3000.5", usable: true, ageSeconds: 15 });
    expect(coin(r, "LITECOIN")).toMatchObject({ usd: "80", usable: true, ageSeconds: 40, why: null });
    expect(coin(r, "LITECOIN").providers).toEqual([
      { provider: A, value: "80", fetchedAt: ago(40).toISOString(), ageSeconds: 40, fresh: true, rejected: null },
      { provider: B, value: "1", fetchedAt: ago(601).toISOString(), ageSeconds: 601, fresh: false, rejected: null },
    ]);
    expect(currency(r, "EUR")).toMatchObject({ perUsd: "0.915", usable: true, ageSeconds: 10 });
    expect(currency(r, "USD")).toEqual({ key: "USD", perUsd: "1", providers: [], usable: true, ageSeconds: null, why: null });
  });

  it("says why a coin or a currency cannot be quoted: no provider quotes it, or every value is too old", () => {
    const rows = [row(A, "coin", "MONERO", "160", 700), row(B, "coin", "MONERO", "161", 650), row(A, "fiat", "GBP", "0.8", 900)];
    const r = ratesReportOf({ rows, runs: [], pinned: null }, NOW, cfg());
    expect(coin(r, "MONERO")).toMatchObject({ usd: null, usable: false, ageSeconds: 650, why: "older than 600 s" });
    expect(coin(r, "TON")).toEqual({ key: "TON", usd: null, providers: [], usable: false, ageSeconds: null, why: "no provider quotes it" });
    expect(currency(r, "GBP")).toMatchObject({ perUsd: null, usable: false, ageSeconds: 900, why: "older than 600 s" });
    expect(currency(r, "JPY")).toMatchObject({ perUsd: null, usable: false, why: "no provider quotes it" });
    // Exactly max-age old is still used, as quote-rates.ts uses it.
    const edge = ratesReportOf({ rows: [row(A, "coin", "TON", "5", 600)], runs: [], pinned: null }, NOW, cfg());
    expect(coin(edge, "TON")).toMatchObject({ usd: "5", usable: true, ageSeconds: 600 });
  });

  it("has a row for every coin and every accepted currency, and lists configured providers before others", () => {
    const runs = [
      { provider: "zz-old", lastAttemptAt: ago(5000), lastSuccessAt: ago(5000), lastError: null, lastErrorAt: null, backoffUntil: null },
      { provider: B, lastAttemptAt: ago(10), lastSuccessAt: ago(70), lastError: "HTTP 429", lastErrorAt: ago(10), backoffUntil: ago(-120) },
    ];
    const r = ratesReportOf({ rows: [], runs, pinned: null }, NOW, cfg());
    expect(r.coins.map((c) => c.key)).toEqual(COIN_NAMES);
    expect(r.currencies.map((c) => c.key)).toEqual(Object.keys(DEFAULT_RATE_TABLE.currencies).filter(isPayableCurrency).sort());
    expect(r.providers).toEqual([
      { provider: A, configured: true, lastAttemptAt: null, lastSuccessAt: null, lastError: null, lastErrorAt: null, backoffUntil: null },
      {
        provider: B,
        configured: true,
        lastAttemptAt: ago(10).toISOString(),
        lastSuccessAt: ago(70).toISOString(),
        lastError: "HTTP 429",
        lastErrorAt: ago(10).toISOString(),
        backoffUntil: ago(-120).toISOString(),
      },
      { provider: C, configured: true, lastAttemptAt: null, lastSuccessAt: null, lastError: null, lastErrorAt: null, backoffUntil: null },
      { provider: "zz-old", configured: false, lastAttemptAt: ago(5000).toISOString(), lastSuccessAt: ago(5000).toISOString(), lastError: null, lastErrorAt: null, backoffUntil: null },
    ]);
  });
});

describe("ratesReport: tables", () => {
  let db: Db;
  beforeAll(async () => {
    db = await getDb();
  });

  it("RATES_FILE: the pinned table's values for every business, never stale; a coin it lacks is unusable", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "admin-rates-"));
    const file = path.join(dir, "rates.json");
    writeFileSync(file, JSON.stringify({ asOf: "2021-04-30", coins: { BITCOIN: "60000", LITECOIN: 75.5 }, currencies: { USD: "1", EUR: "1.25", JPY: "0.0067" } }));
    const r = await ratesReport(db, NOW, cfg({ providers: [], pinnedFile: file }));
    RatesReportSchema.parse(r);
    expect(r).toMatchObject({ source: "rates-file", usableFor: "all businesses", pinnedFile: file, asOf: "2021-04-30", providers: [] });
    expect(coin(r, "BITCOIN")).toEqual({ key: "BITCOIN", usd: "60000", providers: [], usable: true, ageSeconds: null, why: null });
    expect(coin(r, "LITECOIN").usd).toBe("75.5");
    expect(coin(r, "ETHEREUM")).toMatchObject({ usd: null, usable: false, why: "not in RATES_FILE" });
    expect(r.currencies.map((c) => c.key)).toEqual(["EUR", "JPY", "USD"]);
    // Units per USD: the inverse of the table's USD per unit.
    expect(currency(r, "EUR")).toMatchObject({ perUsd: "0.8", usable: true, why: null });
    expect(currency(r, "JPY").perUsd).toBe(new Dec(1).div("0.0067").toFixed());
    expect(currency(r, "JPY").perUsd).toMatch(/^149\.2537313/);
    expect(currency(r, "USD").perUsd).toBe("1");
  });

  it("neither RATES_FILE nor providers: the built-in table, usable for test businesses only", async () => {
    const r = await ratesReport(db, NOW, cfg({ providers: [] }));
    RatesReportSchema.parse(r);
    expect(r).toMatchObject({ source: "static-table", usableFor: "test businesses", pinnedFile: null, asOf: "static", providers: [] });
    expect(coin(r, "BITCOIN")).toMatchObject({ usd: DEFAULT_RATE_TABLE.coins.BITCOIN, usable: true, why: null });
    expect(r.coins.every((c) => c.usable)).toBe(true);
    expect(currency(r, "EUR").perUsd).toBe(new Dec(1).div(DEFAULT_RATE_TABLE.currencies.EUR).toFixed());
  });
});

describe("ratesReport: market providers, stored in the database", () => {
  let db: Db;
  beforeAll(async () => {
    db = await getDb();
    const good = (provider: string, kind: "coin" | "fiat", key: string, value: string, ageSeconds: number): GoodRate => ({
      provider,
      kind,
      key,
      value,
      fetchedAt: ago(ageSeconds),
    });
    await storeRates(db, [
      good(A, "coin", "BITCOIN", "64000", 30),
      good(B, "coin", "BITCOIN", "65000", 20),
      good(C, "coin", "BITCOIN", "66000.25", 10),
      good(A, "coin", "ETHEREUM", "3000", 30),
      good(B, "coin", "ETHEREUM", "3100", 30),
      good(A, "coin", "LITECOIN", "80", 30),
      good(B, "coin", "LITECOIN", "81", 900),
      good(A, "coin", "MONERO", "160", 1200),
      good(A, "fiat", "EUR", "0.92", 30),
      good(C, "fiat", "EUR", "0.94", 30),
    ]);
    await recordRejectedRate(db, { provider: A, kind: "coin", key: "BITCOIN", value: "640000", at: ago(15), why: "moved 900.00% from 64000 (more than RATE_MAX_JUMP_PERCENT=20)" });
    await recordProviderRun(db, A, ago(15), { error: null });
    await recordProviderRun(db, B, ago(20), { error: null });
    await recordProviderRun(db, B, ago(5), { error: "HTTP 429 Too Many Requests", backoffUntil: ago(-300) });
  });
  afterAll(async () => {
    await db.delete(exchangeRates).where(inArray(exchangeRates.provider, MINE));
    await db.delete(rateProviderRuns).where(inArray(rateProviderRuns.provider, MINE));
  });

  /** The report from this file's rows only (another file's providers would move the medians). */
  async function myReport() {
    const rows = (await allRates(db)).filter((r) => MINE.includes(r.provider));
    const runs = (await providerRuns(db)).filter((r) => MINE.includes(r.provider));
    return ratesReportOf({ rows, runs, pinned: null }, NOW, cfg());
  }

  it("medians of the fresh values as stored; stale, rejected and missing values say so", async () => {
    const r = await myReport();
    RatesReportSchema.parse(r);
    expect(coin(r, "BITCOIN")).toMatchObject({ usd: "65000", usable: true, ageSeconds: 30, why: null });
    expect(coin(r, "BITCOIN").providers.find((p) => p.provider === A)).toEqual({
      provider: A,
      value: "64000",
      fetchedAt: ago(30).toISOString(),
      ageSeconds: 30,
      fresh: true,
      rejected: { value: "640000", at: ago(15).toISOString(), why: "moved 900.00% from 64000 (more than RATE_MAX_JUMP_PERCENT=20)" },
    });
    expect(coin(r, "ETHEREUM")).toMatchObject({ usd: "3050", usable: true });
    expect(coin(r, "LITECOIN")).toMatchObject({ usd: "80", usable: true, ageSeconds: 30 });
    expect(coin(r, "LITECOIN").providers.map((p) => [p.provider, p.fresh])).toEqual([[A, true], [B, false]]);
    expect(coin(r, "MONERO")).toMatchObject({ usd: null, usable: false, ageSeconds: 1200, why: "older than 600 s" });
    expect(coin(r, "TON")).toMatchObject({ usd: null, usable: false, why: "no provider quotes it" });
    expect(currency(r, "EUR")).toMatchObject({ perUsd: "0.93", usable: true });
    expect(currency(r, "GBP")).toMatchObject({ perUsd: null, usable: false, why: "no provider quotes it" });
    expect(r.providers.find((p) => p.provider === B)).toEqual({
      provider: B,
      configured: true,
      lastAttemptAt: ago(5).toISOString(),
      lastSuccessAt: ago(20).toISOString(),
      lastError: "HTTP 429 Too Many Requests",
      lastErrorAt: ago(5).toISOString(),
      backoffUntil: ago(-300).toISOString(),
    });
    expect(r.providers.find((p) => p.provider === C)).toMatchObject({ configured: true, lastAttemptAt: null, lastSuccessAt: null });
  });

  it("ratesReport reads the same rows and runs from the database", async () => {
    const r = await ratesReport(db, NOW, cfg());
    RatesReportSchema.parse(r);
    expect(r.source).toBe("providers");
    const mine = (list: { provider: string }[]) => list.filter((p) => MINE.includes(p.provider));
    const expected = await myReport();
    for (const key of ["BITCOIN", "LITECOIN", "MONERO"]) expect(mine(coin(r, key).providers)).toEqual(coin(expected, key).providers);
    expect(mine(currency(r, "EUR").providers)).toEqual(currency(expected, "EUR").providers);
    expect(r.providers.slice(0, 3)).toEqual(expected.providers);
  });
});

describe("GET /admin/v1/rates", () => {
  it("needs the admin token", async () => {
    await expectProblem(await request("GET", "/admin/v1/rates"), 401);
    await expectProblem(await request("GET", "/admin/v1/rates", { key: "adm_wrong_token_0123456789" }), 401);
  });

  it("answers the report of the configured source (the tests pin RATES_FILE)", async () => {
    const res = await request("GET", "/admin/v1/rates", { key: adminToken() });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ message: null, errors: null });
    const r = RatesReportSchema.parse(body.data);
    expect(r).toMatchObject({ source: "rates-file", usableFor: "all businesses", providers: [], maxAgeSeconds: 600, refreshSeconds: 60 });
    expect(r.coins.map((c) => c.key)).toEqual(COIN_NAMES);
    expect(r.currencies.map((c) => c.key)).toEqual(acceptedCurrencies());
    expect(coin(r as RatesReport, "BITCOIN")).toMatchObject({ usd: "65000", usable: true });
  });

  it("answers other methods with 405", async () => {
    const res = await request("POST", "/admin/v1/rates", { key: adminToken(), body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });
});
