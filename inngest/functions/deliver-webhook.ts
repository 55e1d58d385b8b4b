import { RetryAfterError } from "inngest";
import { getDb } from "@/db/client";
import { deliverOne, MAX_ATTEMPTS } from "@/lib/webhooks/deliver";
import { inngest, webhookDeliveryCreated } from "@/lib/background/inngest-client";
import { deliveryStates } from "@/db/queries/webhooks";

/** A row not visible yet (its transaction has not committed) is looked for again this often… */
const NOT_VISIBLE_RETRY_MS = 2_000;
/** …this many times; after that it was rolled back and there is nothing to deliver. */
const NOT_VISIBLE_TRIES = 3;
/** Inngest may wake a retry slightly before this server's clock reaches the scheduled time. */
const EARLY_TOLERANCE_MS = 1_000;
/**
 * Inngest's maximum (each step has its own retry counter). D5 needs MAX_ATTEMPTS - 1 = 7 of them;
 * the rest absorb retries spent on races (a row not yet visible, an attempt made by the sweep),
 * so those never cut the schedule short. The delivery row, not this counter, decides when to
 * give up: after MAX_ATTEMPTS it is `failed` and the run ends normally.
 */
export const DELIVERY_RETRIES = 20;

export type DeliveryOutcome = {
  deliveryId: number;
  outcome: "succeeded" | "failed" | "missing";
  attempts?: number;
  statusCode?: number | null;
};

/**
 * D5 with Inngest: one run per delivery. Each execution of the step makes at most one attempt
 * through the service; a failed attempt that leaves the delivery pending throws RetryAfterError
 * with the delivery's `nextAttemptAt`, so Inngest's next try is the schedule's next attempt.
 */
export const deliverWebhook = inngest.createFunction(
  {
    id: "deliver-webhook",
    name: "Deliver a webhook with the D5 retry schedule",
    triggers: [webhookDeliveryCreated],
    retries: DELIVERY_RETRIES,
  },
  async ({ event, step, attempt }) =>
    step.run("attempt-delivery", () => attemptOrReschedule(event.data.deliveryId, attempt)),
);

async function attemptOrReschedule(deliveryId: number, attempt: number): Promise<DeliveryOutcome> {
  const db = await getDb();
  const before = (await deliveryStates(db, [deliveryId])).get(deliveryId);
  if (!before) {
    if (attempt < NOT_VISIBLE_TRIES) {
      throw new RetryAfterError(`delivery ${deliveryId} is not visible yet`, NOT_VISIBLE_RETRY_MS);
    }
    return { deliveryId, outcome: "missing" };
  }
  if (before.status !== "pending") return { deliveryId, outcome: before.status };
  if (before.nextAttemptAt && before.nextAttemptAt.getTime() - Date.now() > EARLY_TOLERANCE_MS) {
    // Woken early, or another worker made the last attempt and moved the schedule on.
    throw new RetryAfterError(`delivery ${deliveryId} is next due at ${before.nextAttemptAt.toISOString()}`, before.nextAttemptAt);
  }

  const out = await deliverOne(db, deliveryId);
  if (!out) {
    // Another worker (the cron sweep) holds the row: look again when its lease ends.
    const now = (await deliveryStates(db, [deliveryId])).get(deliveryId);
    if (!now) return { deliveryId, outcome: "missing" };
    if (now.status !== "pending") return { deliveryId, outcome: now.status };
    const at = Math.max(now.lockedUntil?.getTime() ?? 0, now.nextAttemptAt?.getTime() ?? 0, Date.now() + NOT_VISIBLE_RETRY_MS);
    throw new RetryAfterError(`delivery ${deliveryId} is being attempted by another worker`, new Date(at));
  }

  const { delivery, result } = out;
  if (delivery.status === "pending" && delivery.nextAttemptAt) {
    const why = result.statusCode !== null ? `HTTP ${result.statusCode}` : (result.error ?? "no response");
    throw new RetryAfterError(
      `attempt ${delivery.attempts} of ${MAX_ATTEMPTS} failed (${why}); next at ${delivery.nextAttemptAt.toISOString()}`,
      delivery.nextAttemptAt,
    );
  }
  return {
    deliveryId,
    outcome: delivery.status === "succeeded" ? "succeeded" : "failed",
    attempts: delivery.attempts,
    statusCode: result.statusCode,
  };
}
