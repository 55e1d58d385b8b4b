import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { loadPaymentDetails } from "@/db/queries/payments-read";
import { PAYMENT_STATUSES } from "@/domain/statuses";
import { PaymentListSchema, type PaymentRecord } from "@/lib/payments/schemas";
import { LIST_RECORDS_WRITERS } from "@/lib/payments/list-records";
import { paymentRecord } from "@/lib/payments/record";
import { json, paymentsPath, request } from "./helpers";
import { labelOf, makeRecordShapes, type Biz, type Shapes } from "./record-shapes";

/*
 * A list page's records come through one interface (lib/payments/list-records.ts) with two
 * writers: PostgreSQL writing them as JSON text (db/queries/payment-records-sql.ts, what lists
 * use on PostgreSQL) and `paymentRecord` over the details statement (PGlite). For every shape a
 * record takes (test/record-shapes.ts) each must be listed byte for byte as GET /payments/{id}
 * returns it (after parsing: numbers compare as numbers, keys in order), and each writer must
 * equal `paymentRecord` field by field, on both databases.
 */

let s: Shapes;
beforeAll(async () => {
  s = await makeRecordShapes();
});

async function listAll(biz: Biz) {
  const res = await request("GET", `${paymentsPath(biz.businessId)}?PageSize=100`, { key: biz.apiKey });
  expect(res.status).toBe(200);
  return (await json(res)).data;
}

/** The records `paymentRecord` builds, in the order given. */
async function builtRecords(db: Parameters<typeof loadPaymentDetails>[0], ids: string[]): Promise<PaymentRecord[]> {
  const details = await loadPaymentDetails(db, ids);
  return ids.map((id) => paymentRecord(details.get(id)!));
}

/**
 * A writer's record against `paymentRecord`'s: the same keys in the same order, then each field
 * (parsed and written again: numbers as numbers, jsonb's text with its spaces).
 */
function expectFieldByField(text: string, built: PaymentRecord, label: string) {
  const written = JSON.parse(text) as Record<string, unknown>;
  expect(Object.keys(written), `${label}: keys`).toEqual(Object.keys(built));
  for (const [key, value] of Object.entries(built)) {
    expect(JSON.stringify(written[key]), `${label}: ${key}`).toBe(JSON.stringify(value));
  }
}

describe("list records", () => {
  it("covers every status", async () => {
    const data = await listAll(s.b);
    expect(new Set(data.items.map((p: { status: string }) => p.status))).toEqual(new Set(PAYMENT_STATUSES));
  });

  it("match GET /payments/{id} for every payment, key order included", async () => {
    const data = await listAll(s.b);
    const parsed = PaymentListSchema.safeParse(data);
    expect(parsed.error?.issues ?? []).toEqual([]);
    const own = [...s.ids].filter(([label]) => label !== "on behalf").map(([, id]) => id);
    expect(data.items.map((p: { id: string }) => p.id)).toEqual([...s.ids.values()].reverse());
    expect(new Set(data.items.map((p: { id: string }) => p.id))).toEqual(new Set([...own, s.ids.get("on behalf")]));
    for (const item of data.items) {
      const res = await request("GET", `${paymentsPath(s.b.businessId)}/${item.id}`, { key: s.b.apiKey });
      const fetched = (await json(res)).data;
      expect(JSON.stringify(item), labelOf(s, item.id)).toBe(JSON.stringify(fetched));
    }
  });

  it("hold what the cases were built for", async () => {
    const byLabel = new Map((await listAll(s.b)).items.map((p: { id: string }) => [labelOf(s, p.id), p]));
    const charge = (label: string) => (byLabel.get(label) as { platformCryptoCharge: { isUnderpaid: boolean; transactions: unknown[]; amount: number } }).platformCryptoCharge;
    expect(charge("just under the threshold").isUnderpaid).toBe(true);
    expect(charge("at the threshold").isUnderpaid).toBe(false);
    expect(charge("odd tolerance, under").isUnderpaid).toBe(true);
    expect(charge("odd tolerance, at").isUnderpaid).toBe(false);
    expect(charge("full tolerance, nothing").isUnderpaid).toBe(false);
    expect(charge("full tolerance, one unit").isUnderpaid).toBe(false);
    expect(charge("dropped only").transactions).toEqual([]);
    expect(charge("dropped first, then paid").transactions).toHaveLength(1);
    expect(charge("late does not count").isUnderpaid).toBe(true);
    expect(charge("late does not count").transactions).toHaveLength(2);
    expect(charge("dropped only").amount).toBe(123.456789012345678901);
    // A Transaction is an on-chain transaction: its hash, everything it paid to the address.
    const several = charge("one transaction, several outputs").transactions as { id: string; amount: number }[];
    const hash = (n: number) => `tx-${s.ids.get("one transaction, several outputs")!.slice(0, 8)}-${n}`;
    expect(several.map((t) => [t.id, t.amount])).toEqual([
      [hash(7), 0.75],
      [hash(8), 0.25],
    ]);
    const rich = byLabel.get("rich") as { customer: { ipAddresses: { ip: string; city: string | null }[] }; netAmountUsd: number };
    expect(rich.customer.ipAddresses.map((a) => a.ip)).toEqual(["203.0.113.7", "198.51.100.1", "2001:db8::1"]);
    expect(rich.customer.ipAddresses[1].city).toBe("Zürich");
    expect(rich.netAmountUsd).toBe(9.8765);
    const crossed = byLabel.get("three addresses × three transfers") as { customer: { ipAddresses: unknown[] }; platformCryptoCharge: { transactions: unknown[] } };
    expect(crossed.customer.ipAddresses).toHaveLength(3);
    expect(crossed.platformCryptoCharge.transactions).toHaveLength(2);
    expect(byLabel.get("contract")).toHaveProperty("contractCharge.transaction.network", "ETHEREUM");
    expect(byLabel.get("completed")).toHaveProperty("platformCryptoCharge.transaction");
    expect(byLabel.get("completed")).not.toHaveProperty("platformCryptoCharge.transaction.network");
    expect(byLabel.get("on behalf")).toHaveProperty("onBehalfOfBusinessId", s.sub.businessId);
    expect(byLabel.get("bare")).toMatchObject({ name: null, metadata: null, note: null, prePaymentAmount: 0.5 });
    expect(byLabel.get("bare")).toHaveProperty("customer.email", null);
  });

  it("each writer's records equal paymentRecord's field by field, on this database, key order included", async () => {
    const db = await getDb();
    const all = [...s.ids.values()].reverse(); // newest first, as the writers return them
    const built = await builtRecords(db, all);
    expect(built).toHaveLength(all.length);
    for (const [name, writer] of Object.entries(LIST_RECORDS_WRITERS)) {
      const written = await writer(db, all);
      expect(written).toHaveLength(all.length);
      for (const [i, text] of written.entries()) expectFieldByField(text, built[i], `${name}: ${labelOf(s, all[i])}`);
    }
  });

  it("each writer's records hold in another session time zone", async () => {
    const db = await getDb();
    const all = [...s.ids.values()].reverse();
    const built = await builtRecords(db, all);
    for (const [name, writer] of Object.entries(LIST_RECORDS_WRITERS)) {
      const written = await db.transaction(async (tx) => {
        await tx.execute(sql`set local time zone 'Asia/Kolkata'`);
        return writer(tx, all);
      });
      for (const [i, text] of written.entries()) expectFieldByField(text, built[i], `${name} (Asia/Kolkata): ${labelOf(s, all[i])}`);
    }
  });

  it("a sub-business lists its payment as the parent and GET do", async () => {
    const data = await listAll(s.sub);
    expect(data.items).toHaveLength(1);
    const res = await request("GET", `${paymentsPath(s.sub.businessId)}/${s.ids.get("on behalf")}`, { key: s.sub.apiKey });
    expect(JSON.stringify(data.items[0])).toBe(JSON.stringify((await json(res)).data));
  });
});
