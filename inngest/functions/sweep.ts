import { getDb } from "@/db/client";
import { expireDuePayments } from "@/lib/payments/expiry";
import { deliverDue } from "@/lib/webhooks/deliver";
import { sendConfiguredEmails } from "@/lib/emails/send";
import { inngest } from "@/lib/background/inngest-client";

const DELIVERY_BATCH = 100;
/** Bounds one sweep's work; whatever is left is due again on the next minute. */
const MAX_DELIVERY_BATCHES = 20;

/**
 * The safety net (design §2): every minute, expire what is due, deliver what is due and send the
 * customer e-mails that are due, with the same idempotent service functions the embedded runner
 * calls. It catches anything an event
 * missed: a send that failed, a run that ran out of retries, a payment whose expiry run was
 * cancelled before it became UNDERPAID again.
 */
export const sweep = inngest.createFunction(
  {
    id: "sweep-due-work",
    name: "Sweep: expire and deliver what is due",
    triggers: [{ cron: "* * * * *" }],
    // Sweeps never overlap; the service functions would tolerate it, but it only adds contention.
    concurrency: 1,
  },
  async ({ step }) => {
    const expired = await step.run("expire-due-payments", async () => expireDuePayments(await getDb(), new Date()));
    const attempted = await step.run("deliver-due-webhooks", async () => {
      const db = await getDb();
      let total = 0;
      for (let i = 0; i < MAX_DELIVERY_BATCHES; i++) {
        const n = await deliverDue(db, undefined, DELIVERY_BATCH);
        total += n;
        if (n < DELIVERY_BATCH) break;
      }
      return total;
    });
    // Customer e-mails have no event of their own: the sweep sends them, within a minute of their status change.
    const emailed = await step.run("send-due-customer-emails", async () => {
      const db = await getDb();
      let total = 0;
      for (let i = 0; i < MAX_DELIVERY_BATCHES; i++) {
        const n = await sendConfiguredEmails(db, 20);
        total += n;
        if (n < 20) break;
      }
      return total;
    });
    return { expired, attempted, emailed };
  },
);
