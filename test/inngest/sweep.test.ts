import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { InngestTestEngine } from "@inngest/test";
import { getDb } from "@/db/client";
import { listAttempts, listDeliveries } from "@/db/queries/webhooks";
import { payments } from "@/db/schema";
import { sweep } from "@/inngest/functions/sweep";
import { checkoutView } from "@/lib/checkout/view";
import { createPayment, newBusiness } from "../helpers";
import { oneDeliveringFileAtATime, startReceiver } from "./support";

// A shared PostgreSQL: take turns with the other files that deliver webhooks.
oneDeliveringFileAtATime();

let rx: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

describe("sweep (Inngest cron function)", () => {
  it("runs every minute", () => {
    expect(sweep.opts.triggers).toEqual([{ cron: "* * * * *" }]);
  });

  it("expires what is due and delivers what is due", async () => {
    const db = await getDb();
    const b = await newBusiness({ webhookUrl: rx.url });
    const due = await createPayment(b);
    const notDue = await createPayment(b);
    // Arrange: the first payment's lifetime is over (as if its payment/created event was lost).
    await db.update(payments).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(payments.id, due.id));

    const { result, error } = await new InngestTestEngine({ function: sweep }).execute({
      events: [{ name: "inngest/scheduled.timer", data: { cron: "* * * * *" } }],
    });
    expect(error).toBeUndefined();
    const { expired, attempted } = result as { expired: number; attempted: number };
    expect(expired).toBeGreaterThanOrEqual(1); // a shared database may hold other tests' due payments
    expect(attempted).toBeGreaterThanOrEqual(3);

    expect((await checkoutView(db, due.id))!.status).toBe("EXPIRED");
    expect((await checkoutView(db, notDue.id))!.status).toBe("AWAITING_PAYMENT");
    // Expiry runs first, so its PAYMENT_EXPIRED row is delivered by the same sweep.
    const after = (await listDeliveries(db, b.businessId, { limit: 10, offset: 0 })).rows;
    expect(after.map((r) => [r.paymentId, r.eventType, r.status]).sort()).toEqual(
      [
        [due.id, "PAYMENT_CREATED", "succeeded"],
        [due.id, "PAYMENT_EXPIRED", "succeeded"],
        [notDue.id, "PAYMENT_CREATED", "succeeded"],
      ].sort(),
    );
    for (const r of after) expect(await listAttempts(db, r.id)).toHaveLength(1);
    expect(rx.hits).toHaveLength(3);
  });
});
