import type { Tx } from "@/db/client";
import { findBusiness } from "@/db/queries/businesses";
import { insertDeliveries } from "@/db/queries/webhooks";
import { isTransaction } from "@/db/transaction";
import { listEndpoints } from "@/db/queries/webhook-endpoints";
import type { Business, PaymentRow, WebhookEndpointRow } from "@/db/schema";
import type { EventType } from "@/domain/events";
import { paymentRecords } from "@/lib/payments/read";
import { webhookPayload } from "@/lib/webhooks/payload";
import { newMessageId } from "@/lib/webhooks/sign";
import { endpointReceives } from "@/lib/webhooks/endpoints";
import { publish } from "@/lib/events/bus";

/** One place an event goes: an endpoint (held when it is disabled) or the payment's own `notifyUrl`. */
type Target = { url: string; endpointId: number | null; held: boolean };

/**
 * Where a payment's event of `type` goes: its own `notifyUrl` alone (it replaces the business's
 * endpoints for that payment), else every endpoint of the business whose filter takes the type.
 */
export function webhookTargets(notifyUrl: string | null | undefined, endpoints: WebhookEndpointRow[], type: EventType): Target[] {
  if (notifyUrl) return [{ url: notifyUrl, endpointId: null, held: false }];
  return endpoints.filter((e) => endpointReceives(e, type)).map((e) => ({ url: e.url, endpointId: e.id, held: !e.enabled }));
}

const readInTransaction = new WeakMap<Tx, Map<number, Promise<Business | undefined>>>();
const endpointsInTransaction = new WeakMap<Tx, Map<number, Promise<WebhookEndpointRow[]>>>();

/**
 * The business and its endpoints, read once per transaction: an expiry batch moves hundreds of
 * one business's payments in one transaction, and each would otherwise read the same rows
 * again. Outside a transaction every call reads.
 */
function onceInTransaction<T>(cache: WeakMap<Tx, Map<number, Promise<T>>>, tx: Tx, id: number, read: (tx: Tx, id: number) => Promise<T>): Promise<T> {
  if (!isTransaction(tx)) return read(tx, id);
  let known = cache.get(tx);
  if (!known) cache.set(tx, (known = new Map()));
  let value = known.get(id);
  if (!value) known.set(id, (value = read(tx, id)));
  return value;
}

/** What the caller may already hold (create does): no second read in the hot path. */
export type KnownBusiness = { business: Business; endpoints?: WebhookEndpointRow[] };

/**
 * D5: the outbox row of an event, written in the caller's transaction (the one that changed the
 * payment), so an event is never lost and never sent for a change that rolled back. The body is
 * built now, from the payment as it stands after the change, and sent byte for byte on every
 * attempt, one row per target (`webhookTargets`). No target → nothing to deliver.
 */
export async function enqueueWebhook(
  tx: Tx,
  payment: PaymentRow,
  eventId: number,
  type: EventType,
  at: Date,
  known?: KnownBusiness,
) {
  return enqueueWebhooks(tx, [{ payment, eventId, at }], type, known);
}

/**
 * The outbox rows of many payments' events of one type (an expiry batch), as `enqueueWebhook`
 * writes one: the records read in one statement, the rows inserted in one.
 */
export async function enqueueWebhooks(
  tx: Tx,
  events: { payment: PaymentRow; eventId: number; at: Date }[],
  type: EventType,
  known?: KnownBusiness,
) {
  const targeted: { payment: PaymentRow; eventId: number; at: Date; business: Business; targets: Target[] }[] = [];
  for (const e of events) {
    const businessId = e.payment.onBehalfOfBusinessId ?? e.payment.businessId;
    const mine = known?.business.id === businessId;
    const business = mine ? known.business : await onceInTransaction(readInTransaction, tx, businessId, findBusiness);
    if (!business) continue;
    const endpoints = e.payment.notifyUrl
      ? []
      : ((mine ? known.endpoints : undefined) ?? (await onceInTransaction(endpointsInTransaction, tx, businessId, listEndpoints)));
    const targets = webhookTargets(e.payment.notifyUrl, endpoints, type);
    if (targets.length) targeted.push({ ...e, business, targets });
  }
  if (targeted.length === 0) return [];
  const records = await paymentRecords(tx, targeted.map((t) => t.payment));
  const deliveries = await insertDeliveries(
    tx,
    targeted.flatMap(({ payment, eventId, at, business, targets }, i) => {
      // One body per event, the same bytes for every endpoint.
      const body = JSON.stringify(webhookPayload(type, records[i], { businessId: business.id, redirectUrl: payment.redirectUrl }));
      return targets.map((t) => ({
        messageId: newMessageId(),
        eventId,
        paymentId: payment.id,
        businessId: business.id,
        endpointId: t.endpointId,
        eventType: type,
        url: t.url,
        body,
        // A disabled endpoint's events are logged, not sent: a recovery sends them later.
        status: t.held ? ("failed" as const) : ("pending" as const),
        nextAttemptAt: t.held ? null : at,
        createdAt: at,
        updatedAt: at,
      }));
    }),
  );
  for (const d of deliveries) {
    if (d.status === "pending") publish(tx, { kind: "delivery", deliveryId: d.id, messageId: d.messageId, paymentId: d.paymentId });
  }
  return deliveries;
}
