import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { simulate } from "@/lib/checkout/simulator";
import { cancelPayment } from "@/lib/checkout/cancel";
import { checkoutView } from "@/lib/checkout/view";
import { expireDuePayments } from "@/lib/payments/expiry";
import { createPayment, newBusiness } from "../helpers";

describe("payment lifecycle through the simulated chain", () => {
  it("select, pay in full, confirm → PENDING, PROCESSING, COMPLETED with settlement", async () => {
    const db = await getDb();
    const b = await newBusiness({ feePercent: 1 });
    const { id } = await createPayment(b, { currency: "USD", amount: 100 });
    let p = await simulate(db, id, { action: "select", coin: "BITCOIN" });
    expect(p.selectedCoin).toBe("BITCOIN");
    const view = await checkoutView(db, id);
    expect(view!.charge!.address).toMatch(/^bc1q/);
    p = await simulate(db, id, { action: "pay" });
    expect(p.status).toBe("PENDING");
    p = await simulate(db, id, { action: "confirm" });
    expect(p.status).toBe("COMPLETED");
    expect(p.timeline.map((t) => t.paymentStatus)).toEqual(["AWAITING_PAYMENT", "PENDING", "PROCESSING", "COMPLETED"]);
    expect(Number(p.endAmount)).toBeGreaterThanOrEqual(100);
    expect(Number(p.platformFee)).toBeCloseTo(Number(p.endAmount) / 100, 2);
  });

  it("underpaid then topped up", async () => {
    const db = await getDb();
    const b = await newBusiness();
    const { id } = await createPayment(b, { currency: "EUR", amount: 50 });
    await simulate(db, id, { action: "select", coin: "ETHEREUM" });
    const v = await checkoutView(db, id);
    const half = Number(v!.charge!.amount) / 2;
    let p = await simulate(db, id, { action: "pay", amount: half, confirmations: 12 });
    expect(p.status).toBe("UNDERPAID");
    p = await simulate(db, id, { action: "pay" });
    expect(p.status).toBe("PENDING");
    p = await simulate(db, id, { action: "confirm" });
    expect(p.status).toBe("COMPLETED");
  });

  it("cancel and expiry", async () => {
    const db = await getDb();
    const b = await newBusiness({ paymentLifetimeSeconds: 5 });
    const one = await createPayment(b);
    expect((await cancelPayment(db, one.id)).status).toBe("CANCELLED");
    const two = await createPayment(b);
    expect(await expireDuePayments(db, new Date(Date.now() + 6000))).toBeGreaterThanOrEqual(1);
    expect((await checkoutView(db, two.id))!.status).toBe("EXPIRED");
  });
});
