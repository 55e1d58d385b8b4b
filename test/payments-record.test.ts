import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { loadPaymentDetails } from "@/db/queries/payments-read";
import { paymentRecord } from "@/lib/payments/record";
import { PAYMENT_STATUSES } from "@/domain/statuses";
import { PaymentSchema, type PaymentRecord } from "@/lib/payments/schemas";
import { webhookPayload } from "@/lib/webhooks/payload";
import { json, paymentsPath, request } from "./helpers";
import { makeRecordShapes, type Shapes } from "./record-shapes";

/*
 * `paymentRecord` (lib/payments/record.ts) is the one definition of the Payment record. For every
 * shape a record takes (test/record-shapes.ts): its output is a valid Payment by PaymentSchema
 * (strict: no key the spec does not list), fetch and note answer exactly it, and the webhook
 * body is its PascalCase mapping and nothing else.
 */

let s: Shapes;
let records: Map<string, PaymentRecord>;
beforeAll(async () => {
  s = await makeRecordShapes();
  const details = await loadPaymentDetails(await getDb(), [...s.ids.values()]);
  records = new Map([...s.ids].map(([label, id]) => [label, paymentRecord(details.get(id)!)]));
});

/** The business a shape's payment is addressed through. */
const bizOf = (label: string) => (label === "on behalf" ? s.sub : s.b);

/** The record's field a webhook field maps: the same name in camelCase (`ISP` is `isp`). */
const recordKey = (pascal: string) => (pascal === "ISP" ? "isp" : pascal[0].toLowerCase() + pascal.slice(1));

/**
 * Every field of a webhook object is the record's field of the same name, mapped the same way
 * all the way down (arrays item by item, Metadata's own keys as they are), or null where the
 * record leaves the field out.
 */
function expectMapping(hook: unknown, record: unknown, path: string) {
  if (record === undefined) return expect(hook, path).toBeNull();
  if (record === null || typeof record !== "object") return expect(hook, path).toBe(record);
  if (Array.isArray(record)) {
    expect(Array.isArray(hook) && hook.length, path).toBe(record.length);
    return record.forEach((item, i) => expectMapping((hook as unknown[])[i], item, `${path}[${i}]`));
  }
  expect(hook, path).toBeTypeOf("object");
  for (const [key, value] of Object.entries(hook as Record<string, unknown>)) {
    const from = (record as Record<string, unknown>)[recordKey(key)];
    if (key === "Metadata") expect(value, `${path}.${key}`).toEqual(from ?? null);
    else expectMapping(value, from, `${path}.${key}`);
  }
}

describe("the Payment record", () => {
  it("of every shape is a valid Payment, every status among them", () => {
    expect(new Set([...records.values()].map((r) => r.status))).toEqual(new Set(PAYMENT_STATUSES));
    for (const [label, record] of records) {
      const parsed = PaymentSchema.safeParse(record);
      expect(parsed.error?.issues ?? [], label).toEqual([]);
      expect(parsed.data, label).toEqual(record);
    }
  });

  it("shows each part only where it applies", () => {
    const r = (label: string) => records.get(label)!;
    expect(Object.keys(r("bare"))).toEqual([
      "id", "name", "description", "endAmount", "prePaymentAmount", "currency", "status", "createdAt", "expiresAt",
      "timeline", "metadata", "platformFee", "note", "customer",
    ]);
    expect(r("selected, nothing paid")).toMatchObject({ selectedPaymentMethod: "PLATFORM_CRYPTO", platformCryptoCharge: { coinName: "BITCOIN", isUnderpaid: false, transactions: [] } });
    expect(r("selected, nothing paid").platformCryptoCharge).not.toHaveProperty("transaction");
    expect(r("pending").platformCryptoCharge?.transactions).toHaveLength(1);
    expect(r("underpaid")).toMatchObject({ status: "UNDERPAID", platformCryptoCharge: { isUnderpaid: true } });
    expect(r("completed")).toMatchObject({ status: "COMPLETED", platformFee: expect.any(Number), netAmountUsd: expect.any(Number) });
    expect(r("contract")).toMatchObject({ selectedPaymentMethod: "CONTRACT_CRYPTO", contractCharge: { coinName: "CONTRACT_ERC20_USDC" } });
    expect(r("contract")).not.toHaveProperty("platformCryptoCharge");
    expect(r("contract").contractCharge).not.toHaveProperty("transactions");
    expect(r("on behalf")).toHaveProperty("onBehalfOfBusinessId", s.sub.businessId);
    for (const label of ["bare", "cancelled", "pending"]) {
      expect(r(label), label).not.toHaveProperty("onBehalfOfBusinessId");
      expect(r(label), label).not.toHaveProperty("netAmountUsd");
    }
    expect(r("cancelled")).not.toHaveProperty("selectedPaymentMethod");
    expect(r("expired")).toMatchObject({ status: "EXPIRED", platformCryptoCharge: { coinName: "ETH_USD_COIN" } });
  });

  it("is what fetch answers for every shape, key order included", async () => {
    for (const [label, id] of s.ids) {
      const biz = bizOf(label);
      const res = await request("GET", `${paymentsPath(biz.businessId)}/${id}`, { key: biz.apiKey });
      expect(res.status, label).toBe(200);
      expect(JSON.stringify((await json(res)).data), label).toBe(JSON.stringify(records.get(label)));
    }
  });

  it("is what a note answers, with the note it wrote", async () => {
    const db = await getDb();
    for (const label of ["rich", "completed", "contract", "on behalf"]) {
      const biz = bizOf(label);
      const id = s.ids.get(label)!;
      const res = await request("PUT", `${paymentsPath(biz.businessId)}/${id}/note`, { key: biz.apiKey, body: { note: `checked ${label}` } });
      expect(res.status, label).toBe(200);
      const d = (await loadPaymentDetails(db, [id])).get(id)!;
      expect(d.payment.note).toBe(`checked ${label}`);
      expect(JSON.stringify((await json(res)).data), label).toBe(JSON.stringify(paymentRecord(d)));
    }
  });

  it("maps to every shape's webhook body in PascalCase, with only the webhook's own fields added", () => {
    for (const [label, record] of records) {
      const body = webhookPayload("PAYMENT_CREATED", record, { businessId: 7, redirectUrl: "https://shop.example/back" });
      expect(body.EventType).toBe("PAYMENT_CREATED");
      const { BusinessId, RedirectUrl, ...mapped } = body.ForPaymentEvents;
      expect([BusinessId, RedirectUrl], label).toEqual([7, "https://shop.example/back"]);
      expectMapping(mapped, record, label);
      expect(mapped.Timeline, label).toHaveLength(record.timeline!.length);
    }
  });
});
