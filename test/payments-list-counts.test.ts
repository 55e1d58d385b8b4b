import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { EXACT_COUNT_LIMIT, SETTLED_AFTER_MS } from "@/db/queries/payments-list";
import { query } from "../bench/db";
import { seedPayments } from "../bench/seed";
import { newBusiness } from "./helpers";
import { type Biz, at, listOk, paymentCreatedAt, q, setColumns } from "./payments-list-support";

/**
 * D1: GET /v1/businesses/{businessId}/payments, its totalCount and what is kept of it: a settled
 * range counted once, and above EXACT_COUNT_LIMIT the planner's estimate. Through the real route
 * handler against the real database; shared setup in ./payments-list-support.ts.
 */

describe("totalCount of a settled range", () => {
  // A range that ended more than SETTLED_AFTER_MS ago, narrowed only by columns written once, is
  // counted once and the count kept. The service never writes a payment into such a range; the
  // fixture's direct writes below do, to show which counts are kept and which are counted again.
  let b: Biz;
  const paid: string[] = [];
  const page2 = (params: Record<string, string | number>) => listOk(b, q({ ...params, PageSize: 2 }));

  beforeAll(async () => {
    b = await newBusiness();
    for (let i = 0; i < 3; i++) paid.push(await paymentCreatedAt(b, at(i * 60_000)));
  });
  const backdated = (createdAt: Date) => paymentCreatedAt(b, createdAt);

  it("is counted once: a payment written into the closed range later shows on the page, not in the count", async () => {
    const range = { fromTime: at(0).toISOString(), toTime: at(3_600_000).toISOString() };
    const first = await page2(range);
    expect(first.items.map((p) => p.id)).toEqual([paid[2], paid[1]]);
    expect(first).toMatchObject({ totalCount: 3, totalPages: 2 });
    const late = await backdated(at(30 * 60_000));
    const again = await page2(range);
    expect(again.items.map((p) => p.id)).toEqual([late, paid[2]]);
    expect(again.totalCount).toBe(3);
    // Another range (or the same one with an amount bound) is another count.
    expect((await page2({ ...range, fromAmount: 0 })).totalCount).toBe(4);
    expect((await page2({ toTime: range.toTime })).totalCount).toBe(4);
  });

  it("a range ending less than SETTLED_AFTER_MS ago is counted on every list", async () => {
    const now = Date.now();
    const range = { fromTime: new Date(now - 3 * SETTLED_AFTER_MS).toISOString(), toTime: new Date(now - SETTLED_AFTER_MS / 2).toISOString() };
    await backdated(new Date(now - 2 * SETTLED_AFTER_MS));
    await backdated(new Date(now - 2 * SETTLED_AFTER_MS + 1000));
    expect((await page2(range)).totalCount).toBe(2);
    await backdated(new Date(now - SETTLED_AFTER_MS));
    expect((await page2(range)).totalCount).toBe(3);
  });

  it("a status filter on a closed range is counted on every list (a payment's status changes)", async () => {
    const range = { fromTime: at(0).toISOString(), toTime: at(3 * 60_000).toISOString(), statuses: "AWAITING_PAYMENT" };
    expect((await page2(range)).totalCount).toBe(3);
    await setColumns(paid[0], { status: "EXPIRED" });
    expect((await page2(range)).totalCount).toBe(2);
  });
});

describe("totalCount above EXACT_COUNT_LIMIT", () => {
  // More matches than the exact count reads: seeded in bulk (bench/seed.ts, the API's row shape).
  const N = EXACT_COUNT_LIMIT + 300;
  let b: Biz;
  let exact: (where: string) => Promise<number>;

  beforeAll(async () => {
    b = await newBusiness();
    const db = await getDb();
    await seedPayments(db, {
      businessId: b.businessId,
      from: 1,
      to: N,
      anchor: new Date(),
      // Seeded customers get explicit ids; far above any the tests' own customers take.
      customerBase: 900_000_000 + b.businessId * 100_000,
    });
    await query(db, "analyze payments");
    exact = async (where) =>
      Number((await query<{ n: string }>(db, `select count(*) as n from payments where business_id = ${b.businessId} and ${where}`))[0].n);
  }, 120_000);

  it("is the planner's estimate, never below the rows up to the page, and the same while it is fresh", async () => {
    const first = await listOk(b);
    expect(first.items).toHaveLength(20);
    expect(first.totalCount).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(first.totalCount).toBeGreaterThan(N * 0.7);
    expect(first.totalCount).toBeLessThan(N * 1.3);
    // Within ESTIMATE_TTL_MS the page runs without a count and reuses the estimate.
    const again = await listOk(b, "?PageNumber=2");
    expect(again.totalCount).toBe(first.totalCount);
    expect(again.items.map((p) => p.id)).not.toContain(first.items[0].id);
  });

  it("is exact for a filter with at most EXACT_COUNT_LIMIT matches, on a full page", async () => {
    const failed = await listOk(b, "?statuses=FAILED");
    expect(failed.items).toHaveLength(20);
    expect(failed.totalCount).toBe(await exact("status = 'FAILED'"));
    const from = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const to = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const hour = await listOk(b, q({ fromTime: from, toTime: to }));
    expect(hour.totalCount).toBe(await exact(`created_at >= '${from}' and created_at <= '${to}'`));
    expect(hour.totalCount).toBe(120); // one payment every 30 s
  });

  it("a page past the last match reports the estimate, not the rows it skipped", async () => {
    // 599 pages of 20 = 11 980 skipped; only N exist. fromAmount=0 matches all, with no estimate yet.
    const far = await listOk(b, "?PageNumber=600&fromAmount=0");
    expect(far.items).toEqual([]);
    expect(far.totalCount).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(far.totalCount).toBeLessThan(599 * 20);
    // …and the same once the estimate is remembered.
    expect((await listOk(b, "?PageNumber=600&fromAmount=0")).totalCount).toBe(far.totalCount);
  });

  it("a filter that only gains matches is not counted again once above it; one that can lose matches is", async () => {
    // Seeded payments of the last hour await payment; the rest are in a terminal status, which a
    // payment enters once and never leaves. Both filters match more than EXACT_COUNT_LIMIT.
    const terminal = q({ statuses: "COMPLETED" }) + "&statuses=EXPIRED&statuses=CANCELLED&statuses=FAILED";
    const withOpen = `${terminal}&statuses=AWAITING_PAYMENT`;
    expect((await listOk(b, terminal)).totalCount).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect((await listOk(b, withOpen)).totalCount).toBeGreaterThan(EXACT_COUNT_LIMIT);
    // A fixture-only write the service never makes: the 300 oldest (terminal) payments leave the
    // business, which takes both filters to at most EXACT_COUNT_LIMIT matches.
    const db = await getDb();
    const other = await newBusiness();
    const move = (from: number, to: number, limit = "") =>
      query(db, `update payments set business_id = ${to} where id in (select id from payments where business_id = ${from} order by created_at${limit})`);
    await move(b.businessId, other.businessId, " limit 300");
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 60_000); // past the estimates' lifetime
      expect((await listOk(b, terminal)).totalCount).toBeGreaterThan(EXACT_COUNT_LIMIT);
      expect((await listOk(b, withOpen)).totalCount).toBe(N - 300);
    } finally {
      vi.useRealTimers();
      await move(other.businessId, b.businessId);
    }
  });
});
