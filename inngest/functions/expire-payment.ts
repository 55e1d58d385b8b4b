import { getDb } from "@/db/client";
import { expirePaymentIfDue } from "@/lib/payments/expiry";
import { inngest, paymentCreated, paymentSettled } from "@/lib/background/inngest-client";

/**
 * D2 with Inngest: one run per payment sleeps until `expiresAt`, then expires the payment if it is
 * still awaiting (or underpaid). A `payment/settled` event for the same payment cancels the
 * sleeping run; a run that is not cancelled in time is harmless, because the service only
 * expires a payment that is still expirable. The cron sweep catches any payment whose event was
 * lost.
 */
export const expirePayment = inngest.createFunction(
  {
    id: "expire-payment",
    name: "Expire a payment when it is due",
    triggers: [paymentCreated],
    cancelOn: [{ event: paymentSettled, match: "data.paymentId" }],
  },
  async ({ event, step }) => {
    const { paymentId, expiresAt } = event.data;
    await step.sleepUntil("wait-until-expiry", expiresAt);
    return step.run("expire-if-due", async () => {
      // Inngest's clock says the payment is due; a local clock a little behind must not skip it.
      const now = new Date(Math.max(Date.now(), Date.parse(expiresAt)));
      return { paymentId, expired: await expirePaymentIfDue(await getDb(), paymentId, now) };
    });
  },
);
