import { beforeAll, describe, expect, it } from "vitest";
import { createPayment, newBusiness } from "./helpers";
import { type Biz, at, expect400, listOk, q, setColumns } from "./payments-list-support";

/**
 * D1: GET /v1/businesses/{businessId}/payments, its pages: PageNumber and PageSize, their
 * defaults and limits, totalPages, pages past the end and the 400s of bad values. Through the
 * real route handler against the real database; shared setup in ./payments-list-support.ts.
 */

describe("pagination", () => {
  let b: Biz;
  let expected: string[]; // every payment of b, newest first
  const N = 45;

  beforeAll(async () => {
    b = await newBusiness();
    const made: { id: string; t: number }[] = [];
    for (let i = 0; i < N; i++) {
      const { id } = await createPayment(b, { currency: "EUR", amount: 1 + i });
      // Fixture: distinct creation times, deliberately not in creation order.
      const t = ((i * 17) % N) * 60_000;
      await setColumns(id, { createdAt: at(t) });
      made.push({ id, t });
    }
    expected = made.sort((x, y) => y.t - x.t).map((m) => m.id);
  });

  it("defaults to PageNumber 1 and PageSize 20", async () => {
    const data = await listOk(b);
    expect(data).toMatchObject({ pageNumber: 1, pageSize: 20, totalCount: N, totalPages: 3 });
    expect(data.items.map((p) => p.id)).toEqual(expected.slice(0, 20));
  });

  it("pages do not overlap and together cover every payment, in order", async () => {
    const pages: string[][] = [];
    for (let n = 1; n <= 3; n++) {
      const data = await listOk(b, q({ PageNumber: n, PageSize: 20 }));
      expect(data).toMatchObject({ pageNumber: n, pageSize: 20, totalCount: N, totalPages: 3 });
      pages.push(data.items.map((p) => p.id));
    }
    expect(pages.map((p) => p.length)).toEqual([20, 20, 5]);
    const all = pages.flat();
    expect(new Set(all).size).toBe(N);
    expect(all).toEqual(expected);
  });

  it("computes totalPages for an uneven page size", async () => {
    const last = await listOk(b, q({ PageNumber: 7, PageSize: 7 }));
    expect(last).toMatchObject({ pageNumber: 7, pageSize: 7, totalCount: N, totalPages: 7 });
    expect(last.items.map((p) => p.id)).toEqual(expected.slice(42));
  });

  it("accepts PageSize 100 (the maximum) and PageSize 1", async () => {
    const big = await listOk(b, q({ PageSize: 100 }));
    expect(big).toMatchObject({ pageSize: 100, totalCount: N, totalPages: 1 });
    expect(big.items.map((p) => p.id)).toEqual(expected);
    const one = await listOk(b, q({ PageSize: 1, PageNumber: 45 }));
    expect(one).toMatchObject({ pageNumber: 45, pageSize: 1, totalPages: 45 });
    expect(one.items.map((p) => p.id)).toEqual([expected[44]]);
  });

  it("a page past the end is empty and keeps the totals", async () => {
    const data = await listOk(b, q({ PageNumber: 4, PageSize: 20 }));
    expect(data).toEqual({ items: [], pageNumber: 4, pageSize: 20, totalCount: N, totalPages: 3 });
    const far = await listOk(b, q({ PageNumber: 1000 }));
    expect(far).toMatchObject({ items: [], pageNumber: 1000, totalCount: N, totalPages: 3 });
  });

  it("a business without payments gets an empty first page", async () => {
    const empty = await newBusiness();
    expect(await listOk(empty)).toEqual({ items: [], pageNumber: 1, pageSize: 20, totalCount: 0, totalPages: 0 });
  });

  it.each([["101"], ["0"], ["-5"], ["2.5"], ["abc"], ["1e400"]])("PageSize=%s → 400", async (v) => {
    await expect400(b, `?PageSize=${encodeURIComponent(v)}`, "PageSize");
  });

  it.each([["0"], ["-1"], ["1.5"], ["two"]])("PageNumber=%s → 400", async (v) => {
    await expect400(b, `?PageNumber=${encodeURIComponent(v)}`, "PageNumber");
  });

  it("a single-valued parameter given twice → 400", async () => {
    await expect400(b, "?PageSize=5&pagesize=6", "PageSize");
  });
});
