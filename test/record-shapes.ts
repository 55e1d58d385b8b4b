import { expect } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { charges, customerIps, payments, transfers } from "@/db/schema";
import { cancelPayment } from "@/lib/checkout/cancel";
import { expirePaymentIfDue } from "@/lib/payments/expiry";
import { createPayment, json, newBusiness, paymentsPath, request } from "./helpers";

/*
 * Payments in every shape a Payment record takes, made through the API and the simulator as a
 * merchant's would be: every status, no customer or one with several IP addresses, both charge
 * kinds, coins with and without a network and with 6 to 18 decimals, dropped, late and several
 * transfers, the underpayment threshold on both sides with odd tolerances, a settled payment, a
 * sub-business's payment, text needing escapes. Labels name the shapes; `ids` keeps them in
 * creation order, one millisecond apart, so a list's order is fixed (newest first: reversed).
 */

export type Biz = Awaited<ReturnType<typeof newBusiness>>;
export type Shapes = { b: Biz; sub: Biz; ids: Map<string, string> };

/** The label of a payment id. */
export const labelOf = (s: Shapes, id: string) => [...s.ids].find(([, i]) => i === id)![0];

async function sim(b: Biz, id: string, body: unknown) {
  const res = await request("POST", `${paymentsPath(b.businessId)}/${id}/simulate`, { key: b.apiKey, body });
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
  return (await json(res)).data;
}

type Paid = { amount: string; dropped?: boolean; late?: boolean; /** Outputs of one transaction share `tx`: `hash:vout` each, one block. */ tx?: number };

/** A charge with a given quote and tolerance, and transfers inserted as a chain watcher would. */
async function chargeWith(id: string, quotedUnits: string, tolerancePercent: string, amounts: Paid[]) {
  const db = await getDb();
  await db.update(charges).set({ quotedUnits, tolerancePercent }).where(eq(charges.paymentId, id));
  const [charge] = await db.select().from(charges).where(eq(charges.paymentId, id));
  const now = new Date();
  for (const [i, t] of amounts.entries()) {
    const n = t.tx ?? i;
    await db.insert(transfers).values({
      paymentId: id,
      txId: t.tx === undefined ? `tx-${id.slice(0, 8)}-${i}` : `tx-${id.slice(0, 8)}-${n}:${i}`,
      amount: t.amount,
      confirmations: n,
      blockNumber: n % 2 ? null : String(1000 + n),
      fromAddress: n % 2 ? `from-${n}` : null,
      toAddress: charge.address,
      dropped: t.dropped ?? false,
      late: t.late ?? false,
      seenAt: now,
      updatedAt: now,
    });
  }
}

export async function makeRecordShapes(): Promise<Shapes> {
  const db = await getDb();
  // The coins the shapes below are paid in: a coin of each network and a contract charge of each kind.
  const enabledCoins = ["BITCOIN", "ETHEREUM", "LITECOIN", "MONERO", "TRON", "SOLANA", "ETH_USD_COIN", "ETH_DAI", "TRX_TETHER", "CONTRACT_ERC20_USDC", "CONTRACT_ERC20_ETH"] as const;
  const b = await newBusiness({ feePercent: 2.5, enabledCoins: [...enabledCoins] });
  const sub = await newBusiness({ parentBusinessId: b.businessId });
  const ids = new Map<string, string>();
  const add = async (label: string, biz: Biz, body: Record<string, unknown> = { currency: "USD", amount: 10 }) => {
    const { id } = await createPayment(biz, body);
    ids.set(label, id);
    return id;
  };

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
  const repeat = await add("repeat customer", b, { currency: "USD", amount: 5, customerEmail: "repeat.buyer@example.com", customerIp: "198.51.100.1" });
  await add("repeat customer 2", b, { currency: "USD", amount: 6, customerEmail: "REPEAT.BUYER@example.com", customerIp: "2001:db8::1" });
  // This business's customer's address: on PostgreSQL other test files share the tables.
  const [{ customerId }] = await db.select({ customerId: payments.customerId }).from(payments).where(eq(payments.id, repeat));
  const [ip] = await db.select().from(customerIps).where(and(eq(customerIps.customerId, customerId), eq(customerIps.ip, "198.51.100.1")));
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
  const cases: [string, string, string, string, Paid[]][] = [
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
    // Two outputs of one transaction, a transfer of another, then a third output of the first
    // (recorded later) and a dropped one: two transactions, the first paying 0.7 + 0.05 of it.
    [
      "one transaction, several outputs",
      "LITECOIN",
      "100000000",
      "0",
      [{ amount: "30000000", tx: 7 }, { amount: "40000000", tx: 7 }, { amount: "25000000", tx: 8 }, { amount: "5000000", tx: 7 }, { amount: "1", tx: 9, dropped: true }],
    ],
  ];
  for (const [label, coin, quoted, tolerance, amounts] of cases) {
    const id = await add(label, b);
    await sim(b, id, { action: "select", coin });
    await chargeWith(id, quoted, tolerance, amounts);
  }
  // A customer with three addresses and a charge with three transfers: the details statement's
  // rows repeat the payment nine times, and each address and transfer is listed once.
  const crossed = await add("three addresses × three transfers", b, { currency: "USD", amount: 3, customerEmail: "repeat.buyer@example.com" });
  await sim(b, crossed, { action: "select", coin: "BITCOIN" });
  await chargeWith(crossed, "3000", "0", [{ amount: "1000" }, { amount: "1000", dropped: true }, { amount: "1000" }]);
  // Distinct creation times, a millisecond apart, keep the list's order fixed.
  const base = Date.parse("2026-01-02T03:04:05.006Z");
  for (const [i, id] of [...ids.values()].entries()) {
    await db.update(payments).set({ createdAt: new Date(base + i) }).where(eq(payments.id, id));
  }
  await db.update(payments).set({ netAmountUsd: "9.8765", platformFee: "0.1235" }).where(eq(payments.id, ids.get("rich")!));
  return { b, sub, ids };
}
