import { beforeAll, describe, expect, it } from "vitest";
import { PaymentListSchema } from "@/lib/payments/schemas";
import { createPayment, json, newBusiness, paymentsPath, request } from "./helpers";
import { type Biz, at, ids, listOk, setColumns } from "./payments-list-support";

/**
 * D1: GET /v1/businesses/{businessId}/payments, its response: the envelope and its fields, each
 * item exactly as GET /payments/{id} returns it, and the order (newest first, then by id).
 * Through the real route handler against the real database; shared setup in
 * ./payments-list-support.ts.
 */

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
