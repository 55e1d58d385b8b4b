import type { Db } from "@/db/client";
import { findBusiness } from "@/db/queries/businesses";
import { claimDelivery, claimDueDeliveries, holdDelivery, recordAttempt } from "@/db/queries/webhooks";
import { metrics } from "@/lib/metrics/registry.mjs";
import { findEndpointsByIds, holdEndpointDeliveries, noteEndpointAttempt } from "@/db/queries/webhook-endpoints";
import type { Business, WebhookDeliveryRow, WebhookEndpointRow } from "@/db/schema";
import { DISABLE_AFTER_MS } from "./endpoint-schemas";
import { signingSecrets } from "./endpoints";
import { postWebhook, type SendResult } from "./send";
import { signatureHeaders } from "./sign";
import { inTransaction } from "@/db/transaction";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** D5 (Svix's schedule): after the first attempt, retry after these delays; then give up. */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** A claim outlives the 15 s attempt comfortably; a crashed worker's rows are retaken after it. */
const LEASE_MS = 60 * SECOND;

export type Clock = () => Date;
const systemClock: Clock = () => new Date();

/** When the attempt numbered `attempts` (1-based, just made) failed: the next try, or null to give up. */
export function nextAttemptAt(attempts: number, at: Date): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  return delay === undefined ? null : new Date(at.getTime() + delay);
}

type Known = { business?: Business | null; endpoints?: Map<number, WebhookEndpointRow> };

/**
 * One attempt of a claimed delivery: to its endpoint's current URL, signed with the endpoint's
 * secrets (a payment's `notifyUrl`: with the business's secret) and the attempt's time; the
 * attempt and the delivery's new state are recorded together, then the endpoint's failing streak.
 * A scheduled attempt for a disabled endpoint is not made: the delivery is held (failed) for a
 * recovery.
 */
export async function attemptDelivery(
  db: Db,
  delivery: WebhookDeliveryRow,
  clock: Clock = systemClock,
  opts: { reschedule?: boolean } & Known = {},
): Promise<{ delivery: WebhookDeliveryRow; result: SendResult }> {
  // A batch passes its businesses and endpoints, read once per batch; otherwise read now.
  const business = opts.business !== undefined ? opts.business : await findBusiness(db, delivery.businessId);
  const endpoint = delivery.endpointId === null ? null : await endpointOf(db, delivery.endpointId, opts.endpoints);
  const at = clock();
  const scheduled = opts.reschedule !== false;
  if (delivery.endpointId !== null && (!endpoint || (!endpoint.enabled && scheduled))) {
    const held = await holdDelivery(db, delivery.id, at);
    return { delivery: held, result: { ok: false, statusCode: null, latencyMs: 0, error: "endpoint disabled", responseBody: null } };
  }
  const url = endpoint?.url ?? delivery.url;
  const result: SendResult = business
    ? await postWebhook(
        url,
        delivery.body,
        signatureHeaders(endpoint ? signingSecrets(endpoint, at) : business.webhookSecret, delivery.messageId, delivery.body, at),
        business.mode,
      )
    : { ok: false, statusCode: null, latencyMs: 0, error: "business no longer exists", responseBody: null };
  const attempts = delivery.attempts + 1;
  let status: WebhookDeliveryRow["status"] = delivery.status;
  let next: Date | null = delivery.nextAttemptAt;
  if (result.ok) {
    status = "succeeded";
    next = null;
  } else if (scheduled && delivery.status === "pending") {
    next = nextAttemptAt(attempts, at);
    status = next ? "pending" : "failed";
  }
  // The attempt and the delivery's new state together, in one statement.
  const updated = await recordAttempt(
    db,
    {
      deliveryId: delivery.id,
      attemptedAt: at,
      succeeded: result.ok,
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      error: result.error,
      responseBody: result.responseBody,
    },
    { status, nextAttemptAt: next, lastAttemptAt: at, lastStatusCode: result.statusCode, url },
    scheduled,
  );
  metrics().webhookAttempts.inc({ outcome: result.ok ? "succeeded" : status === "pending" ? "retrying" : "failed" });
  if (endpoint) await noteOutcome(db, endpoint.id, result.ok, at);
  return { delivery: updated, result };
}

async function endpointOf(db: Db, id: number, known?: Map<number, WebhookEndpointRow>) {
  return known ? known.get(id) : (await findEndpointsByIds(db, [id]))[0];
}

/** The endpoint's failing streak; one that has failed for DISABLE_AFTER_MS is disabled and its pending deliveries held. */
async function noteOutcome(db: Db, endpointId: number, ok: boolean, at: Date) {
  await inTransaction(db, async (tx) => {
    const disabled = await noteEndpointAttempt(tx, endpointId, ok, at, DISABLE_AFTER_MS);
    if (disabled) await holdEndpointDeliveries(tx, endpointId, at);
  });
}

/**
 * "Deliver what is due": claims due deliveries and attempts them concurrently. Idempotent and
 * safe to run from any number of workers (the embedded runner, Inngest's sweep). Returns the
 * number of attempts made.
 */
export async function deliverDue(db: Db, clock: Clock = systemClock, limit = 100): Promise<number> {
  const claimed = await inTransaction(db, (tx) => claimDueDeliveries(tx, clock(), limit, LEASE_MS));
  const started = performance.now();
  const known = await knownOf(db, claimed);
  await Promise.all(byPaymentAndEndpoint(claimed).map((group) => attemptInOrder(db, group, clock, started, known)));
  return claimed.length;
}

type BatchKnown = { businesses: Map<number, Business | null>; endpoints: Map<number, WebhookEndpointRow> };

/** A batch usually belongs to few businesses and endpoints: each is read once (secret, mode, URL), not once per delivery. */
async function knownOf(db: Db, claimed: WebhookDeliveryRow[]): Promise<BatchKnown> {
  const ids = [...new Set(claimed.map((d) => d.businessId))];
  const endpointIds = [...new Set(claimed.flatMap((d) => (d.endpointId === null ? [] : [d.endpointId])))];
  const [found, endpoints] = await Promise.all([Promise.all(ids.map((id) => findBusiness(db, id))), findEndpointsByIds(db, endpointIds)]);
  return { businesses: new Map(ids.map((id, i) => [id, found[i] ?? null])), endpoints: new Map(endpoints.map((e) => [e.id, e])) };
}

/** Claimed deliveries grouped by payment and endpoint, each group in event order. */
function byPaymentAndEndpoint(claimed: WebhookDeliveryRow[]): WebhookDeliveryRow[][] {
  const groups = new Map<string, WebhookDeliveryRow[]>();
  for (const d of [...claimed].sort((a, b) => a.id - b.id)) {
    const key = `${d.paymentId} ${d.endpointId ?? d.url}`;
    const group = groups.get(key);
    if (group) group.push(d);
    else groups.set(key, [d]);
  }
  return [...groups.values()];
}

/**
 * Events of one payment that are due together (PROCESSING and COMPLETED are written in one
 * transaction) go to the endpoint one after another, in event order, so a receiver does not see
 * COMPLETED before PROCESSING. Once one fails, or the ordered part has used a third of the lease,
 * the rest go at once: an endpoint that hangs cannot hold the group past the lease (which would
 * let another worker take, and send again, the rows still waiting here). Order across retries is
 * not promised; receivers use Status and Timeline, not arrival order.
 */
async function attemptInOrder(
  db: Db,
  group: WebhookDeliveryRow[],
  clock: Clock,
  started: number,
  known: BatchKnown,
) {
  const attempt = (d: WebhookDeliveryRow) =>
    attemptDelivery(db, d, clock, { business: known.businesses.get(d.businessId), endpoints: known.endpoints });
  let i = 0;
  while (i < group.length && performance.now() - started < LEASE_MS / 3) {
    const { result } = await attempt(group[i++]);
    if (!result.ok) break;
  }
  await Promise.all(group.slice(i).map(attempt));
}

/** Attempts one delivery now if no other worker holds it (Inngest's per-delivery function). */
export async function deliverOne(db: Db, deliveryId: number, clock: Clock = systemClock) {
  const claimed = await inTransaction(db, (tx) => claimDelivery(tx, deliveryId, clock(), LEASE_MS));
  if (!claimed) return null;
  return attemptDelivery(db, claimed, clock);
}

/**
 * Operator's "redeliver" (design §4): one attempt now, whatever the delivery's state, with the
 * same message id. Success marks it succeeded; a failure leaves its state and schedule as they were.
 */
export async function redeliver(db: Db, deliveryId: number, clock: Clock = systemClock) {
  const claimed = await inTransaction(db, (tx) =>
    claimDelivery(tx, deliveryId, clock(), LEASE_MS, ["pending", "succeeded", "failed"]),
  );
  if (!claimed) return null;
  return attemptDelivery(db, claimed, clock, { reschedule: false });
}
