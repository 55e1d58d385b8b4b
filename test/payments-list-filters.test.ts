import { beforeAll, describe, expect, it } from "vitest";
import { createPayment, json, newBusiness, paymentsPath, request } from "./helpers";
import { type Biz, at, expect400, ids, list, listOk, paymentCreatedAt, q, setColumns } from "./payments-list-support";

/**
 * D1: GET /v1/businesses/{businessId}/payments, its filters on columns: statuses, cryptoCoins,
 * fromTime / toTime and fromAmount / toAmount, each with the 400s of bad values. Through the real
 * route handler against the real database; shared setup in ./payments-list-support.ts.
 */

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
