import { beforeEach, describe, expect, it } from "vitest";
import { expectProblem, json, newBusiness, paymentsPath, request } from "./helpers";

type Biz = Awaited<ReturnType<typeof newBusiness>>;

let b: Biz;
beforeEach(async () => {
  b = await newBusiness();
});

const body = { currency: "USD", amount: 10, name: "Order 1", metadata: { order: "1", sku: "A" } };

function post(payload: unknown, key: string | undefined, biz: Biz = b, extra: { rawBody?: string } = {}) {
  const headers: Record<string, string> = key === undefined ? {} : { "idempotency-key": key };
  if (extra.rawBody !== undefined) headers["content-type"] = "application/json";
  return request("POST", paymentsPath(biz.businessId), { key: biz.apiKey, body: payload, headers, rawBody: extra.rawBody });
}

async function created(res: Response): Promise<{ id: string; url: string }> {
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const parsed = JSON.parse(text);
  expect(parsed.message).toBeNull();
  expect(parsed.errors).toBeNull();
  return parsed.data;
}

async function totalCount(biz: Biz = b): Promise<number> {
  const res = await request("GET", paymentsPath(biz.businessId), { key: biz.apiKey });
  expect(res.status).toBe(200);
  return (await json(res)).data.totalCount;
}

describe("Idempotency-Key on POST /payments (D13)", () => {
  it("same key and same body → the same id and url, one payment", async () => {
    const first = await created(await post(body, "order-1"));
    const second = await created(await post(body, "order-1"));
    const third = await created(await post(body, "order-1"));
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(first.url).toBe(`http://pay.test/pay/${first.id}`);
    expect(await totalCount()).toBe(1);
  });

  it("treats key order and whitespace of the JSON body as the same body", async () => {
    const first = await created(await post(body, "k-order"));
    const reordered = '{ "metadata": {"sku":"A", "order":"1"},\n "name":"Order 1", "amount": 10, "currency": "USD" }';
    const second = await created(await post(undefined, "k-order", b, { rawBody: reordered }));
    expect(second.id).toBe(first.id);
    expect(await totalCount()).toBe(1);
  });

  it("without a key, identical requests create separate payments", async () => {
    const a = await created(await post(body, undefined));
    const c = await created(await post(body, undefined));
    expect(a.id).not.toBe(c.id);
    expect(await totalCount()).toBe(2);
  });

  it("different keys create different payments", async () => {
    const a = await created(await post(body, "key-a"));
    const c = await created(await post(body, "key-b"));
    expect(a.id).not.toBe(c.id);
    expect(await totalCount()).toBe(2);
  });

  it("keys are case-sensitive", async () => {
    const a = await created(await post(body, "Key-X"));
    const c = await created(await post(body, "key-x"));
    expect(a.id).not.toBe(c.id);
  });

  it("same key with a different body → 409 ProblemDetails, and nothing new is stored", async () => {
    const first = await created(await post(body, "k-conflict"));
    const problem = await expectProblem(await post({ ...body, amount: 11 }, "k-conflict"), 409);
    expect(problem.detail).toMatch(/Idempotency-Key/i);
    await expectProblem(await post({ ...body, metadata: { order: "2", sku: "A" } }, "k-conflict"), 409);
    await expectProblem(await post({ currency: "USD", amount: 10 }, "k-conflict"), 409);
    // the original still replays
    expect((await created(await post(body, "k-conflict"))).id).toBe(first.id);
    expect(await totalCount()).toBe(1);
  });

  it("a 409 honours Accept like other errors", async () => {
    await created(await post(body, "k-accept"));
    const res = await request("POST", paymentsPath(b.businessId), {
      key: b.apiKey,
      body: { ...body, amount: 12 },
      headers: { "idempotency-key": "k-accept", accept: "application/json" },
    });
    await expectProblem(res, 409, undefined, "application/json");
  });

  it("the same key from another business is independent", async () => {
    const other = await newBusiness();
    const mine = await created(await post(body, "shared-key"));
    const theirs = await created(await post(body, "shared-key", other));
    expect(theirs.id).not.toBe(mine.id);
    // a different body under the same key is fine in the other business too
    const third = await newBusiness();
    await created(await post({ currency: "EUR", amount: 99 }, "shared-key", third));
    expect(await totalCount()).toBe(1);
    expect(await totalCount(other)).toBe(1);
    // each replays its own
    expect((await created(await post(body, "shared-key"))).id).toBe(mine.id);
    expect((await created(await post(body, "shared-key", other))).id).toBe(theirs.id);
  });

  it("the replayed payment is a real one that can be fetched", async () => {
    const first = await created(await post(body, "k-fetch"));
    const again = await created(await post(body, "k-fetch"));
    const res = await request("GET", `${paymentsPath(b.businessId)}/${again.id}`, { key: b.apiKey });
    expect(res.status).toBe(200);
    expect((await json(res)).data).toMatchObject({ id: first.id, name: "Order 1", prePaymentAmount: 10 });
  });

  it("accepts a key of 255 characters and refuses 256, naming Idempotency-Key", async () => {
    await created(await post(body, "k".repeat(255)));
    const problem = await expectProblem(await post(body, "k".repeat(256)), 400, ["Idempotency-Key"]);
    expect(problem.detail).toContain("Idempotency-Key");
    expect(await totalCount()).toBe(1);
  });

  it.each([
    ["an empty key", ""],
    ["a key with spaces", "has space"],
    ["a non-ASCII key", "schlüssel"],
  ])("refuses %s", async (_what, key) => {
    await expectProblem(await post(body, key), 400, ["Idempotency-Key"]);
    expect(await totalCount()).toBe(0);
  });

  it("a request refused by validation does not use up its key", async () => {
    await expectProblem(await post({ currency: "USD", amount: 0.1 }, "k-retry"), 400, ["amount"]);
    const ok = await created(await post({ currency: "USD", amount: 1 }, "k-retry"));
    expect((await created(await post({ currency: "USD", amount: 1 }, "k-retry"))).id).toBe(ok.id);
    expect(await totalCount()).toBe(1);
  });

  it("a request refused by a business rule (empty coin intersection) does not use up its key", async () => {
    const narrow = await newBusiness({ enabledCoins: ["BITCOIN"] });
    const bad = { currency: "USD", amount: 5, paymentMethods: { PLATFORM_CRYPTO: ["ETHEREUM"] } };
    await expectProblem(await post(bad, "k-rule", narrow), 400, ["paymentMethods"]);
    await created(await post({ currency: "USD", amount: 5 }, "k-rule", narrow));
    expect(await totalCount(narrow)).toBe(1);
  });

  it("same key twice in parallel → both 200 with the same id, exactly one payment", async () => {
    const [r1, r2] = await Promise.all([post(body, "k-parallel"), post(body, "k-parallel")]);
    const [a, c] = [await created(r1), await created(r2)];
    expect(c.id).toBe(a.id);
    expect(await totalCount()).toBe(1);
  });

  it("same key ten times in parallel → all 200 with one id, exactly one payment", async () => {
    const responses = await Promise.all(Array.from({ length: 10 }, () => post(body, "k-parallel-10")));
    const results = await Promise.all(responses.map(created));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(await totalCount()).toBe(1);
  });

  it("same key in parallel with different bodies → one 200 and one 409, one payment", async () => {
    const [r1, r2] = await Promise.all([post(body, "k-race"), post({ ...body, amount: 20 }, "k-race")]);
    const statuses = [r1.status, r2.status].sort();
    expect(statuses).toEqual([200, 409]);
    const winner = r1.status === 200 ? r1 : r2;
    const loser = r1.status === 200 ? r2 : r1;
    const { id } = await created(winner);
    await expectProblem(loser, 409);
    expect(await totalCount()).toBe(1);
    const rec = (await json(await request("GET", `${paymentsPath(b.businessId)}/${id}`, { key: b.apiKey }))).data;
    expect(rec.prePaymentAmount).toBe(winner === r1 ? 10 : 20);
  });

  it("parallel requests with distinct keys all create their own payment", async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => post(body, `k-distinct-${i}`)));
    const results = await Promise.all(responses.map(created));
    expect(new Set(results.map((r) => r.id)).size).toBe(6);
    expect(await totalCount()).toBe(6);
  });
});
