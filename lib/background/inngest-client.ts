import { Inngest, eventType } from "inngest";
import { z } from "zod";

/**
 * The Inngest client (design §2). It reads INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY, INNGEST_DEV and
 * INNGEST_BASE_URL itself; `lib/config` parses the same variables to decide the background
 * driver, and nothing calls `inngest.send()` unless that decision was Inngest
 * (`lib/background/driver.ts`): without a key or dev mode, `send()` throws.
 */
export const inngest = new Inngest({ id: "cryptopay" });

/** A payment was created: sleep until it is due, then expire it unless it settled meanwhile. */
export const paymentCreated = eventType("payment/created", {
  schema: z.object({ paymentId: z.string().min(1), expiresAt: z.iso.datetime() }),
});

/**
 * A payment left AWAITING_PAYMENT/UNDERPAID for good (no path in the state table leads back):
 * cancels the expiry run of that payment.
 */
export const paymentSettled = eventType("payment/settled", {
  schema: z.object({ paymentId: z.string().min(1) }),
});

/** A webhook outbox row was written and committed: one run delivers it with D5's retries. */
export const webhookDeliveryCreated = eventType("webhook/delivery.created", {
  schema: z.object({ deliveryId: z.number().int().positive() }),
});
