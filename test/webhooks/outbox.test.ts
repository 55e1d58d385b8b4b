import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { paymentEvents, payments } from "@/db/schema";
import { cancelPayment } from "@/lib/checkout/cancel";
import { expireDuePayments, expirePaymentIfDue } from "@/lib/payments/expiry";
import { transition, transitionMany } from "@/lib/payments/state-machine";
import { createPayment, newBusiness } from "../helpers";
import { deliveriesOf, oneWebhookFileAtATime, sim } from "./support";

/**
 * D5 outbox: every event of a payment writes exactly one delivery row, in the transaction that
 * changed the payment, addressed to notifyUrl, else the business's webhook URL, else nowhere.
 * Nothing is delivered here; the rows are what a worker will send.
 */
oneWebhookFileAtATime();

const HOOK = "http://127.0.0.1:9/business-default";

async function eventsOf(paymentId: string) {
  const db = await getDb();
  return db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, paymentId)).orderBy(asc(paymentEvents.id));
}

/** Exactly one delivery per event, in event order, each with its own stable message id. */
async function expectOneDeliveryPerEvent(paymentId: string, types: string[], url = HOOK) {
  const [events, deliveries] = await Promise.all([eventsOf(paymentId), deliveriesOf(paymentId)]);
  expect(events.map((e) => e.type)).toEqual(types);
  expect(deliveries.map((d) => d.eventType)).toEqual(types);
  expect(deliveries.map((d) => d.eventId)).toEqual(events.map((e) => e.id));
  expect(new Set(deliveries.map((d) => d.messageId)).size).toBe(deliveries.length);
  for (const d of deliveries) {
    expect(d.messageId).toMatch(/^msg_[A-Za-z0-9_-]{16,}$/);
    expect(d.url).toBe(url);
    expect(d.status).toBe("pending");
    expect(d.attempts).toBe(0);
    // Due at the moment of the event: the worker sends it on its next pass.
    expect(d.nextAttemptAt!.getTime()).toBe(events.find((e) => e.id === d.eventId)!.createdAt.getTime());
    expect(JSON.parse(d.body).EventType).toBe(d.eventType);
    expect(JSON.parse(d.body).ForPaymentEvents.Id).toBe(paymentId);
  }
  return deliveries;
}

describe("webhook outbox", () => {
  it("writes PAYMENT_CREATED with the payment, then one delivery per status change up to COMPLETED", async () => {
    const b = await newBusiness({ webhookUrl: HOOK });
    const { id } = await createPayment(b);
    const created = await expectOneDeliveryPerEvent(id, ["PAYMENT_CREATED"]);
    expect(created[0].businessId).toBe(b.businessId);
    expect(JSON.parse(created[0].body).ForPaymentEvents.Status).toBe("AWAITING_PAYMENT");

    await sim(b, id, { action: "select", coin: "BITCOIN" });
    await expectOneDeliveryPerEvent(id, ["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED"]);
    await sim(b, id, { action: "pay" });
    await expectOneDeliveryPerEvent(id, ["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED", "PAYMENT_PENDING"]);
    await sim(b, id, { action: "confirm" });
    const all = await expectOneDeliveryPerEvent(id, [
      "PAYMENT_CREATED",
      "PAYMENT_METHOD_SELECTED",
      "PAYMENT_PENDING",
      "PAYMENT_PROCESSING",
      "PAYMENT_COMPLETED",
    ]);
    // Each body is the payment as it stood at its event.
    expect(all.map((d) => JSON.parse(d.body).ForPaymentEvents.Status)).toEqual([
      "AWAITING_PAYMENT",
      "AWAITING_PAYMENT",
      "PENDING",
      "PROCESSING",
      "COMPLETED",
    ]);
    // A watcher pass that changes nothing writes nothing.
    await expect(sim(b, id, { action: "confirm", confirmations: 1 })).resolves.toMatchObject({ status: "COMPLETED" });
    expect(await deliveriesOf(id)).toHaveLength(5);
  });

  it("cancel → PAYMENT_CANCELLED", async () => {
    const db = await getDb();
    const b = await newBusiness({ webhookUrl: HOOK });
    const { id } = await createPayment(b);
    await cancelPayment(db, id);
    await expectOneDeliveryPerEvent(id, ["PAYMENT_CREATED", "PAYMENT_CANCELLED"]);
  });

  it("expiry → PAYMENT_EXPIRED", async () => {
    const db = await getDb();
    const b = await newBusiness({ webhookUrl: HOOK, paymentLifetimeSeconds: 5 });
    const { id } = await createPayment(b);
    await sim(b, id, { action: "select", coin: "ETHEREUM" });
    expect(await expirePaymentIfDue(db, id, new Date(Date.now() + 10_000))).toBe(true);
    expect(await expirePaymentIfDue(db, id, new Date(Date.now() + 20_000))).toBe(false);
    const d = await expectOneDeliveryPerEvent(id, ["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED", "PAYMENT_EXPIRED"]);
    expect(JSON.parse(d[2].body).ForPaymentEvents.Status).toBe("EXPIRED");
  });

  it("an expiry sweep moves due payments a batch at a time: each once, at its own expiresAt, with its event and delivery", async () => {
    const db = await getDb();
    const b = await newBusiness({ webhookUrl: HOOK, paymentLifetimeSeconds: 60 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createPayment(b)).id);
    const now = Date.now() + 600_000;
    const dueAt = [now - 3000, now - 2000, now - 1000, now + 60_000];
    for (const [i, t] of dueAt.entries()) {
      await db.update(payments).set({ expiresAt: new Date(t) }).where(eq(payments.id, ids[i]));
    }
    await cancelPayment(db, ids[4]);
    // Batches of two: the three due payments take more than one batch.
    expect(await expireDuePayments(db, new Date(now), 2)).toBeGreaterThanOrEqual(3);
    for (const [i, id] of ids.slice(0, 3).entries()) {
      const [row] = await db.select().from(payments).where(eq(payments.id, id));
      expect(row.status).toBe("EXPIRED");
      expect(row.timeline.at(-1)).toEqual({ time: new Date(dueAt[i]).toISOString(), paymentStatus: "EXPIRED" });
      const d = await expectOneDeliveryPerEvent(id, ["PAYMENT_CREATED", "PAYMENT_EXPIRED"]);
      expect(JSON.parse(d[1].body).ForPaymentEvents.Status).toBe("EXPIRED");
    }
    await expectOneDeliveryPerEvent(ids[3], ["PAYMENT_CREATED"]);
    await expectOneDeliveryPerEvent(ids[4], ["PAYMENT_CREATED", "PAYMENT_CANCELLED"]);
    // A second sweep finds nothing of these left to do.
    await expireDuePayments(db, new Date(now), 2);
    await expectOneDeliveryPerEvent(ids[0], ["PAYMENT_CREATED", "PAYMENT_EXPIRED"]);
  });

  it("a batch change skips rows the D3 table forbids or whose status changed meanwhile", async () => {
    const db = await getDb();
    const b = await newBusiness({ webhookUrl: HOOK });
    const [fresh, changed, cancelled] = [await createPayment(b), await createPayment(b), await createPayment(b)];
    await cancelPayment(db, changed.id);
    await cancelPayment(db, cancelled.id);
    const at = new Date();
    const moved = await transitionMany(
      db,
      [
        { payment: { id: fresh.id, status: "AWAITING_PAYMENT" }, at },
        { payment: { id: changed.id, status: "AWAITING_PAYMENT" }, at }, // stale: it is CANCELLED now
        { payment: { id: cancelled.id, status: "CANCELLED" }, at }, // current, but CANCELLED → EXPIRED is not in the table
      ],
      "EXPIRED",
    );
    expect(moved.map((r) => [r.id, r.status])).toEqual([[fresh.id, "EXPIRED"]]);
    await expectOneDeliveryPerEvent(fresh.id, ["PAYMENT_CREATED", "PAYMENT_EXPIRED"]);
    await expectOneDeliveryPerEvent(changed.id, ["PAYMENT_CREATED", "PAYMENT_CANCELLED"]);
    await expectOneDeliveryPerEvent(cancelled.id, ["PAYMENT_CREATED", "PAYMENT_CANCELLED"]);
  });

  it("fail → PAYMENT_FAILED", async () => {
    const b = await newBusiness({ webhookUrl: HOOK });
    const { id } = await createPayment(b);
    await sim(b, id, { action: "select", coin: "BITCOIN" });
    await sim(b, id, { action: "pay" });
    await sim(b, id, { action: "fail" });
    await expectOneDeliveryPerEvent(id, ["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED", "PAYMENT_PENDING", "PAYMENT_FAILED"]);
  });

  it("underpayment → PAYMENT_UNDERPAID, and a top-up continues the sequence", async () => {
    const b = await newBusiness({ webhookUrl: HOOK, enabledCoins: ["TRON"] });
    const { id } = await createPayment(b, { currency: "USD", amount: 100 });
    await sim(b, id, { action: "select", coin: "TRON" });
    await sim(b, id, { action: "pay", amount: 1, confirmations: 19 });
    await expectOneDeliveryPerEvent(id, ["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED", "PAYMENT_UNDERPAID"]);
    await sim(b, id, { action: "pay", confirmations: 19 });
    await expectOneDeliveryPerEvent(id, [
      "PAYMENT_CREATED",
      "PAYMENT_METHOD_SELECTED",
      "PAYMENT_UNDERPAID",
      "PAYMENT_PROCESSING",
      "PAYMENT_COMPLETED",
    ]);
  });

  it("re-selecting a coin is a new PAYMENT_METHOD_SELECTED event", async () => {
    const b = await newBusiness({ webhookUrl: HOOK });
    const { id } = await createPayment(b);
    await sim(b, id, { action: "select", coin: "BITCOIN" });
    await sim(b, id, { action: "select", coin: "LITECOIN" });
    const d = await expectOneDeliveryPerEvent(id, ["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED", "PAYMENT_METHOD_SELECTED"]);
    expect(JSON.parse(d[2].body).ForPaymentEvents.PlatformCryptoCharge.CoinName).toBe("LITECOIN");
  });

  it("notifyUrl overrides the business default, and works without one", async () => {
    const override = "http://127.0.0.1:9/this-payment-only";
    const b = await newBusiness({ webhookUrl: HOOK });
    const { id } = await createPayment(b, { currency: "USD", amount: 10, notifyUrl: override });
    await sim(b, id, { action: "select", coin: "BITCOIN" });
    await expectOneDeliveryPerEvent(id, ["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED"], override);

    const bare = await newBusiness();
    const p = await createPayment(bare, { currency: "USD", amount: 10, notifyUrl: override });
    await expectOneDeliveryPerEvent(p.id, ["PAYMENT_CREATED"], override);
    // The other payments of the business default still go to the default.
    const plain = await createPayment(b);
    await expectOneDeliveryPerEvent(plain.id, ["PAYMENT_CREATED"], HOOK);
  });

  it("no notifyUrl and no business webhook → events are recorded, nothing is delivered", async () => {
    const db = await getDb();
    const b = await newBusiness();
    const { id } = await createPayment(b);
    await sim(b, id, { action: "select", coin: "BITCOIN" });
    await cancelPayment(db, (await createPayment(b)).id);
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED"]);
    expect(await deliveriesOf(id)).toEqual([]);
  });

  it("a status change whose transaction rolls back leaves no event and no delivery", async () => {
    const db = await getDb();
    const b = await newBusiness({ webhookUrl: HOOK });
    const { id } = await createPayment(b);
    const before = await deliveriesOf(id);
    await expect(
      db.transaction(async (tx) => {
        const [row] = await tx.select().from(payments).where(eq(payments.id, id));
        const cancelled = await transition(tx, row, "CANCELLED");
        expect(cancelled.status).toBe("CANCELLED");
        // Inside the transaction the outbox row exists…
        expect((await tx.select().from(paymentEvents).where(eq(paymentEvents.paymentId, id))).map((e) => e.type)).toContain(
          "PAYMENT_CANCELLED",
        );
        throw new Error("something later in the same unit of work failed");
      }),
    ).rejects.toThrow("something later");
    // …and after the rollback neither it nor the status change is there.
    await expectOneDeliveryPerEvent(id, ["PAYMENT_CREATED"]);
    expect((await deliveriesOf(id)).map((d) => d.id)).toEqual(before.map((d) => d.id));
    const [row] = await db.select().from(payments).where(eq(payments.id, id));
    expect(row.status).toBe("AWAITING_PAYMENT");
  });

  it("a refused transition writes nothing", async () => {
    const db = await getDb();
    const b = await newBusiness({ webhookUrl: HOOK });
    const { id } = await createPayment(b);
    await cancelPayment(db, id);
    await expect(cancelPayment(db, id)).rejects.toThrow();
    await expectOneDeliveryPerEvent(id, ["PAYMENT_CREATED", "PAYMENT_CANCELLED"]);
  });

  it("a transition whose row changed meanwhile (a stale `from`) is refused and writes nothing", async () => {
    const db = await getDb();
    const b = await newBusiness({ webhookUrl: HOOK });
    const { id } = await createPayment(b);
    await cancelPayment(db, id);
    // The caller still believes the payment awaits payment: the table allows AWAITING → EXPIRED,
    // so only the conditional UPDATE can refuse it, and its event must not be written either
    // (outside a transaction: no rollback would hide a stray event row).
    await expect(transition(db, { id, status: "AWAITING_PAYMENT" }, "EXPIRED")).rejects.toThrow(
      /no longer AWAITING_PAYMENT/,
    );
    await expectOneDeliveryPerEvent(id, ["PAYMENT_CREATED", "PAYMENT_CANCELLED"]);
    const [row] = await db.select().from(payments).where(eq(payments.id, id));
    expect(row.status).toBe("CANCELLED");
  });
});
