import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { transfers } from "@/db/schema";
import { cancelPayment } from "@/lib/checkout/cancel";
import { expireDuePayments } from "@/lib/payments/expiry";
import { PaymentSchema } from "@/lib/payments/schemas";
import { createPayment, json, newBusiness, request } from "../helpers";

type Biz = Awaited<ReturnType<typeof newBusiness>>;

async function sim(b: Biz, id: string, body: unknown) {
  const res = await request("POST", `/v1/businesses/${b.businessId}/payments/${id}/simulate`, { key: b.apiKey, body });
  return { status: res.status, body: await json(res) };
}

describe("POST …/simulate (test-mode chain)", () => {
  it("drives a payment to COMPLETED and fetch shows the charge, transactions and settlement", async () => {
    const b = await newBusiness({ feePercent: 2.5 });
    const { id } = await createPayment(b, { currency: "USD", amount: 250 });
    const selected = await sim(b, id, { action: "select", coin: "LITECOIN" });
    expect(selected.status).toBe(200);
    expect(selected.body.data.selectedPaymentMethod).toBe("PLATFORM_CRYPTO");
    const charge = selected.body.data.platformCryptoCharge;
    expect(charge.coinName).toBe("LITECOIN");
    expect(charge.address).toMatch(/^ltc1q/);
    expect(charge.isUnderpaid).toBe(false);
    expect(charge.transactions).toEqual([]);

    const paid = await sim(b, id, { action: "pay", confirmations: 1 });
    expect(paid.body.data.status).toBe("PENDING");
    expect(paid.body.data.platformCryptoCharge.transaction).toMatchObject({
      amount: charge.amount,
      toAddress: charge.address,
      confirmations: 1,
      network: "LTC",
      tokenName: "LITECOIN",
    });
    const done = await sim(b, id, { action: "confirm" });
    const p = done.body.data;
    expect(p.status).toBe("COMPLETED");
    expect(PaymentSchema.safeParse(p).success).toBe(true);
    expect(p.timeline.map((t: { paymentStatus: string }) => t.paymentStatus)).toEqual([
      "AWAITING_PAYMENT",
      "PENDING",
      "PROCESSING",
      "COMPLETED",
    ]);
    // Paid exactly the quote (rounded up to a whole litoshi), so the value received is at least the price.
    expect(p.endAmount).toBeGreaterThanOrEqual(250);
    expect(p.endAmount).toBeLessThan(250.01);
    expect(p.platformFee).toBeCloseTo(p.endAmount * 0.025, 2);
    expect(p.netAmountUsd).toBeCloseTo(p.endAmount - p.platformFee, 2);
  });

  it("a CONTRACT_* coin shows contractCharge with a single transaction", async () => {
    const b = await newBusiness({ enabledCoins: ["BITCOIN", "CONTRACT_ERC20_USDC"] });
    const { id } = await createPayment(b, { currency: "USD", amount: 10, paymentMethods: { CONTRACT_CRYPTO: ["CONTRACT_ERC20_USDC"] } });
    await sim(b, id, { action: "select", coin: "CONTRACT_ERC20_USDC" });
    const paid = await sim(b, id, { action: "pay", confirmations: 12 });
    const p = paid.body.data;
    expect(p.status).toBe("COMPLETED");
    expect(p.selectedPaymentMethod).toBe("CONTRACT_CRYPTO");
    expect(p.platformCryptoCharge).toBeUndefined();
    expect(p.contractCharge.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(p.contractCharge.amount).toBe(10);
    expect(p.contractCharge.transactions).toBeUndefined();
    expect(p.contractCharge.transaction.network).toBe("ETHEREUM");
  });

  it("underpayment shows isUnderpaid, a top-up completes it", async () => {
    const b = await newBusiness({ enabledCoins: ["BITCOIN", "TRON"] });
    const { id } = await createPayment(b, { currency: "USD", amount: 100 });
    const sel = await sim(b, id, { action: "select", coin: "TRON" });
    const quote = sel.body.data.platformCryptoCharge.amount;
    const under = await sim(b, id, { action: "pay", amount: 1, confirmations: 19 });
    expect(under.body.data.status).toBe("UNDERPAID");
    expect(under.body.data.platformCryptoCharge.isUnderpaid).toBe(true);
    expect(under.body.data.platformCryptoCharge.address).toMatch(/^T/);
    const top = await sim(b, id, { action: "pay" });
    expect(top.body.data.status).toBe("PENDING");
    const tx = top.body.data.platformCryptoCharge.transactions;
    expect(tx).toHaveLength(2);
    expect(tx[0].amount + tx[1].amount).toBeCloseTo(quote, 6);
    expect((await sim(b, id, { action: "confirm" })).body.data.status).toBe("COMPLETED");
  });

  it("fail drops the transfers → FAILED", async () => {
    const b = await newBusiness();
    const { id } = await createPayment(b);
    await sim(b, id, { action: "select", coin: "BITCOIN" });
    await sim(b, id, { action: "pay" });
    const failed = await sim(b, id, { action: "fail" });
    expect(failed.body.data.status).toBe("FAILED");
    expect(failed.body.data.platformCryptoCharge.transactions).toEqual([]);
  });

  it("a late transfer after expiry is recorded without a status change", async () => {
    const db = await getDb();
    const b = await newBusiness({ paymentLifetimeSeconds: 5 });
    const { id } = await createPayment(b);
    await sim(b, id, { action: "select", coin: "BITCOIN" });
    await expireDuePayments(db, new Date(Date.now() + 10_000));
    const late = await sim(b, id, { action: "pay", confirmations: 3 });
    expect(late.status).toBe(200);
    expect(late.body.data.status).toBe("EXPIRED");
    expect(late.body.data.platformCryptoCharge.transactions).toHaveLength(1);
    expect(late.body.data.timeline.map((t: { paymentStatus: string }) => t.paymentStatus)).toEqual([
      "AWAITING_PAYMENT",
      "EXPIRED",
    ]);
  });

  it("refuses what the state forbids: 409 for confirm before pay and select after a transfer, 400 for a coin not offered", async () => {
    const b = await newBusiness({ enabledCoins: ["BITCOIN", "ETHEREUM"] });
    const { id } = await createPayment(b);
    expect((await sim(b, id, { action: "pay" })).status).toBe(409);
    const notOffered = await sim(b, id, { action: "select", coin: "LITECOIN" });
    expect(notOffered.status).toBe(400);
    expect(notOffered.body.errors.coin).toBeDefined();
    await sim(b, id, { action: "select", coin: "BITCOIN" });
    expect((await sim(b, id, { action: "confirm" })).status).toBe(409);
    // Re-selection is allowed while nothing is paid.
    expect((await sim(b, id, { action: "select", coin: "ETHEREUM" })).status).toBe(200);
    await sim(b, id, { action: "pay" });
    expect((await sim(b, id, { action: "select", coin: "BITCOIN" })).status).toBe(409);
    expect((await sim(b, id, { action: "jump" })).status).toBe(400);
  });

  it("is 404 for live businesses and for another business's payment", async () => {
    const live = await newBusiness({ mode: "live" });
    const { id } = await createPayment(live);
    expect((await sim(live, id, { action: "select", coin: "BITCOIN" })).status).toBe(404);
    const a = await newBusiness();
    const other = await newBusiness();
    const p = await createPayment(other);
    expect((await sim(a, p.id, { action: "select", coin: "BITCOIN" })).status).toBe(404);
  });

  it("expiry racing a payment leaves exactly one outcome", async () => {
    const db = await getDb();
    const b = await newBusiness({ paymentLifetimeSeconds: 5 });
    for (let i = 0; i < 5; i++) {
      const { id } = await createPayment(b);
      await sim(b, id, { action: "select", coin: "BITCOIN" });
      const [, paid, cancelled] = await Promise.allSettled([
        expireDuePayments(db, new Date(Date.now() + 10_000)),
        sim(b, id, { action: "pay", confirmations: 1 }),
        cancelPayment(db, id),
      ]);
      const res = await request("GET", `/v1/businesses/${b.businessId}/payments/${id}`, { key: b.apiKey });
      const p = (await json(res)).data;
      const statuses = p.timeline.map((t: { paymentStatus: string }) => t.paymentStatus);
      // One terminal or settled outcome, reached once, and the timeline ends where the status is.
      expect(statuses.at(-1)).toBe(p.status);
      expect(["EXPIRED", "CANCELLED", "COMPLETED"]).toContain(p.status);
      expect(statuses.filter((s: string) => ["EXPIRED", "CANCELLED", "COMPLETED"].includes(s))).toHaveLength(1);
      // The losers were refused, not half-applied: the cancel succeeded exactly when the payment is
      // CANCELLED; and a payment that ended EXPIRED or CANCELLED holds no transfer that arrived in
      // time (one seen before the end settles the payment in the same transaction).
      expect(cancelled.status === "fulfilled").toBe(p.status === "CANCELLED");
      expect(paid.status).toBe("fulfilled");
      const onTime = await db.select().from(transfers).where(and(eq(transfers.paymentId, id), eq(transfers.late, false)));
      expect(onTime.length > 0).toBe(p.status === "COMPLETED");
    }
  });
});
