import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { InngestTestEngine, mockCtx } from "@inngest/test";
import { getDb } from "@/db/client";
import { claimDelivery, listAttempts, listDeliveries } from "@/db/queries/webhooks";
import { webhookDeliveries } from "@/db/schema";
import { DELIVERY_RETRIES, deliverWebhook } from "@/inngest/functions/deliver-webhook";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "@/lib/webhooks/deliver";
import { createPayment, newBusiness } from "../helpers";
import { executeOnce } from "./engine";
import { oneDeliveringFileAtATime, startReceiver, type Receiver } from "./support";

// A shared PostgreSQL: take turns with the other files that deliver webhooks.
oneDeliveringFileAtATime();

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

/** A fresh engine per run: an engine memoizes step results across its executions, like one Inngest run. */
const fresh = () => new InngestTestEngine({ function: deliverWebhook });
const eventFor = (deliveryId: number) => ({ events: [{ name: "webhook/delivery.created", data: { deliveryId } }] as [any] });

/** A fresh payment of a business whose webhook URL is the local receiver: its PAYMENT_CREATED delivery. */
async function newDelivery() {
  const db = await getDb();
  const b = await newBusiness({ webhookUrl: rx.url });
  const { id } = await createPayment(b);
  const { rows } = await listDeliveries(db, b.businessId, { paymentId: id, limit: 10, offset: 0 });
  expect(rows).toHaveLength(1);
  return rows[0];
}

async function deliveryRow(id: number) {
  const db = await getDb();
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
}

describe("deliver-webhook (Inngest function)", () => {
  it("is configured for D5: one trigger, enough retries for every scheduled attempt", () => {
    expect(deliverWebhook.opts.triggers?.map((x) => x.event)).toEqual(["webhook/delivery.created"]);
    expect(deliverWebhook.opts.retries).toBe(DELIVERY_RETRIES);
    expect(DELIVERY_RETRIES).toBeGreaterThanOrEqual(MAX_ATTEMPTS - 1);
    expect(DELIVERY_RETRIES).toBeLessThanOrEqual(20);
  });

  it("delivers to a 2xx endpoint: the delivery succeeds with one recorded attempt", async () => {
    rx.setAnswer("ok");
    const d = await newDelivery();
    const before = rx.hits.length;
    const { result, error } = await fresh().execute(eventFor(d.id));
    expect(error).toBeUndefined();
    expect(result).toEqual({ deliveryId: d.id, outcome: "succeeded", attempts: 1, statusCode: 200 });
    expect(rx.hits.length).toBe(before + 1);
    const got = rx.hits.at(-1)!;
    expect(got.headers["webhook-id"]).toBe(d.messageId);
    expect(got.body).toBe(d.body);
    const row = await deliveryRow(d.id);
    expect(row).toMatchObject({ status: "succeeded", attempts: 1, lastStatusCode: 200, nextAttemptAt: null });
    const attempts = await listAttempts(await getDb(), d.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ succeeded: true, statusCode: 200 });
  });

  it("a 500 throws RetryAfterError at the D5 schedule's next time, and every attempt is recorded", async () => {
    rx.setAnswer("fail");
    const d = await newDelivery();
    const db = await getDb();

    // Attempt 1 fails → retry 5 s after it.
    const first = await executeOnce(fresh(), eventFor(d.id));
    expect(first.type).toBe("step-ran");
    expect(first.step?.op).toBe("StepError"); // retriable, not final
    expect(first.step?.error?.name).toBe("RetryAfterError");
    let attempts = await listAttempts(db, d.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ succeeded: false, statusCode: 500 });
    expect(first.retriable).toBe(new Date(attempts[0].attemptedAt.getTime() + RETRY_DELAYS_MS[0]).toISOString());
    let row = await deliveryRow(d.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });
    expect(row.nextAttemptAt!.toISOString()).toBe(first.retriable);

    // Inngest wakes the run early (or twice): no attempt, the same time again.
    const early = await executeOnce(fresh(), eventFor(d.id));
    expect(early.retriable).toBe(first.retriable);
    expect(await listAttempts(db, d.id)).toHaveLength(1);

    // At the scheduled time, attempt 2 fails → retry 5 min after it.
    await db.update(webhookDeliveries).set({ nextAttemptAt: new Date() }).where(eq(webhookDeliveries.id, d.id));
    const second = await executeOnce(fresh(), eventFor(d.id));
    attempts = await listAttempts(db, d.id);
    expect(attempts).toHaveLength(2);
    expect(second.retriable).toBe(new Date(attempts[1].attemptedAt.getTime() + RETRY_DELAYS_MS[1]).toISOString());

    // The last attempt fails → the delivery is failed and the run ends without another retry.
    await db
      .update(webhookDeliveries)
      .set({ attempts: MAX_ATTEMPTS - 1, nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, d.id));
    const { result, error } = await fresh().execute(eventFor(d.id));
    expect(error).toBeUndefined();
    expect(result).toEqual({ deliveryId: d.id, outcome: "failed", attempts: MAX_ATTEMPTS, statusCode: 500 });
    expect(await deliveryRow(d.id)).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, nextAttemptAt: null });
    expect(await listAttempts(db, d.id)).toHaveLength(3);
  });

  it("a delivery already succeeded (or failed) elsewhere: done, no new attempt", async () => {
    rx.setAnswer("ok");
    const d = await newDelivery();
    await fresh().execute(eventFor(d.id));
    const before = rx.hits.length;
    const { result, error } = await fresh().execute(eventFor(d.id));
    expect(error).toBeUndefined();
    expect(result).toEqual({ deliveryId: d.id, outcome: "succeeded" });
    expect(rx.hits.length).toBe(before);
    expect(await listAttempts(await getDb(), d.id)).toHaveLength(1);
  });

  it("a delivery claimed by another worker: no attempt, look again when its lease ends", async () => {
    rx.setAnswer("ok");
    const d = await newDelivery();
    const db = await getDb();
    const claimed = await db.transaction((tx) => claimDelivery(tx, d.id, new Date(), 60_000));
    const out = await executeOnce(fresh(), eventFor(d.id));
    expect(out.step?.error?.name).toBe("RetryAfterError");
    expect(out.retriable).toBe(claimed!.lockedUntil!.toISOString());
    expect(await listAttempts(db, d.id)).toHaveLength(0);
  });

  it("a delivery not visible yet is retried shortly, then given up as rolled back", async () => {
    const missing = 2_000_000_000;
    const soon = await executeOnce(fresh(), eventFor(missing));
    expect(soon.step?.error?.name).toBe("RetryAfterError");
    expect(soon.retriable).toBe("2"); // seconds
    const late = new InngestTestEngine({ function: deliverWebhook, transformCtx: (ctx) => ({ ...mockCtx(ctx), attempt: 3 }) });
    const { result, error } = await late.execute(eventFor(missing));
    expect(error).toBeUndefined();
    expect(result).toEqual({ deliveryId: missing, outcome: "missing" });
  });
});
