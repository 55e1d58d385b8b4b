import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { claimDueDeliveries } from "@/db/queries/webhooks";
import { deliverDue } from "@/lib/webhooks/deliver";
import { createPayment, newBusiness } from "../helpers";
import { attemptsOf, deliveriesOf, deliveryById, drain, manualClock, oneWebhookFileAtATime, receivers } from "./support";

/**
 * Design §2: the outbox is the durable state. A worker that dies holding a claim loses nothing
 * (the lease runs out and another worker takes the row), and workers running at once never send
 * one message twice.
 */
oneWebhookFileAtATime();
const receiver = receivers();

describe("webhook delivery under crashes and concurrency", () => {
  it("a delivery claimed by a worker that died is delivered by another once the 60 s lease has passed", async () => {
    const db = await getDb();
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url });
    const { id } = await createPayment(b);
    const [d] = await deliveriesOf(id);
    const t = manualClock(d.nextAttemptAt!.getTime());

    // The "dead" worker: claims what is due, then never attempts or finishes anything.
    const claimed = await db.transaction((tx) => claimDueDeliveries(tx, t.clock(), 1000, 60_000));
    expect(claimed.map((c) => c.id)).toContain(d.id);
    expect((await deliveryById(d.id)).lockedUntil!.getTime()).toBe(t.now() + 60_000);

    // While the lease holds, nobody else takes it.
    await drain(t.clock);
    t.advance(59_999);
    await drain(t.clock);
    expect(r.hitsFor(d.messageId)).toHaveLength(0);
    expect(await deliveryById(d.id)).toMatchObject({ status: "pending", attempts: 0 });

    // Lease over: the next pass delivers it, once.
    t.advance(1);
    await drain(t.clock);
    expect(r.hitsFor(d.messageId)).toHaveLength(1);
    expect(await deliveryById(d.id)).toMatchObject({ status: "succeeded", attempts: 1, lockedUntil: null });
    expect(await attemptsOf(d.id)).toHaveLength(1);
  });

  it("a worker that died mid-schedule: the retry is not lost either", async () => {
    const db = await getDb();
    const r = await receiver({ answer: (_h, n) => (n === 1 ? "fail" : "ok") });
    const b = await newBusiness({ webhookUrl: r.url });
    const { id } = await createPayment(b);
    const [d] = await deliveriesOf(id);
    const t = manualClock(d.nextAttemptAt!.getTime());
    await drain(t.clock);
    t.advance(5_000);
    await db.transaction((tx) => claimDueDeliveries(tx, t.clock(), 1000, 60_000)); // and dies
    await drain(t.clock);
    expect(r.hitsFor(d.messageId)).toHaveLength(1);
    t.advance(60_000);
    await drain(t.clock);
    expect(r.hitsFor(d.messageId)).toHaveLength(2);
    expect(await deliveryById(d.id)).toMatchObject({ status: "succeeded", attempts: 2 });
  });

  it("several deliverDue running at once never deliver a message twice", async () => {
    const db = await getDb();
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url });
    const payments = await Promise.all(Array.from({ length: 12 }, () => createPayment(b)));
    const deliveries = (await Promise.all(payments.map((p) => deliveriesOf(p.id)))).flat();
    expect(deliveries).toHaveLength(12);

    for (let round = 0; round < 3; round++) {
      // Small batches, many workers: claims interleave with each other and with attempts.
      await Promise.all(Array.from({ length: 8 }, () => deliverDue(db, undefined, 2)));
    }
    await drain();
    for (const d of deliveries) {
      expect(r.hitsFor(d.messageId), d.messageId).toHaveLength(1);
      expect(await deliveryById(d.id)).toMatchObject({ status: "succeeded", attempts: 1 });
    }
    const attempts = await attemptsOf(...deliveries.map((d) => d.id));
    expect(attempts).toHaveLength(12);
  });

  it("concurrent workers on failing deliveries: one attempt per due time, whatever the number of workers", async () => {
    const db = await getDb();
    const r = await receiver({ answer: "fail" });
    const b = await newBusiness({ webhookUrl: r.url });
    const payments = await Promise.all(Array.from({ length: 5 }, () => createPayment(b)));
    const deliveries = (await Promise.all(payments.map((p) => deliveriesOf(p.id)))).flat();
    const t = manualClock(Math.max(...deliveries.map((d) => d.nextAttemptAt!.getTime())));
    for (const step of [0, 5_000, 300_000]) {
      t.advance(step);
      await Promise.all(Array.from({ length: 6 }, () => deliverDue(db, t.clock, 3)));
      // Then whatever is still due at this time. With DATABASE_URL other files' due deliveries
      // share the table and may have taken the racing workers' claims; a second attempt of one
      // of ours at the same time would show as a fourth hit below.
      await drain(t.clock);
    }
    for (const d of deliveries) {
      expect(r.hitsFor(d.messageId)).toHaveLength(3);
      expect((await deliveryById(d.id)).attempts).toBe(3);
    }
  });
});
