import { beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { charges, customerIps, payments, transfers } from "@/db/schema";
import { cancelPayment } from "@/lib/checkout/cancel";
import { expirePaymentIfDue } from "@/lib/payments/expiry";
import { PAYMENT_STATUSES } from "@/lib/payments/status";
import { PaymentListSchema } from "@/lib/payments/schemas";
import { loadPaymentDetails } from "@/db/queries/payments";
import { recordsJson } from "@/lib/payments/read";
import { toPaymentRecord } from "@/lib/payments/record";
import { createPayment, json, newBusiness, paymentsPath, request } from "./helpers";

/*
 * On PostgreSQL a list page's records are written by the database (db/queries/payment-record-json.ts),
 * on PGlite from the cells as text (db/queries/payment-record-text.ts); every other response's by
 * `toPaymentRecord`. These payments cover what a record can hold — every
 * status, no customer or one with several IP addresses, both charge kinds, coins with and without
 * a network and with 6 to 18 decimals, dropped, late and several transfers, the underpayment
 * threshold on both sides with odd tolerances, sub-businesses, text needing escapes — and each
 * must be listed byte for byte as GET /payments/{id} returns it (after parsing: numbers compare
 * as numbers, keys in order).
 */

type Biz = Awaited<ReturnType<typeof newBusiness>>;

/** The records as every other response writes them: `toPaymentRecord`, then `JSON.stringify`. */
async function referenceRecords(db: Awaited<ReturnType<typeof getDb>>, ids: string[]): Promise<string[]> {
  const details = await loadPaymentDetails(db, ids);
  return ids.map((id) => {
    const d = details.get(id)!;
    return JSON.stringify(toPaymentRecord(d.payment, d.customer, d.charge));
  });
}

async function sim(b: Biz, id: string, body: unknown) {
  const res = await request("POST", `${paymentsPath(b.businessId)}/${id}/simulate`, { key: b.apiKey, body });
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
  return (await json(res)).data;
}

let b: Biz;
let sub: Biz;
const ids = new Map<string, string>();

async function add(label: string, biz: Biz, body: Record<string, unknown> = { currency: "USD", amount: 10 }) {
  const { id } = await createPayment(biz, body);
  ids.set(label, id);
  return id;
}

/** A charge with a given quote and tolerance, and transfers inserted as a chain watcher would. */
async function chargeWith(id: string, quotedUnits: string, tolerancePercent: string, amounts: { amount: string; dropped?: boolean; late?: boolean }[]) {
  const db = await getDb();
  await db.update(charges).set({ quotedUnits, tolerancePercent }).where(eq(charges.paymentId, id));
  const [charge] = await db.select().from(charges).where(eq(charges.paymentId, id));
  const now = new Date();
  for (const [i, t] of amounts.entries()) {
    await db.insert(transfers).values({
      paymentId: id,
      txId: `tx-${id.slice(0, 8)}-${i}`,
      amount: t.amount,
      confirmations: i,
      blockNumber: i % 2 ? null : String(1000 + i),
      fromAddress: i % 2 ? `from-${i}` : null,
      toAddress: charge.address,
      dropped: t.dropped ?? false,
      late: t.late ?? false,
      seenAt: now,
      updatedAt: now,
    });
  }
}

beforeAll(async () => {
  const db = await getDb();
  b = await newBusiness({ feePercent: 2.5 });
  sub = await newBusiness({ parentBusinessId: b.businessId });

  await add("bare", b, { currency: "USD", amount: 0.5 });
  const rich = await add("rich", b, {
    currency: "EUR",
    amount: 1234.5,
    name: 'He said "hi" \\ back\n\ttab ünïcode 💸 \u2028',
    description: "</script><b>&amp;",
    customerEmail: "Repeat.Buyer@Example.com",
    customerIp: "203.0.113.7",
    metadata: { order: "A-1", "quote\"key": "line\nbreak", emoji: "🧾" },
  });
  await request("PUT", `${paymentsPath(b.businessId)}/${rich}/note`, { key: b.apiKey, body: { note: "note with 'quotes' and \"doubles\"" } });
  // The same customer again from two more addresses: its record lists every address, oldest first.
  await add("repeat customer", b, { currency: "USD", amount: 5, customerEmail: "repeat.buyer@example.com", customerIp: "198.51.100.1" });
  await add("repeat customer 2", b, { currency: "USD", amount: 6, customerEmail: "REPEAT.BUYER@example.com", customerIp: "2001:db8::1" });
  const [ip] = await db.select().from(customerIps).where(eq(customerIps.ip, "198.51.100.1"));
  await db.update(customerIps).set({ city: "Zürich", country: "CH", riskScore: 0.125, connectionType: "RESIDENTIAL", isp: 'ISP "one"' }).where(eq(customerIps.id, ip.id));
  await add("email only", b, { currency: "USD", amount: 7, customerEmail: "no-ip@example.com" });
  await add("on behalf", sub, { currency: "USD", amount: 8, name: "for the sub-business" });

  const selected = await add("selected, nothing paid", b);
  await sim(b, selected, { action: "select", coin: "BITCOIN" });
  const pending = await add("pending", b);
  await sim(b, pending, { action: "select", coin: "ETHEREUM" });
  await sim(b, pending, { action: "pay", confirmations: 0 });
  const underpaid = await add("underpaid", b, { currency: "USD", amount: 100 });
  await sim(b, underpaid, { action: "select", coin: "LITECOIN" });
  const quote = (await sim(b, underpaid, { action: "pay", amount: 0.00001, confirmations: 6 })) as { status: string };
  expect(quote.status).toBe("UNDERPAID");
  const completed = await add("completed", b, { currency: "USD", amount: 250, customerEmail: "c@example.com", customerIp: "192.0.2.9" });
  await sim(b, completed, { action: "select", coin: "MONERO" });
  await sim(b, completed, { action: "pay", confirmations: 1 });
  await sim(b, completed, { action: "confirm" });
  const processing = await add("processing", b, { currency: "USD", amount: 20 });
  await sim(b, processing, { action: "select", coin: "TRON" });
  await sim(b, processing, { action: "pay", confirmations: 1 });
  await db.update(payments).set({ status: "PROCESSING" }).where(eq(payments.id, processing));
  const failed = await add("failed", b);
  await sim(b, failed, { action: "select", coin: "SOLANA" });
  await sim(b, failed, { action: "pay", confirmations: 0 });
  await sim(b, failed, { action: "fail" });
  const contract = await add("contract", b, { currency: "USD", amount: 10, paymentMethods: { CONTRACT_CRYPTO: ["CONTRACT_ERC20_USDC"] } });
  await sim(b, contract, { action: "select", coin: "CONTRACT_ERC20_USDC" });
  await sim(b, contract, { action: "pay", confirmations: 12 });
  await sim(b, contract, { action: "confirm" });
  const contractUnpaid = await add("contract, nothing paid", b, { currency: "USD", amount: 10, paymentMethods: { CONTRACT_CRYPTO: ["CONTRACT_ERC20_ETH"] } });
  await sim(b, contractUnpaid, { action: "select", coin: "CONTRACT_ERC20_ETH" });

  const cancelled = await add("cancelled", b);
  await cancelPayment(db, cancelled);
  const expired = await add("expired", b);
  await sim(b, expired, { action: "select", coin: "ETH_USD_COIN" });
  await db.update(payments).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(payments.id, expired));
  expect(await expirePaymentIfDue(db, expired)).toBe(true);

  // The underpayment threshold on both sides, odd tolerances, dropped and late transfers, and
  // amounts beyond a double's precision (18 decimals).
  const cases: [string, string, string, string, { amount: string; dropped?: boolean; late?: boolean }[]][] = [
    ["just under the threshold", "BITCOIN", "1000", "0.5", [{ amount: "994" }]],
    ["at the threshold", "BITCOIN", "1000", "0.5", [{ amount: "600" }, { amount: "395" }]],
    ["odd tolerance, under", "LITECOIN", "1001", "0.3333", [{ amount: "997" }]],
    ["odd tolerance, at", "LITECOIN", "1001", "0.3333", [{ amount: "998" }]],
    ["full tolerance, nothing", "BITCOIN", "5", "100", [{ amount: "0" }]],
    ["full tolerance, one unit", "BITCOIN", "5", "100", [{ amount: "1" }]],
    ["dropped only", "ETHEREUM", "123456789012345678901", "0", [{ amount: "123456789012345678901", dropped: true }]],
    ["dropped first, then paid", "ETHEREUM", "123456789012345678901", "0", [{ amount: "5", dropped: true }, { amount: "123456789012345678900" }]],
    ["late does not count", "ETH_DAI", "1000000000000000000", "0", [{ amount: "1" }, { amount: "999999999999999999", late: true }]],
    ["overpaid", "TRX_TETHER", "1000000", "0", [{ amount: "1500000" }, { amount: "250001" }]],
  ];
  for (const [label, coin, quoted, tolerance, amounts] of cases) {
    const id = await add(label, b);
    await sim(b, id, { action: "select", coin });
    await chargeWith(id, quoted, tolerance, amounts);
  }
  // A customer with three addresses and a charge with three transfers: the statement's rows
  // repeat the payment nine times, and each address and transfer is listed once.
  const crossed = await add("three addresses × three transfers", b, { currency: "USD", amount: 3, customerEmail: "repeat.buyer@example.com" });
  await sim(b, crossed, { action: "select", coin: "BITCOIN" });
  await chargeWith(crossed, "3000", "0", [{ amount: "1000" }, { amount: "1000", dropped: true }, { amount: "1000" }]);
  // Distinct creation times, a millisecond apart, keep the list's order fixed.
  const base = Date.parse("2026-01-02T03:04:05.006Z");
  for (const [i, id] of [...ids.values()].entries()) {
    await db.update(payments).set({ createdAt: new Date(base + i) }).where(eq(payments.id, id));
  }
  await db.update(payments).set({ netAmountUsd: "9.8765", platformFee: "0.1235" }).where(eq(payments.id, ids.get("rich")!));
});

async function listAll(biz: Biz) {
  const res = await request("GET", `${paymentsPath(biz.businessId)}?PageSize=100`, { key: biz.apiKey });
  expect(res.status).toBe(200);
  return (await json(res)).data;
}

describe("list records written by the database", () => {
  it("covers every status", async () => {
    const data = await listAll(b);
    expect(new Set(data.items.map((p: { status: string }) => p.status))).toEqual(new Set(PAYMENT_STATUSES));
  });

  it("match GET /payments/{id} for every payment, key order included", async () => {
    const data = await listAll(b);
    const parsed = PaymentListSchema.safeParse(data);
    expect(parsed.error?.issues ?? []).toEqual([]);
    const own = [...ids].filter(([label]) => label !== "on behalf").map(([, id]) => id);
    expect(data.items.map((p: { id: string }) => p.id)).toEqual([...ids.values()].reverse());
    expect(new Set(data.items.map((p: { id: string }) => p.id))).toEqual(new Set([...own, ids.get("on behalf")]));
    for (const item of data.items) {
      const res = await request("GET", `${paymentsPath(b.businessId)}/${item.id}`, { key: b.apiKey });
      const fetched = (await json(res)).data;
      const label = [...ids].find(([, id]) => id === item.id)![0];
      expect(JSON.stringify(item), label).toBe(JSON.stringify(fetched));
    }
  });

  it("hold what the cases were built for", async () => {
    const byLabel = new Map((await listAll(b)).items.map((p: { id: string }) => [[...ids].find(([, id]) => id === p.id)![0], p]));
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
    expect(byLabel.get("on behalf")).toHaveProperty("onBehalfOfBusinessId", sub.businessId);
    expect(byLabel.get("bare")).toMatchObject({ name: null, metadata: null, note: null, prePaymentAmount: 0.5 });
    expect(byLabel.get("bare")).toHaveProperty("customer.email", null);
  });

  it("the database's records and the text writer's equal toPaymentRecord's, on this database, key order included", async () => {
    const db = await getDb();
    const all = [...ids.values()].reverse(); // newest first, as all three return them
    const objects = await referenceRecords(db, all);
    expect(objects).toHaveLength(all.length);
    for (const writer of ["sql", "text"] as const) {
      const written = await recordsJson(db, all, writer);
      expect(written).toHaveLength(all.length);
      for (const [i, text] of written.entries()) {
        const label = [...ids].find(([, id]) => id === all[i])![0];
        // Parsed and written again: numbers as numbers (PostgreSQL writes 10.5000 as 10.5, an
        // 18-decimal coin amount with every digit), jsonb's text with its spaces.
        expect(JSON.stringify(JSON.parse(text)), `${writer}: ${label}`).toBe(JSON.stringify(JSON.parse(objects[i])));
      }
    }
  });

  it("the text writer's records hold in another session time zone", async () => {
    const db = await getDb();
    const all = [...ids.values()].reverse();
    const objects = await referenceRecords(db, all);
    const written = await db.transaction(async (tx) => {
      await tx.execute(sql`set local time zone 'Asia/Kolkata'`);
      return recordsJson(tx, all, "text");
    });
    expect(written.map((t) => JSON.stringify(JSON.parse(t)))).toEqual(objects.map((t) => JSON.stringify(JSON.parse(t))));
  });

  it("a sub-business lists its payment as the parent and GET do", async () => {
    const data = await listAll(sub);
    expect(data.items).toHaveLength(1);
    const res = await request("GET", `${paymentsPath(sub.businessId)}/${ids.get("on behalf")}`, { key: sub.apiKey });
    expect(JSON.stringify(data.items[0])).toBe(JSON.stringify((await json(res)).data));
  });
});
