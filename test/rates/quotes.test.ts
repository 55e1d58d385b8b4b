import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { findCharge } from "@/db/queries/charges";
import { storeRates, type GoodRate } from "@/db/queries/rates";
import { findBusiness } from "@/db/queries/businesses";
import { quoteRate, unquotableCoins } from "@/lib/rates/quote";
import { selectCoinAction } from "@/lib/checkout/actions";
import { config } from "@/lib/config";
import type { RatesConfig } from "@/lib/config/rates";
import { createPayment, expectProblem, json, newBusiness, request } from "../helpers";
import { oneFileAtATime } from "../serial";
import { RATES, RATES_TESTS_LOCK, resetRates } from "./fixtures";

oneFileAtATime(RATES_TESTS_LOCK);

type Biz = Awaited<ReturnType<typeof newBusiness>>;

/** The service's own rates configuration, switched to market providers for this file. */
const saved: RatesConfig = { ...config().rates };
beforeAll(() => void Object.assign(config().rates, { ...RATES, maxAgeMs: 600_000 }));
afterAll(() => void Object.assign(config().rates, saved));

const ago = (ms: number) => new Date(Date.now() - ms);

/** Three providers' values, read `age` ms ago. */
async function market(age = 1_000, extra: GoodRate[] = []) {
  const fetchedAt = ago(age);
  const rows: GoodRate[] = [
    ...[
      ["kraken", "64000", "0.92", "150"],
      ["coinbase", "64100", "0.93", "151"],
      ["coingecko", "64300", "0.925", null],
    ].flatMap(([provider, btc, eur, jpy]) => [
      { provider: provider!, kind: "coin" as const, key: "BITCOIN", value: btc!, fetchedAt },
      { provider: provider!, kind: "fiat" as const, key: "EUR", value: eur!, fetchedAt },
      ...(jpy ? [{ provider: provider!, kind: "fiat" as const, key: "JPY", value: jpy, fetchedAt }] : []),
    ]),
    ...extra,
  ];
  await storeRates(await getDb(), rows);
}

async function select(b: Biz, id: string, coin: string) {
  return request("POST", `/v1/businesses/${b.businessId}/payments/${id}/simulate`, { key: b.apiKey, body: { action: "select", coin } });
}

describe("quotes from stored market rates", () => {
  beforeEach(async () => resetRates(await getDb()));

  it("quotes a EUR payment at the median coin price × the median USD→EUR, and locks it on the charge", async () => {
    await market();
    const b = await newBusiness();
    const { id } = await createPayment(b, { currency: "EUR", amount: 100 });
    const res = await select(b, id, "BITCOIN");
    const p = (await json(res)).data;
    expect(res.status).toBe(200);
    expect(p.platformCryptoCharge.exchangeRate).toBe(59292.5); // 64100 × 0.925
    expect(p.platformCryptoCharge.amount).toBe(0.00168656); // 100 / 59292.5 = 0.0016865539…, rounded up to a satoshi
    const charge = (await findCharge(await getDb(), id))!;
    expect(charge.rateSource).toBe("median(coinbase,coingecko,kraken)×EUR:median(coinbase,coingecko,kraken)");
    expect(Date.now() - charge.rateFetchedAt!.getTime()).toBeGreaterThanOrEqual(1_000);
    expect(Date.now() - charge.rateFetchedAt!.getTime()).toBeLessThan(60_000);
    expect(charge.usdPerCurrencyUnit).toBe("1.081081081081081081081081081081");
  });

  it("crosses JPY through USD with the providers that have it", async () => {
    await market();
    const b = await newBusiness();
    const { id } = await createPayment(b, { currency: "JPY", amount: 10000 });
    const p = (await json(await select(b, id, "BITCOIN"))).data;
    expect(p.platformCryptoCharge.exchangeRate).toBe(9647050); // 64100 × (150 + 151) / 2
    expect((await findCharge(await getDb(), id))!.rateSource).toBe("median(coinbase,coingecko,kraken)×JPY:median(coinbase,kraken)");
  });

  it("settles netAmountUsd at the USD value of the currency locked with the quote", async () => {
    await market();
    const b = await newBusiness({ feePercent: 0 });
    const { id } = await createPayment(b, { currency: "EUR", amount: 100 });
    await select(b, id, "BITCOIN");
    await request("POST", `/v1/businesses/${b.businessId}/payments/${id}/simulate`, { key: b.apiKey, body: { action: "pay", confirmations: 6 } });
    const done = (await json(await request("POST", `/v1/businesses/${b.businessId}/payments/${id}/simulate`, { key: b.apiKey, body: { action: "confirm" } }))).data;
    expect(done.status).toBe("COMPLETED");
    expect(done.endAmount).toBe(100);
    expect(done.netAmountUsd).toBe(108.11); // 100 EUR / 0.925
  });

  it("refuses a coin whose rate is older than RATE_MAX_AGE_SECONDS with a 503, and still quotes a fresh one", async () => {
    await market(700_000, [{ provider: "kraken", kind: "coin", key: "LITECOIN", value: "80", fetchedAt: ago(1_000) }]);
    await storeRates(await getDb(), [{ provider: "kraken", kind: "fiat", key: "EUR", value: "0.92", fetchedAt: ago(1_000) }]);
    const b = await newBusiness();
    const { id } = await createPayment(b, { currency: "EUR", amount: 20 });
    const problem = await expectProblem(await select(b, id, "BITCOIN"), 503);
    expect(problem.type).toMatch(/#problem-rate-unavailable$/);
    expect(problem.detail).toBe(
      "Bitcoin is temporarily unavailable: the market rate of BTC in USD is older than 10 minutes. Choose another coin or try again later.",
    );
    const ok = await select(b, id, "LITECOIN");
    expect(ok.status).toBe(200);
    expect((await json(ok)).data.platformCryptoCharge.exchangeRate).toBe(73.6); // 80 × 0.92: kraken alone is fresh
  });

  it("names the missing leg: a coin no provider quotes, a currency no provider has", async () => {
    await market();
    const b = await newBusiness({ enabledCoins: ["BITCOIN", "MONERO"] });
    const monero = await createPayment(b, { currency: "USD", amount: 5 });
    expect((await expectProblem(await select(b, monero.id, "MONERO"), 503)).detail).toContain("no market rate of XMR in USD is known");
    const chf = await createPayment(b, { currency: "CHF", amount: 5 });
    expect((await expectProblem(await select(b, chf.id, "BITCOIN"), 503)).detail).toContain("no market rate of USD in CHF is known");
  });

  it("tells the customer on the checkout which coin cannot be priced, and lists which coins cannot be quoted", async () => {
    await market(700_000, [{ provider: "coinbase", kind: "coin", key: "ETHEREUM", value: "3000", fetchedAt: ago(0) }]);
    const b = await newBusiness();
    const { id } = await createPayment(b, { currency: "USD", amount: 5 });
    const form = new FormData();
    form.set("paymentId", id);
    form.set("coin", "BITCOIN");
    expect(await selectCoinAction(null, form)).toEqual({
      ok: false,
      error: "Bitcoin can't be priced right now. Choose another coin or try again later.",
    });
    const business = (await findBusiness(await getDb(), b.businessId))!;
    expect(await unquotableCoins(await getDb(), business, ["BITCOIN", "ETHEREUM", "LITECOIN"], "USD")).toEqual(new Set(["BITCOIN", "LITECOIN"]));
  });

  it("makes a fresh quote when the customer chooses again", async () => {
    await market(30_000);
    const b = await newBusiness();
    const { id } = await createPayment(b, { currency: "USD", amount: 50 });
    await select(b, id, "BITCOIN");
    const first = (await findCharge(await getDb(), id))!;
    await storeRates(await getDb(), [{ provider: "kraken", kind: "coin", key: "ETHEREUM", value: "3100", fetchedAt: ago(0) }]);
    await select(b, id, "ETHEREUM");
    const second = (await findCharge(await getDb(), id))!;
    expect(second.exchangeRate).toMatch(/^3100(\.0+)?$/);
    expect(second.rateSource).toBe("median(kraken)");
    expect(second.rateFetchedAt!.getTime()).toBeGreaterThan(first.rateFetchedAt!.getTime());
    expect(second.updatedAt.getTime()).toBeGreaterThanOrEqual(first.updatedAt.getTime());
  });
});

describe("which source quotes", () => {
  const pinned = new URL("../fixtures/pinned-rates.json", import.meta.url).pathname;
  const none: RatesConfig = { ...RATES, providers: [] };

  it("a test business without providers or RATES_FILE quotes from the built-in table", async () => {
    const b = (await findBusiness(await getDb(), (await newBusiness()).businessId))!;
    const rate = await quoteRate(await getDb(), b, "BITCOIN", "USD", new Date(), none);
    expect(rate).toMatchObject({ rate: "65000", source: "static-table:static", usdPerUnit: "1" });
  });

  it("a live business without a source cannot quote, and is told what to configure", async () => {
    const b = (await findBusiness(await getDb(), (await newBusiness({ mode: "live" })).businessId))!;
    await expect(quoteRate(await getDb(), b, "BITCOIN", "USD", new Date(), none)).rejects.toMatchObject({
      status: 503,
      code: "rate-unavailable",
      detail: expect.stringContaining("no exchange-rate source for live payments (RATE_PROVIDERS or RATES_FILE)"),
    });
  });

  it("RATES_FILE quotes every business from the pinned table, however old", async () => {
    for (const mode of ["test", "live"] as const) {
      const b = (await findBusiness(await getDb(), (await newBusiness({ mode })).businessId))!;
      const rate = await quoteRate(await getDb(), b, "LITECOIN", "EUR", new Date("2040-01-01"), { ...none, pinnedFile: pinned });
      expect(rate).toMatchObject({ rate: "74.074074074074074074074074074074", source: "rates-file", usdPerUnit: "1.08" });
    }
  });
});
