import { beforeAll, describe, expect, it, vi } from "vitest";
import { eq, sql } from "drizzle-orm";
import { executeRows, getDb, getListDb } from "@/db/client";
import { payments } from "@/db/schema";
import { EXACT_COUNT_LIMIT, SETTLED_AFTER_MS } from "@/db/queries/payments-list";
import { PaymentListSchema } from "@/lib/payments/schemas";
import { query } from "../bench/db";
import { seedPayments } from "../bench/seed";
import { adminToken, createPayment, json, newBusiness, paymentsPath, request } from "./helpers";

/**
 * D1: GET /v1/businesses/{businessId}/payments — response shape, order, pagination and every
 * filter, through the real route handler against the real database.
 */

type Biz = Awaited<ReturnType<typeof newBusiness>>;
type Item = { id: string; createdAt: string; status: string; prePaymentAmount: number; onBehalfOfBusinessId?: number };
type Page = { items: Item[]; pageNumber: number; pageSize: number; totalCount: number; totalPages: number };

async function list(b: Biz, query = "", key = b.apiKey): Promise<Response> {
  return request("GET", `${paymentsPath(b.businessId)}${query}`, { key });
}

async function listOk(b: Biz, query = "", key = b.apiKey): Promise<Page> {
  const res = await list(b, query, key);
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.message).toBeNull();
  expect(body.errors).toBeNull();
  return body.data as Page;
}

async function ids(b: Biz, query = "", key = b.apiKey): Promise<string[]> {
  return (await listOk(b, query, key)).items.map((p) => p.id);
}

/** A 400 ProblemDetails whose `errors` names `field` (and whose detail mentions it). */
async function expect400(b: Biz, query: string, field: string) {
  const res = await list(b, query);
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(body).toMatchObject({ type: expect.any(String), title: expect.any(String), status: 400, detail: expect.any(String) });
  expect(Object.keys(body.errors ?? {}), JSON.stringify(body)).toContain(field);
  expect(body.detail).toContain(field);
  return body;
}

/** Fixture-only direct writes: the API has no way (yet) to set these columns. */
async function setColumns(id: string, values: Partial<typeof payments.$inferInsert>) {
  const db = await getDb();
  await db.update(payments).set(values).where(eq(payments.id, id));
}

/** A payment created through the API, then moved to `createdAt` (a fixture-only write). */
async function paymentCreatedAt(b: Biz, createdAt: Date): Promise<string> {
  const { id } = await createPayment(b);
  await setColumns(id, { createdAt });
  return id;
}

async function setNote(b: Biz, id: string, note: string) {
  const res = await request("PUT", `${paymentsPath(b.businessId)}/${id}/note`, { key: b.apiKey, body: { note } });
  expect(res.status).toBe(200);
}

const T0 = Date.parse("2025-03-01T10:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms);
const q = (params: Record<string, string | number>) =>
  "?" + new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

describe("list response shape and order", () => {
  let b: Biz;
  const created: string[] = [];

  beforeAll(async () => {
    b = await newBusiness();
    for (let i = 0; i < 3; i++) {
      const p = await createPayment(b, {
        currency: "USD",
        amount: 10 + i,
        name: `Item ${i}`,
        description: `desc ${i}`,
        customerEmail: `buyer${i}@example.com`,
        customerIp: "203.0.113.7",
        metadata: { order: String(i) },
      });
      created.push(p.id);
    }
  });

  it("returns { items, pageNumber, pageSize, totalCount, totalPages } in the envelope", async () => {
    const data = await listOk(b);
    expect(Object.keys(data).sort()).toEqual(["items", "pageNumber", "pageSize", "totalCount", "totalPages"]);
    expect(data).toMatchObject({ pageNumber: 1, pageSize: 20, totalCount: 3, totalPages: 1 });
    expect(data.items).toHaveLength(3);
    // Strict schema: items carry exactly the Payment record's fields, nothing else.
    expect(PaymentListSchema.safeParse(data).success).toBe(true);
  });

  it("lists each payment exactly as GET /payments/{id} returns it", async () => {
    const data = await listOk(b);
    for (const item of data.items) {
      const res = await request("GET", `${paymentsPath(b.businessId)}/${item.id}`, { key: b.apiKey });
      expect(res.status).toBe(200);
      expect(item).toEqual((await json(res)).data);
    }
    const first = data.items.find((p) => p.id === created[0])!;
    expect(first).toMatchObject({
      name: "Item 0",
      description: "desc 0",
      prePaymentAmount: 10,
      endAmount: 10,
      currency: "USD",
      status: "AWAITING_PAYMENT",
      metadata: { order: "0" },
      customer: { email: "buyer0@example.com" },
    });
    expect(first).not.toHaveProperty("businessId");
    expect(first).not.toHaveProperty("searchText");
  });

  it("orders newest first by createdAt, then by id descending", async () => {
    // Fixture: fix created_at so the order is deterministic. Two payments share a timestamp.
    await setColumns(created[0], { createdAt: at(2000) });
    await setColumns(created[1], { createdAt: at(1000) });
    await setColumns(created[2], { createdAt: at(1000) });
    const tied = [created[1], created[2]].sort().reverse(); // uuid order = lower-case hex string order
    expect(await ids(b)).toEqual([created[0], ...tied]);
    const items = (await listOk(b)).items;
    expect(items.map((p) => p.createdAt)).toEqual([at(2000), at(1000), at(1000)].map((d) => d.toISOString()));
  });
});

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

describe("query parameter names", () => {
  let b: Biz;
  let expected: string[];

  beforeAll(async () => {
    b = await newBusiness();
    const made: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { id } = await createPayment(b);
      await setColumns(id, { createdAt: at(i * 1000), status: i % 2 ? "COMPLETED" : "AWAITING_PAYMENT" });
      made.push(id);
    }
    expected = made.reverse();
  });

  it("match case-insensitively", async () => {
    const data = await listOk(b, "?pagesize=2&PAGENUMBER=2");
    expect(data).toMatchObject({ pageNumber: 2, pageSize: 2, totalCount: 6, totalPages: 3 });
    expect(data.items.map((p) => p.id)).toEqual(expected.slice(2, 4));
    expect(await listOk(b, "?pageSize=3&pageNumber=1")).toMatchObject({ pageSize: 3, pageNumber: 1 });
    for (const name of ["Statuses", "STATUSES", "statuses"]) {
      const data2 = await listOk(b, `?${name}=COMPLETED`);
      expect(data2.totalCount).toBe(3);
      expect(data2.items.every((p) => p.status === "COMPLETED")).toBe(true);
    }
    expect((await listOk(b, `?FROMTIME=${encodeURIComponent(at(4000).toISOString())}`)).totalCount).toBe(2);
  });

  it("an unknown parameter → 400 naming it", async () => {
    const body = await expect400(b, "?foo=1", "foo");
    expect(body.errors.foo[0]).toMatch(/unknown/i);
    await expect400(b, "?pageSiz=5", "pageSiz");
    await expect400(b, "?PageSize=5&status=COMPLETED", "status");
  });

  it("names of Object.prototype members are unknown parameters too, not a server error", async () => {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      await expect400(b, `?${name}=1`, name);
    }
  });
});

describe("statuses filter", () => {
  let b: Biz;
  const byStatus: Record<string, string> = {};

  beforeAll(async () => {
    b = await newBusiness();
    const statuses = ["AWAITING_PAYMENT", "PENDING", "COMPLETED", "EXPIRED", "CANCELLED"] as const;
    for (const [i, status] of statuses.entries()) {
      const { id } = await createPayment(b);
      // Fixture: the status machine has no public trigger yet; set the stored status directly.
      await setColumns(id, { status, createdAt: at(i * 1000) });
      byStatus[status] = id;
    }
  });

  it("filters on one status", async () => {
    const data = await listOk(b, "?statuses=COMPLETED");
    expect(data.totalCount).toBe(1);
    expect(data.items.map((p) => [p.id, p.status])).toEqual([[byStatus.COMPLETED, "COMPLETED"]]);
  });

  it("repeated statuses filter on any of them", async () => {
    const data = await listOk(b, "?statuses=COMPLETED&statuses=EXPIRED&statuses=PENDING");
    expect(data.totalCount).toBe(3);
    expect(data.items.map((p) => p.id)).toEqual([byStatus.EXPIRED, byStatus.COMPLETED, byStatus.PENDING]);
  });

  it("a status nobody has gives an empty list", async () => {
    expect(await listOk(b, "?statuses=FAILED")).toMatchObject({ items: [], totalCount: 0, totalPages: 0 });
  });

  it("an unknown status → 400", async () => {
    const res = await list(b, "?statuses=COMPLETED&statuses=PAID");
    const body = await json(res);
    expect(res.status).toBe(400);
    expect(body).toMatchObject({ status: 400, title: expect.any(String), type: expect.any(String) });
    expect(Object.keys(body.errors).some((k) => k.startsWith("statuses"))).toBe(true);
    expect(body.detail).toContain("statuses");
    expect((await list(b, "?statuses=completed")).status).toBe(400);
  });
});

describe("cryptoCoins filter", () => {
  let b: Biz;
  let btc: string, eth: string, eth2: string, none: string;

  beforeAll(async () => {
    b = await newBusiness();
    [btc, eth, eth2, none] = await Promise.all([0, 1, 2, 3].map(async () => (await createPayment(b)).id));
    // Fixture: selected_coin is only set by the customer's coin selection on checkout, which does
    // not exist yet; simulate a selection by writing the column directly.
    await setColumns(btc, { selectedCoin: "BITCOIN", createdAt: at(4000) });
    await setColumns(eth, { selectedCoin: "ETHEREUM", createdAt: at(3000) });
    await setColumns(eth2, { selectedCoin: "ETHEREUM", createdAt: at(2000) });
    await setColumns(none, { createdAt: at(1000) });
  });

  it("filters on one coin", async () => {
    expect(await ids(b, "?cryptoCoins=ETHEREUM")).toEqual([eth, eth2]);
    expect(await ids(b, "?cryptoCoins=BITCOIN")).toEqual([btc]);
  });

  it("repeated coins filter on any of them; payments without a selected coin are left out", async () => {
    const data = await listOk(b, "?cryptoCoins=BITCOIN&cryptoCoins=ETHEREUM");
    expect(data.totalCount).toBe(3);
    expect(data.items.map((p) => p.id)).toEqual([btc, eth, eth2]);
    expect(await ids(b, "?cryptoCoins=MONERO")).toEqual([]);
    expect(await ids(b)).toEqual([btc, eth, eth2, none]);
  });

  it("combines with paging", async () => {
    const data = await listOk(b, "?cryptoCoins=ETHEREUM&PageSize=1&PageNumber=2");
    expect(data).toMatchObject({ totalCount: 2, totalPages: 2 });
    expect(data.items.map((p) => p.id)).toEqual([eth2]);
  });

  it("an unknown coin → 400", async () => {
    const res = await list(b, "?cryptoCoins=DOGECOIN");
    const body = await json(res);
    expect(res.status).toBe(400);
    expect(body).toMatchObject({ status: 400, type: expect.any(String), title: expect.any(String) });
    expect(Object.keys(body.errors).some((k) => k.startsWith("cryptoCoins"))).toBe(true);
    expect(body.detail).toContain("cryptoCoins");
  });
});

describe("fromTime / toTime", () => {
  let b: Biz;
  let fresh: { id: string; createdAt: string };
  const fixed: string[] = [];

  beforeAll(async () => {
    b = await newBusiness();
    // Fixture: 10:00:00.000, 11:00:00.000, 12:00:00.000 on T0's day.
    for (let i = 0; i < 3; i++) fixed.push(await paymentCreatedAt(b, at(i * 3_600_000)));
    // One payment keeps the creation time the service gave it (milliseconds, not a round value).
    const { id } = await createPayment(b);
    const res = await request("GET", `${paymentsPath(b.businessId)}/${id}`, { key: b.apiKey });
    fresh = { id, createdAt: (await json(res)).data.createdAt };
  });

  it("both bounds are inclusive at the precision the API returns", async () => {
    const t = encodeURIComponent(fresh.createdAt);
    expect(await ids(b, `?fromTime=${t}`)).toEqual([fresh.id]);
    expect(await ids(b, `?fromTime=${t}&toTime=${t}`)).toEqual([fresh.id]);
    expect(await ids(b, `?toTime=${t}`)).toEqual([fresh.id, fixed[2], fixed[1], fixed[0]]);
    const after = encodeURIComponent(new Date(Date.parse(fresh.createdAt) + 1).toISOString());
    const before = encodeURIComponent(new Date(Date.parse(fresh.createdAt) - 1).toISOString());
    expect(await ids(b, `?fromTime=${after}`)).toEqual([]);
    expect(await ids(b, `?toTime=${before}`)).toEqual([fixed[2], fixed[1], fixed[0]]);
  });

  it("filters a closed range of fixed times", async () => {
    const from = at(3_600_000).toISOString(); // exactly fixed[1]
    const to = at(2 * 3_600_000).toISOString(); // exactly fixed[2]
    expect(await ids(b, q({ fromTime: from, toTime: to }))).toEqual([fixed[2], fixed[1]]);
    expect(await ids(b, q({ fromTime: from, toTime: from }))).toEqual([fixed[1]]);
    expect(await ids(b, q({ fromTime: at(1).toISOString(), toTime: at(3_599_999).toISOString() }))).toEqual([]);
    expect((await listOk(b, q({ fromTime: from, toTime: to }))).totalCount).toBe(2);
  });

  it("honours UTC offsets and second-precision timestamps", async () => {
    // 2025-03-01T12:00:00+01:00 = 11:00:00Z = fixed[1]
    expect(await ids(b, q({ fromTime: "2025-03-01T12:00:00+01:00", toTime: "2025-03-01T12:00:00+01:00" }))).toEqual([fixed[1]]);
    expect(await ids(b, q({ fromTime: "2025-03-01T10:00:00Z", toTime: "2025-03-01T11:00:00Z" }))).toEqual([fixed[1], fixed[0]]);
  });

  it("fromTime after toTime → 400", async () => {
    await expect400(b, q({ fromTime: at(1000).toISOString(), toTime: at(0).toISOString() }), "toTime");
  });

  it.each([["yesterday"], ["2025-13-01T00:00:00Z"], ["2025-03-01 10:00"], ["1700000000"]])("malformed fromTime %s → 400", async (v) => {
    await expect400(b, q({ fromTime: v }), "fromTime");
  });

  it("malformed toTime → 400", async () => {
    await expect400(b, q({ toTime: "2025-02-30T00:00:00Z" }), "toTime");
  });
});

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

describe("fromAmount / toAmount", () => {
  let b: Biz;
  const byAmount: Record<string, string> = {};

  beforeAll(async () => {
    b = await newBusiness();
    for (const [i, amount] of [5, 10, 10.5, 20.25].entries()) {
      const { id } = await createPayment(b, { currency: "USD", amount });
      await setColumns(id, { createdAt: at(i * 1000) });
      byAmount[amount] = id;
    }
  });

  it("filter the requested amount, both bounds inclusive", async () => {
    expect(await ids(b, "?fromAmount=10&toAmount=10.5")).toEqual([byAmount["10.5"], byAmount["10"]]);
    expect(await ids(b, "?fromAmount=10.5")).toEqual([byAmount["20.25"], byAmount["10.5"]]);
    expect(await ids(b, "?toAmount=10")).toEqual([byAmount["10"], byAmount["5"]]);
    expect(await ids(b, "?fromAmount=20.25&toAmount=20.25")).toEqual([byAmount["20.25"]]);
    expect(await ids(b, "?fromAmount=10.01&toAmount=10.49")).toEqual([]);
    expect(await ids(b, "?fromAmount=0")).toHaveLength(4);
  });

  it("items in range carry their requested amount", async () => {
    const data = await listOk(b, "?fromAmount=10&toAmount=11");
    expect(data.items.map((p) => p.prePaymentAmount)).toEqual([10.5, 10]);
  });

  it("invalid amounts → 400", async () => {
    await expect400(b, "?fromAmount=ten", "fromAmount");
    await expect400(b, "?toAmount=-1", "toAmount");
    await expect400(b, "?fromAmount=20&toAmount=10", "toAmount");
  });
});

describe("searchString", () => {
  let b: Biz;
  const p: Record<string, string> = {};

  beforeAll(async () => {
    b = await newBusiness();
    const make = async (key: string, body: Record<string, unknown>, i: number) => {
      const { id } = await createPayment(b, { currency: "USD", amount: 10, ...body });
      await setColumns(id, { createdAt: at(i * 1000) });
      p[key] = id;
    };
    await make("name", { name: "Blue Widget" }, 0);
    await make("description", { description: "Order for ACME Corp" }, 1);
    await make("note", { name: "plain" }, 2);
    await setNote(b, p.note, "VIP Customer, ship first");
    await make("email", { customerEmail: "Alice.Smith@Example.COM" }, 3);
    await make("percent", { name: "50% off sale" }, 4);
    await make("fiveHundred", { name: "500 off sale" }, 5);
    await make("underscore", { name: "a_b item" }, 6);
    await make("axb", { name: "axb item" }, 7);
    await make("accent", { name: "Café Crème" }, 8);
    await make("backslash", { description: "path C:\\temp" }, 9);
    await make("metadata", { name: "meta", metadata: { secret: "zebrafish" } }, 10);
    await make("quote", { name: "O'Brien's \"best\" tea" }, 11);
  });

  const search = (s: string) => ids(b, q({ searchString: s }));

  it("matches a substring of the name, case-insensitively", async () => {
    expect(await search("widget")).toEqual([p.name]);
    expect(await search("BLUE WID")).toEqual([p.name]);
  });

  it("matches description, note and customer email", async () => {
    expect(await search("acme corp")).toEqual([p.description]);
    expect(await search("vip customer")).toEqual([p.note]);
    expect(await search("alice.smith@example.com")).toEqual([p.email]);
    expect(await search("SMITH@EXAMPLE")).toEqual([p.email]);
  });

  it("follows note changes", async () => {
    await setNote(b, p.note, "rush order");
    expect(await search("vip")).toEqual([]);
    expect(await search("RUSH")).toEqual([p.note]);
    await setNote(b, p.note, "VIP Customer, ship first");
    expect(await search("vip")).toEqual([p.note]);
  });

  it("treats % and _ literally", async () => {
    expect(await search("50%")).toEqual([p.percent]);
    expect(await search("%")).toEqual([p.percent]);
    expect(await search("a_b")).toEqual([p.underscore]);
    expect(await search("_")).toEqual([p.underscore]);
    expect(await search("5_0")).toEqual([]);
    expect(await search("\\")).toEqual([p.backslash]);
    expect(await search("c:\\temp")).toEqual([p.backslash]);
  });

  it("treats quotes as text: the statement carries the value as a literal", async () => {
    expect(await search("o'brien's")).toEqual([p.quote]);
    expect(await search('"best"')).toEqual([p.quote]);
    expect(await search("' or ''='")).toEqual([]);
    expect(await search("x'); drop table payments; --")).toEqual([]);
    expect(await search("\\' or 1=1 --")).toEqual([]);
    expect((await search("meta")).length).toBe(1); // the table is still there
  });

  it("is case-insensitive beyond ASCII", async () => {
    expect(await search("CAFÉ")).toEqual([p.accent]);
  });

  it("does not match other fields or absent text", async () => {
    expect(await search("zebrafish")).toEqual([]); // metadata is not searched
    expect(await search("nothing like this")).toEqual([]);
    expect((await listOk(b, q({ searchString: "nothing like this" }))).totalCount).toBe(0);
  });

  it("matches every payment of a customer by email, each once, only in its own business", async () => {
    // The email is matched through the customer: two payments with the same address (in any
    // case) share one customer; another business's customer with it is not found here.
    const c = await newBusiness();
    const other = await newBusiness();
    const first = await createPayment(c, { currency: "USD", amount: 1, customerEmail: "Dana@Shop.example", name: "dana's order" });
    const second = await createPayment(c, { currency: "USD", amount: 2, customerEmail: "dana@shop.EXAMPLE" });
    await createPayment(other, { currency: "USD", amount: 3, customerEmail: "dana@shop.example" });
    await setColumns(first.id, { createdAt: at(100) });
    await setColumns(second.id, { createdAt: at(200) });
    // "dana" is in the first payment's name and in both emails: still one row per payment.
    expect(await ids(c, q({ searchString: "dana" }))).toEqual([second.id, first.id]);
    expect(await ids(c, q({ searchString: "@SHOP.ex" }))).toEqual([second.id, first.id]);
    expect((await listOk(c, q({ searchString: "dana" }))).totalCount).toBe(2);
    expect(await ids(other, q({ searchString: "dana" }))).toHaveLength(1);
  });

  it("narrowed by a status or a time range, finds each match once: by its text, its customer's email or both", async () => {
    // Such a search appends the payments found by their text, less those whose customer matches,
    // to the payments found by their customer (searchPageIdsStatement): neither lost nor twice.
    const c = await newBusiness();
    const made: Record<string, string> = {};
    const make = async (key: string, body: Record<string, unknown>, i: number, status: string) => {
      const { id } = await createPayment(c, { currency: "USD", amount: 1, ...body });
      await setColumns(id, { createdAt: at(i * 1000), status: status as never });
      made[key] = id;
    };
    await make("both", { name: "kiwi box", customerEmail: "kiwi@fruit.example" }, 0, "COMPLETED");
    await make("emailOnly", { name: "plain", customerEmail: "KIWI@fruit.example" }, 1, "COMPLETED");
    await make("textNoEmail", { description: "kiwi crate" }, 2, "COMPLETED");
    await make("textOtherCustomer", { name: "kiwi bag", customerEmail: "lime@fruit.example" }, 3, "COMPLETED");
    await make("otherStatus", { name: "kiwi tin", customerEmail: "kiwi@fruit.example" }, 4, "EXPIRED");
    await make("noMatch", { name: "lime", customerEmail: "lime@fruit.example" }, 5, "COMPLETED");
    const completed = [made.textOtherCustomer, made.textNoEmail, made.emailOnly, made.both];
    const byStatus = await listOk(c, q({ searchString: "KIWI", statuses: "COMPLETED" }));
    expect(byStatus.items.map((i) => i.id)).toEqual(completed);
    expect(byStatus.totalCount).toBe(4);
    const byTime = await listOk(c, q({ searchString: "kiwi", fromTime: at(1000).toISOString(), toTime: at(4000).toISOString(), PageSize: 2 }));
    expect(byTime.items.map((i) => i.id)).toEqual([made.otherStatus, made.textOtherCustomer]);
    expect(byTime.totalCount).toBe(4);
    expect(await ids(c, q({ searchString: "fruit.ex", statuses: "COMPLETED", PageSize: 2, PageNumber: 2 }))).toEqual([made.emailOnly, made.both]);
  });

  it("an empty searchString applies no filter", async () => {
    expect((await listOk(b, "?searchString=")).totalCount).toBe(12);
  });

  it("combines with other filters", async () => {
    expect(await ids(b, q({ searchString: "sale", toAmount: 10 }))).toEqual([p.fiveHundred, p.percent]);
    expect(await ids(b, q({ searchString: "item", PageSize: 1, PageNumber: 2 }))).toEqual([p.underscore]);
  });

  it("counts every match on each page, and past the last one", async () => {
    // " off sale" ×2, " item" ×2: "sale" matches 2, "e" matches most payments.
    const all = await listOk(b, q({ searchString: "e", PageSize: 100 }));
    const n = all.items.length;
    expect(n).toBeGreaterThan(3);
    expect(all.totalCount).toBe(n);
    for (const page of [1, 2, n]) {
      const data = await listOk(b, q({ searchString: "e", PageSize: 1, PageNumber: page }));
      expect(data).toMatchObject({ pageNumber: page, totalCount: n, totalPages: n });
      expect(data.items.map((i) => i.id)).toEqual([all.items[page - 1].id]);
    }
    const past = await listOk(b, q({ searchString: "e", PageSize: 1, PageNumber: n + 5 }));
    expect(past).toMatchObject({ items: [], totalCount: n, totalPages: n });
    const none = await listOk(b, q({ searchString: "sale", PageSize: 5, PageNumber: 3 }));
    expect(none).toMatchObject({ items: [], totalCount: 2, totalPages: 1 });
  });
});

describe("sub-businesses and onBehalfOfBusinessId", () => {
  let parent: Biz, subA: Biz, subB: Biz, other: Biz;
  let own: string, forA: string, forB: string, otherPay: string;

  beforeAll(async () => {
    parent = await newBusiness();
    subA = await newBusiness({ parentBusinessId: parent.businessId });
    subB = await newBusiness({ parentBusinessId: parent.businessId });
    other = await newBusiness();
    own = (await createPayment(parent, { currency: "USD", amount: 10, name: "shared name" })).id;
    // The parent's key acts for its sub-business.
    forA = (await createPayment({ businessId: subA.businessId, apiKey: parent.apiKey }, { currency: "USD", amount: 10, name: "shared name" })).id;
    forB = (await createPayment(subB, { currency: "USD", amount: 10, name: "shared name" })).id;
    otherPay = (await createPayment(other, { currency: "USD", amount: 10, name: "shared name" })).id;
    for (const [i, id] of [own, forA, forB, otherPay].entries()) await setColumns(id, { createdAt: at(i * 1000) });
  });

  it("the parent lists its own and its sub-businesses' payments", async () => {
    const data = await listOk(parent);
    expect(data.totalCount).toBe(3);
    expect(data.items.map((p) => p.id)).toEqual([forB, forA, own]);
    const byId = new Map(data.items.map((p) => [p.id, p]));
    expect(byId.get(forA)!.onBehalfOfBusinessId).toBe(subA.businessId);
    expect(byId.get(forB)!.onBehalfOfBusinessId).toBe(subB.businessId);
    expect(byId.get(own)).not.toHaveProperty("onBehalfOfBusinessId");
  });

  it("onBehalfOfBusinessId narrows the parent's list to one sub-business", async () => {
    expect(await ids(parent, `?onBehalfOfBusinessId=${subA.businessId}`)).toEqual([forA]);
    expect(await ids(parent, `?onbehalfofbusinessid=${subB.businessId}`)).toEqual([forB]);
    expect(await ids(parent, `?onBehalfOfBusinessId=${other.businessId}`)).toEqual([]);
  });

  it("a sub-business sees only the payments made on its behalf", async () => {
    expect(await ids(subA)).toEqual([forA]);
    expect(await ids(subB)).toEqual([forB]);
    // The parent's key listing the sub-business path sees the same.
    expect(await ids(subA, "", parent.apiKey)).toEqual([forA]);
    expect(await ids(subA, `?onBehalfOfBusinessId=${subB.businessId}`)).toEqual([]);
  });

  it("keys covering sub-businesses, issued through the admin API", async () => {
    const onlyA = await request("POST", `/admin/v1/businesses/${parent.businessId}/api-keys`, {
      key: adminToken(),
      body: { businessIds: [subA.businessId] },
    });
    expect(onlyA.status).toBe(201);
    const keyA = (await json(onlyA)).data.apiKey as string;
    expect(await ids(subA, "", keyA)).toEqual([forA]);
    expect((await list(parent, "", keyA)).status).toBe(403);
    expect((await list(subB, "", keyA)).status).toBe(403);

    const both = await request("POST", `/admin/v1/businesses/${parent.businessId}/api-keys`, {
      key: adminToken(),
      body: { businessIds: [parent.businessId, subA.businessId] },
    });
    expect(both.status).toBe(201);
    const keyBoth = (await json(both)).data.apiKey as string;
    expect(await ids(parent, "", keyBoth)).toEqual([forB, forA, own]);
    expect(await ids(parent, `?onBehalfOfBusinessId=${subA.businessId}`, keyBoth)).toEqual([forA]);
  });

  it("an invalid onBehalfOfBusinessId → 400", async () => {
    await expect400(parent, "?onBehalfOfBusinessId=abc", "onBehalfOfBusinessId");
    await expect400(parent, "?onBehalfOfBusinessId=0", "onBehalfOfBusinessId");
    await expect400(parent, "?onBehalfOfBusinessId=1.5", "onBehalfOfBusinessId");
  });

  it("never shows another business's payments", async () => {
    expect(await ids(other)).toEqual([otherPay]);
    for (const b of [parent, subA, subB]) {
      const data = await listOk(b, q({ searchString: "shared name", PageSize: 100 }));
      expect(data.items.map((p) => p.id)).not.toContain(otherPay);
    }
    expect(await ids(other, `?onBehalfOfBusinessId=${subA.businessId}`)).toEqual([]);
    expect(await ids(other, q({ searchString: "shared" }))).toEqual([otherPay]);
    expect((await list(other, "", parent.apiKey)).status).toBe(403);
    expect((await list(parent, "", other.apiKey)).status).toBe(403);
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

describe("first pages of the plain filters", () => {
  // Unfiltered, one status, a time range: their first page is a named statement whose generic
  // plan walks the list's index (firstPageShape in db/queries/payment-list-statements.ts).
  it("run as named statements on a generic plan, with each list's own page size and values", async () => {
    const b = await newBusiness();
    const made: string[] = []; // oldest first
    for (let i = 0; i < 4; i++) made.push(await paymentCreatedAt(b, at(i * 60_000)));
    await setColumns(made[0], { status: "EXPIRED" });
    const range = { fromTime: at(60_000).toISOString(), toTime: at(2 * 60_000).toISOString() };
    for (let i = 0; i < 7; i++) {
      expect(await ids(b, q({ PageSize: 2 }))).toEqual([made[3], made[2]]);
      expect(await ids(b, q({ PageSize: 3 }))).toEqual([made[3], made[2], made[1]]);
      expect(await ids(b, q({ statuses: "EXPIRED" }))).toEqual([made[0]]);
      const inRange = await listOk(b, q({ ...range, statuses: "AWAITING_PAYMENT" }));
      expect(inRange.items.map((p) => p.id)).toEqual([made[2], made[1]]);
      expect(inRange.totalCount).toBe(2);
    }
    const statements = await executeRows<{ statement: string; generic_plans: string }>(
      await getListDb(),
      sql`select statement, generic_plans from pg_prepared_statements where statement like 'select "id"%from "payments" where%'`,
    );
    const generic = (test: (text: string) => boolean) =>
      statements.filter((s) => test(s.statement)).reduce((n, s) => n + Number(s.generic_plans), 0);
    const byStatus = (t: string) => t.includes('"status" = $');
    const byTime = (t: string) => t.includes('"created_at" >= $');
    expect(generic((t) => !byStatus(t) && !byTime(t))).toBeGreaterThan(0);
    expect(generic((t) => byStatus(t) && !byTime(t))).toBeGreaterThan(0);
    expect(generic((t) => byStatus(t) && byTime(t))).toBeGreaterThan(0);
  });
});

describe("pages of a plain search", () => {
  // A search narrowed by nothing else is a named statement, its pattern a parameter
  // (namedSearchPage in db/queries/payment-list-statements.ts); on PostgreSQL's list connection on a generic plan.
  const searchStatements = async () =>
    executeRows<{ statement: string; generic_plans: string; custom_plans: string }>(
      await getListDb(),
      sql`select statement, generic_plans, custom_plans from pg_prepared_statements where statement like '%) m where m.business_id = (select $%'`,
    );

  it("run as one named statement whatever the pattern, page size and page, with the same results", async () => {
    const b = await newBusiness();
    const made: string[] = []; // oldest first
    for (let i = 0; i < 4; i++) {
      const { id } = await createPayment(b, { currency: "USD", amount: 1, name: `gizmo ${i}`, customerEmail: `ann${i}@gizmo.example` });
      await setColumns(id, { createdAt: at(i * 1000) });
      made.push(id);
    }
    const before = (await searchStatements()).reduce((n, s) => n + Number(s.generic_plans) + Number(s.custom_plans), 0);
    for (let i = 0; i < 3; i++) {
      expect(await ids(b, q({ searchString: "GIZMO", PageSize: 3 }))).toEqual([made[3], made[2], made[1]]);
      const second = await listOk(b, q({ searchString: "gizmo", PageSize: 3, PageNumber: 2 }));
      expect(second.items.map((p) => p.id)).toEqual([made[0]]);
      expect(second.totalCount).toBe(4);
      expect(await ids(b, q({ searchString: "ann2@" }))).toEqual([made[2]]);
      expect(await ids(b, q({ searchString: "gizmo 1" }))).toEqual([made[1]]);
    }
    const statements = await searchStatements();
    expect(statements).toHaveLength(1);
    const runs = statements.reduce((n, s) => n + Number(s.generic_plans) + Number(s.custom_plans), 0);
    expect(runs - before).toBe(12);
  });

  /** EXECUTE's arguments: the statement has the pattern once per place it is used, then the business, page size and offset. */
  const searchArgs = (statement: string, pattern: string, businessId: number, size: number, offset: number) => {
    const patterns = new Set(statement.match(/\$\d+/g)).size - 3;
    return [...Array<string>(patterns).fill(`'${pattern}'`), businessId, size, offset].join(", ");
  };

  it("hide their values from the planner, so a plan made for one search costs what the generic plan costs", async () => {
    // PGlite has no list connection asking for generic plans: its plan cache keeps the generic
    // plan only when a custom plan, made for the values, looks no cheaper.
    const b = await newBusiness();
    await createPayment(b, { currency: "USD", amount: 1, name: "widget", customerEmail: "bo@widget.example" });
    expect(await ids(b, q({ searchString: "widget" }))).toHaveLength(1);
    const [statement] = await searchStatements();
    // One connection (a transaction holds its own), whose plan_cache_mode is left to the planner
    // on both databases.
    await (await getDb()).transaction(async (tx) => {
      await executeRows(tx, sql.raw(`prepare search_values as ${statement.statement}`));
      try {
        const estimate = async (pattern: string, size: number, offset: number) => {
          const [row] = await executeRows<{ "QUERY PLAN": [{ Plan: { "Total Cost": number; "Plan Rows": number } }] }>(
            tx,
            sql.raw(`explain (format json) execute search_values(${searchArgs(statement.statement, pattern, b.businessId, size, offset)})`),
          );
          const { Plan } = row["QUERY PLAN"][0];
          return [Plan["Total Cost"], Plan["Plan Rows"]];
        };
        // The first executions of a prepared statement are planned for their values: any
        // difference here is a value the planner saw.
        const first = await estimate("%widget%", 20, 0);
        expect(await estimate("%a-much-longer-pattern%", 3, 0)).toEqual(first);
        expect(await estimate("%wid%", 100, 200)).toEqual(first);
      } finally {
        // A prepared statement outlives the transaction: leave the pooled connection as it was.
        await executeRows(tx, sql.raw("deallocate search_values"));
      }
    });
  });

  it.runIf(process.env.DATABASE_URL)("run on PostgreSQL's generic plan, which never walks the account's list index", async () => {
    const b = await newBusiness();
    await createPayment(b, { currency: "USD", amount: 1, name: "sprocket" });
    const genericBefore = (await searchStatements()).reduce((n, s) => n + Number(s.generic_plans), 0);
    for (let i = 0; i < 6; i++) expect(await ids(b, q({ searchString: "sprocket" }))).toHaveLength(1);
    const [statement] = await searchStatements();
    expect(Number(statement.generic_plans) - genericBefore).toBe(6);
    expect(Number(statement.custom_plans)).toBe(0);
    // Its generic plan, as the list connection runs it: a guess at the account's share of the
    // store must not turn the search into a walk of the account's list index.
    const listDb = await getListDb();
    await executeRows(listDb, sql.raw(`prepare search_plan as ${statement.statement}`));
    try {
      const [row] = await executeRows<{ "QUERY PLAN": unknown }>(listDb, sql.raw(`explain (format json) execute search_plan(${searchArgs(statement.statement, "%sprocket%", b.businessId, 20, 0)})`));
      const plan = JSON.stringify(row["QUERY PLAN"]);
      // (The test database is small enough for a sequential scan of the payments; at a million,
      // a bitmap of the two trigram indexes.)
      expect(plan).toContain("customers_email_trgm_idx");
      expect(plan).not.toContain("payments_business_");
    } finally {
      await executeRows(listDb, sql.raw("deallocate search_plan"));
    }
  });
});

describe.runIf(process.env.DATABASE_URL)("lists on PostgreSQL", () => {
  it("load a page's records by a generic plan, even when the first pages were short", async () => {
    const b = await newBusiness();
    await createPayment(b);
    for (let i = 0; i < 7; i++) expect((await listOk(b)).items).toHaveLength(1);
    // DATABASE_LIST_POOL_SIZE is unset: one list connection, whose session this reads.
    const plans = await executeRows<{ generic_plans: string; custom_plans: string }>(
      await getListDb(),
      sql`select generic_plans, custom_plans from pg_prepared_statements where statement like '%= any($1::uuid[])%'`,
    );
    expect(plans).toHaveLength(1);
    expect(Number(plans[0].generic_plans)).toBeGreaterThanOrEqual(7);
    expect(Number(plans[0].custom_plans)).toBe(0);
  });

  it("read through a connection of their own: writes and fetches go on while it is busy, lists wait for it", async () => {
    const b = await newBusiness();
    const first = await createPayment(b);
    // DATABASE_LIST_POOL_SIZE is unset in the tests: lists have one connection. Hold it.
    const listDb = await getListDb();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let holding = false;
    const held = listDb.transaction(async (tx) => {
      await tx.select({ id: payments.id }).from(payments).where(eq(payments.id, first.id));
      holding = true;
      await gate;
    });
    try {
      await expect.poll(() => holding, { timeout: 5_000 }).toBe(true);
      let listed = false;
      const pending = listOk(b).then((page) => ((listed = true), page));
      const second = await createPayment(b);
      const fetched = await request("GET", `${paymentsPath(b.businessId)}/${second.id}`, { key: b.apiKey });
      expect(fetched.status).toBe(200);
      expect(listed).toBe(false);
      release();
      expect((await pending).items.map((p) => p.id)).toEqual([second.id, first.id]);
    } finally {
      release();
      await held;
    }
  });
});
