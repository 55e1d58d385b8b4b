import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { executeRows, getDb } from "@/db/client";
import { createApiKey } from "@/lib/businesses/businesses";
import { PaymentSchema } from "@/lib/payments/schemas";
import { createPayment, expectProblem, json, newBusiness, paymentsPath, request } from "./helpers";

type Biz = Awaited<ReturnType<typeof newBusiness>>;
type Auth = { businessId: number; apiKey: string };

const PAYMENT_FIELDS = [
  "id",
  "name",
  "description",
  "endAmount",
  "prePaymentAmount",
  "currency",
  "status",
  "createdAt",
  "expiresAt",
  "timeline",
  "customer",
  "metadata",
  "selectedPaymentMethod",
  "platformCryptoCharge",
  "contractCharge",
  "platformFee",
  "note",
  "onBehalfOfBusinessId",
  "netAmountUsd",
];
const REQUIRED_FIELDS = ["createdAt", "currency", "endAmount", "expiresAt", "prePaymentAmount", "status", "timeline"];
const CUSTOMER_FIELDS = ["id", "email", "ipAddresses"];
const IP_FIELDS = ["city", "ip", "country", "riskScore", "connectionType", "isp", "dateCreated"];
const CONNECTION_TYPES = ["RESIDENTIAL", "BUSINESS", "WIRELESS", "VPN", "SOCKS", "COMPROMISED_SERVER", "Unknown"];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const paymentPath = (businessId: number, id: string) => `${paymentsPath(businessId)}/${id}`;

function get(auth: Auth, id: string, headers?: Record<string, string>, key = auth.apiKey) {
  return request("GET", paymentPath(auth.businessId, id), { key, headers });
}

async function fetchRecord(auth: Auth, id: string, key = auth.apiKey) {
  const res = await get(auth, id, undefined, key);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const body = JSON.parse(text);
  expect(body.message).toBeNull();
  expect(body.errors).toBeNull();
  return body.data;
}

/** The spec's shape, checked by hand (names) and by the published schema (types). */
function expectSpecShape(rec: Record<string, unknown>) {
  for (const f of REQUIRED_FIELDS) expect(rec, `required field ${f}`).toHaveProperty(f);
  expect(Object.keys(rec).filter((k) => !PAYMENT_FIELDS.includes(k))).toEqual([]);
  const customer = rec.customer as Record<string, unknown> | undefined;
  if (customer) {
    expect(Object.keys(customer).filter((k) => !CUSTOMER_FIELDS.includes(k))).toEqual([]);
    expect(customer).toHaveProperty("id");
    expect(customer).toHaveProperty("email");
    for (const ip of (customer.ipAddresses as Record<string, unknown>[] | null) ?? []) {
      expect(Object.keys(ip).filter((k) => !IP_FIELDS.includes(k))).toEqual([]);
    }
  }
  for (const entry of (rec.timeline as Record<string, unknown>[] | null) ?? []) {
    expect(Object.keys(entry).sort()).toEqual(["paymentStatus", "time"]);
  }
  const parsed = PaymentSchema.safeParse(rec);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
}

let b: Biz;
beforeAll(async () => {
  b = await newBusiness();
});

describe("GET /v1/businesses/{businessId}/payments/{paymentId} — the Payment record", () => {
  it("has exactly the spec's property names and validates against PaymentSchema", async () => {
    const { id } = await createPayment(b, { currency: "USD", amount: 10 });
    const rec = await fetchRecord(b, id);
    expectSpecShape(rec);
    expect(rec.id).toBe(id);
  });

  it("keeps the shape with every create field given", async () => {
    const { id } = await createPayment(b, {
      currency: "EUR",
      amount: 12.34,
      name: "Order 7",
      description: "two mugs",
      customerEmail: "shape@example.com",
      customerIp: "198.51.100.4",
      customerUserAgent: "curl/8",
      redirectUrl: "https://shop.example.com/done",
      notifyUrl: "https://shop.example.com/hook",
      metadata: { order: "7" },
      paymentMethods: { PLATFORM_CRYPTO: ["BITCOIN"] },
      feeTransfers: [{ businessId: b.businessId, percent: 1 }],
    });
    const rec = await fetchRecord(b, id);
    expectSpecShape(rec);
    // Create-only inputs are not part of the record.
    for (const k of ["redirectUrl", "notifyUrl", "paymentMethods", "feeTransfers", "customerIp", "customerUserAgent", "customerEmail", "businessId", "amount"]) {
      expect(rec).not.toHaveProperty(k);
    }
    expect(rec).toMatchObject({
      name: "Order 7",
      description: "two mugs",
      currency: "EUR",
      prePaymentAmount: 12.34,
      endAmount: 12.34,
      status: "AWAITING_PAYMENT",
      metadata: { order: "7" },
    });
  });

  it("returns the fields of a new payment with their types", async () => {
    const { id } = await createPayment(b, { currency: "GBP", amount: 0.5 });
    const rec = await fetchRecord(b, id);
    expect(rec.status).toBe("AWAITING_PAYMENT");
    expect(rec.prePaymentAmount).toBe(0.5);
    expect(rec.endAmount).toBe(0.5);
    expect(typeof rec.prePaymentAmount).toBe("number");
    expect(rec.currency).toBe("GBP");
    expect(rec.name).toBeNull();
    expect(rec.description).toBeNull();
    expect(rec.note ?? null).toBeNull();
    expect(rec.metadata ?? null).toBeNull();
    expect(rec.createdAt).toMatch(ISO);
    expect(rec.expiresAt).toMatch(ISO);
    expect(rec).not.toHaveProperty("selectedPaymentMethod");
    expect(rec).not.toHaveProperty("platformCryptoCharge");
    expect(rec).not.toHaveProperty("contractCharge");
    expect(rec).not.toHaveProperty("onBehalfOfBusinessId");
  });

  it("starts the timeline with AWAITING_PAYMENT at createdAt", async () => {
    const { id } = await createPayment(b);
    const rec = await fetchRecord(b, id);
    expect(rec.timeline).toEqual([{ time: rec.createdAt, paymentStatus: "AWAITING_PAYMENT" }]);
  });

  it("sets expiresAt = createdAt + the default lifetime of 3600 s", async () => {
    const { id } = await createPayment(b);
    const rec = await fetchRecord(b, id);
    expect(Date.parse(rec.expiresAt) - Date.parse(rec.createdAt)).toBe(3600 * 1000);
  });

  it("sets expiresAt = createdAt + the business's paymentLifetimeSeconds", async () => {
    const short = await newBusiness({ paymentLifetimeSeconds: 125 });
    const { id } = await createPayment(short);
    const rec = await fetchRecord(short, id);
    expect(Date.parse(rec.expiresAt) - Date.parse(rec.createdAt)).toBe(125 * 1000);
    const long = await newBusiness({ paymentLifetimeSeconds: 604800 });
    const p2 = await createPayment(long);
    const rec2 = await fetchRecord(long, p2.id);
    expect(Date.parse(rec2.expiresAt) - Date.parse(rec2.createdAt)).toBe(604800 * 1000);
  });

  it("puts createdAt close to the time of the request", async () => {
    const before = Date.now();
    const { id } = await createPayment(b);
    const after = Date.now();
    const created = Date.parse((await fetchRecord(b, id)).createdAt);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(created).toBeLessThanOrEqual(after + 1000);
  });

  it("returns metadata exactly as given", async () => {
    const metadata = {
      orderId: "A-1001",
      empty: "",
      spaces: "  padded  ",
      unicode: "Grüße ☕ 😀",
      quote: 'say "hi"\nnext line\\',
      "key with spaces": "v",
      "ünï": "x",
      "123": "numeric-looking key",
      json: '{"nested":true}',
    };
    const { id } = await createPayment(b, { currency: "USD", amount: 10, metadata });
    const rec = await fetchRecord(b, id);
    expect(rec.metadata).toEqual(metadata);
    expect(Object.keys(rec.metadata).sort()).toEqual(Object.keys(metadata).sort());
  });

  it("keeps the amount's decimal value exactly", async () => {
    for (const [currency, amount] of [
      ["USD", 19.99],
      ["EUR", 1.1],
      ["KWD", 123456.789],
      ["JPY", 999999999],
    ] as const) {
      const { id } = await createPayment(b, { currency, amount });
      const rec = await fetchRecord(b, id);
      expect(rec.prePaymentAmount).toBe(amount);
      expect(rec.endAmount).toBe(amount);
    }
  });
});

describe("customer (D9)", () => {
  it("is present with the email given at create", async () => {
    const { id } = await createPayment(b, { currency: "USD", amount: 10, customerEmail: "first@example.com" });
    const rec = await fetchRecord(b, id);
    expect(Number.isInteger(rec.customer.id)).toBe(true);
    expect(rec.customer.email).toBe("first@example.com");
  });

  it("is present with email null when none was given, one new customer per payment", async () => {
    const a = await fetchRecord(b, (await createPayment(b)).id);
    const c = await fetchRecord(b, (await createPayment(b)).id);
    expect(a.customer.email).toBeNull();
    expect(c.customer.email).toBeNull();
    expect(a.customer.id).not.toBe(c.customer.id);
  });

  it("shows customerIp given at create in customer.ipAddresses", async () => {
    const before = Date.now();
    const { id } = await createPayment(b, { currency: "USD", amount: 10, customerEmail: "ip@example.com", customerIp: "203.0.113.9" });
    const rec = await fetchRecord(b, id);
    expect(rec.customer.ipAddresses).toHaveLength(1);
    const entry = rec.customer.ipAddresses[0];
    expect(entry.ip).toBe("203.0.113.9");
    expect(CONNECTION_TYPES).toContain(entry.connectionType);
    expect(entry.dateCreated).toMatch(ISO);
    expect(Date.parse(entry.dateCreated)).toBeGreaterThanOrEqual(before - 1000);
    for (const f of IP_FIELDS) expect(entry).toHaveProperty(f);
  });

  it("shows an IPv6 customerIp", async () => {
    const { id } = await createPayment(b, { currency: "USD", amount: 10, customerIp: "2001:db8::42" });
    const rec = await fetchRecord(b, id);
    expect(rec.customer.ipAddresses.map((i: { ip: string }) => i.ip)).toEqual(["2001:db8::42"]);
  });

  it("has no ip entries when no customerIp was given", async () => {
    const { id } = await createPayment(b, { currency: "USD", amount: 10, customerEmail: "noip@example.com" });
    const rec = await fetchRecord(b, id);
    expect(rec.customer.ipAddresses ?? []).toEqual([]);
  });

  it("gives the same email the same customer id, case-insensitively", async () => {
    const p1 = await createPayment(b, { currency: "USD", amount: 10, customerEmail: "Same.Person@Example.com" });
    const p2 = await createPayment(b, { currency: "USD", amount: 11, customerEmail: "same.person@example.com" });
    const p3 = await createPayment(b, { currency: "USD", amount: 12, customerEmail: "SAME.PERSON@EXAMPLE.COM" });
    const [r1, r2, r3] = await Promise.all([fetchRecord(b, p1.id), fetchRecord(b, p2.id), fetchRecord(b, p3.id)]);
    expect(r2.customer.id).toBe(r1.customer.id);
    expect(r3.customer.id).toBe(r1.customer.id);
    expect(r2.customer.email?.toLowerCase()).toBe("same.person@example.com");
  });

  it("gives different emails different customers", async () => {
    const p1 = await createPayment(b, { currency: "USD", amount: 10, customerEmail: "one@example.com" });
    const p2 = await createPayment(b, { currency: "USD", amount: 10, customerEmail: "two@example.com" });
    expect((await fetchRecord(b, p1.id)).customer.id).not.toBe((await fetchRecord(b, p2.id)).customer.id);
  });

  it("collects the ips of a returning customer", async () => {
    const email = "returning@example.com";
    await createPayment(b, { currency: "USD", amount: 10, customerEmail: email, customerIp: "192.0.2.10" });
    const { id } = await createPayment(b, { currency: "USD", amount: 10, customerEmail: email, customerIp: "192.0.2.11" });
    const ips = (await fetchRecord(b, id)).customer.ipAddresses.map((i: { ip: string }) => i.ip);
    expect(ips.sort()).toEqual(["192.0.2.10", "192.0.2.11"]);
  });

  it("matches customers per business: the same email elsewhere is another customer", async () => {
    const other = await newBusiness();
    const p1 = await createPayment(b, { currency: "USD", amount: 10, customerEmail: "shared@example.com" });
    const p2 = await createPayment(other, { currency: "USD", amount: 10, customerEmail: "shared@example.com" });
    expect((await fetchRecord(b, p1.id)).customer.id).not.toBe((await fetchRecord(other, p2.id)).customer.id);
  });

  it("does not rewrite a returning customer's row", async () => {
    // A rewrite leaves a dead row and new index entries behind on every payment (see insertPaymentWithCustomer).
    const rowVersion = async (id: string) => {
      const customerId = (await fetchRecord(b, id)).customer.id;
      const rows = await executeRows<{ v: string }>(await getDb(), sql`select xmin::text as v from customers where id = ${customerId}`);
      return rows[0].v;
    };
    const first = await createPayment(b, { currency: "USD", amount: 10, customerEmail: "loyal@example.com" });
    const before = await rowVersion(first.id);
    const second = await createPayment(b, { currency: "USD", amount: 11, customerEmail: "LOYAL@example.com" });
    expect(await rowVersion(second.id)).toBe(before);
  });

  it("creates one customer for a new email used by parallel creates", async () => {
    const fresh = await newBusiness();
    const ids = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createPayment(fresh, { currency: "USD", amount: 10 + i, customerEmail: i % 2 ? "Race@Example.com" : "race@example.com" }),
      ),
    );
    const records = await Promise.all(ids.map((p) => fetchRecord(fresh, p.id)));
    expect(new Set(records.map((r) => r.customer.id)).size).toBe(1);
  });
});

describe("Accept (D12)", () => {
  let id: string;
  beforeAll(async () => {
    id = (await createPayment(b)).id;
  });

  it.each([
    [undefined, "application/json"],
    ["application/json", "application/json"],
    ["text/json", "text/json"],
    ["text/plain", "text/plain"],
    ["*/*", "application/json"],
    ["text/html", "application/json"],
    ["text/plain;q=0.5, text/json", "text/json"],
    ["application/xml, text/plain", "text/plain"],
    ["TEXT/PLAIN", "text/plain"],
  ])("Accept %s → %s", async (accept, type) => {
    const res = await get(b, id, accept === undefined ? undefined : { accept });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")?.split(";")[0]).toBe(type);
    const body = JSON.parse(await res.text());
    expect(body.data.id).toBe(id);
    expect(body.message).toBeNull();
    expect(body.errors).toBeNull();
  });

  it.each([
    [undefined, "application/problem+json"],
    ["application/problem+json", "application/problem+json"],
    ["*/*", "application/problem+json"],
    ["text/html", "application/problem+json"],
    ["application/json", "application/json"],
    ["text/json", "text/json"],
    ["text/plain", "text/plain"],
  ])("errors: Accept %s → %s", async (accept, type) => {
    const res = await get(b, crypto.randomUUID(), accept === undefined ? undefined : { accept });
    await expectProblem(res, 404, undefined, type);
  });
});

describe("errors", () => {
  it("404 for an unknown payment id", async () => {
    const unknown = crypto.randomUUID();
    const problem = await expectProblem(await get(b, unknown), 404);
    expect(problem.detail).toContain(unknown);
  });

  it("404 for another business's payment, addressed through the caller's own path", async () => {
    const other = await newBusiness();
    const { id } = await createPayment(other);
    await expectProblem(await get(b, id), 404);
    // and the owner still sees it
    expect((await fetchRecord(other, id)).id).toBe(id);
  });

  it("403 when the key addresses another business's path", async () => {
    const other = await newBusiness();
    const { id } = await createPayment(other);
    await expectProblem(await get(other, id, undefined, b.apiKey), 403);
  });

  it("401 without a key", async () => {
    const { id } = await createPayment(b);
    const res = await request("GET", paymentPath(b.businessId, id));
    await expectProblem(res, 401);
  });

  it.each(["not-a-uuid", "12345", "00000000-0000-0000-0000-00000000000g", "00000000000000000000000000000000x"])(
    "400 naming paymentId for the malformed id %s",
    async (bad) => {
      const problem = await expectProblem(await get(b, bad), 400, ["paymentId"]);
      expect(problem.detail).toContain("paymentId");
    },
  );

  it("400 naming businessId for a malformed business id", async () => {
    const res = await request("GET", `/v1/businesses/abc/payments/${crypto.randomUUID()}`, { key: b.apiKey });
    await expectProblem(res, 400, ["businessId"]);
  });
});

describe("sub-businesses (onBehalfOfBusinessId)", () => {
  let parent: Biz;
  let sub: Biz;
  let sibling: Biz;
  beforeAll(async () => {
    parent = await newBusiness();
    sub = await newBusiness({ parentBusinessId: parent.businessId });
    sibling = await newBusiness({ parentBusinessId: parent.businessId });
  });

  it("a payment created with the sub-business's own key shows onBehalfOfBusinessId", async () => {
    const { id } = await createPayment(sub);
    const rec = await fetchRecord(sub, id);
    expect(rec.onBehalfOfBusinessId).toBe(sub.businessId);
    expectSpecShape(rec);
  });

  it("a parent's key acts for its sub-business, and the parent sees the payment", async () => {
    const viaParentKey = { businessId: sub.businessId, apiKey: parent.apiKey };
    const { id } = await createPayment(viaParentKey, { currency: "USD", amount: 21 });
    const rec = await fetchRecord(viaParentKey, id);
    expect(rec.onBehalfOfBusinessId).toBe(sub.businessId);
    const fromParent = await fetchRecord(parent, id);
    expect(fromParent.onBehalfOfBusinessId).toBe(sub.businessId);
    expect(fromParent.prePaymentAmount).toBe(21);
  });

  it("a key created for [parent, sub] works on both paths", async () => {
    const db = await getDb();
    const key = await createApiKey(db, parent.businessId, { businessIds: [parent.businessId, sub.businessId] });
    const { id } = await createPayment({ businessId: sub.businessId, apiKey: key.apiKey });
    expect((await fetchRecord({ businessId: sub.businessId, apiKey: key.apiKey }, id)).onBehalfOfBusinessId).toBe(sub.businessId);
    expect((await fetchRecord({ businessId: parent.businessId, apiKey: key.apiKey }, id)).onBehalfOfBusinessId).toBe(sub.businessId);
  });

  it("a payment made directly on the parent has no onBehalfOfBusinessId and is not visible to the sub-business", async () => {
    const { id } = await createPayment(parent);
    const rec = await fetchRecord(parent, id);
    expect(rec).not.toHaveProperty("onBehalfOfBusinessId");
    await expectProblem(await get(sub, id), 404);
  });

  it("a sibling sub-business does not see the payment (404), even with the parent's key", async () => {
    const { id } = await createPayment(sub);
    await expectProblem(await get({ businessId: sibling.businessId, apiKey: parent.apiKey }, id), 404);
    await expectProblem(await get(sibling, id), 404);
  });

  it("the sub-business's own key may not act for the parent (403)", async () => {
    const { id } = await createPayment(parent);
    await expectProblem(await get({ businessId: parent.businessId, apiKey: sub.apiKey }, id), 403);
    const res = await request("POST", paymentsPath(parent.businessId), { key: sub.apiKey, body: { currency: "USD", amount: 1 } });
    await expectProblem(res, 403);
  });

  it("a sub-business's list contains only its own payments", async () => {
    const own = await newBusiness();
    const child = await newBusiness({ parentBusinessId: own.businessId });
    const a = await createPayment(child);
    const bb = await createPayment(own);
    const childList = await json(await request("GET", paymentsPath(child.businessId), { key: child.apiKey }));
    expect(childList.data.items.map((p: { id: string }) => p.id)).toEqual([a.id]);
    const parentList = await json(await request("GET", paymentsPath(own.businessId), { key: own.apiKey }));
    expect(parentList.data.items.map((p: { id: string }) => p.id).sort()).toEqual([a.id, bb.id].sort());
  });
});
