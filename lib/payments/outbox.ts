import type { Tx } from "@/db/client";
import { findBusiness } from "@/db/queries/businesses";
import { insertDeliveries } from "@/db/queries/webhooks";
import { isTransaction } from "@/db/transaction";
import type { Business, PaymentRow } from "@/db/schema";
import type { EventType } from "@/domain/events";
import { paymentRecords } from "@/lib/payments/read";
import { webhookPayload } from "@/lib/webhooks/payload";
import { newMessageId } from "@/lib/webhooks/sign";
import { publish } from "@/lib/events/bus";

/** Where a payment's events go: its own `notifyUrl`, else the business's webhook URL (none: nowhere). */
export function webhookTarget(notifyUrl: string | null | undefined, business: Pick<Business, "webhookUrl">): string | null {
  return notifyUrl ?? business.webhookUrl;
}

const readInTransaction = new WeakMap<Tx, Map<number, Promise<Business | undefined>>>();

/**
 * The business, read once per transaction: an expiry batch moves hundreds of one business's
 * payments in one transaction, and each would otherwise read the same row again. Outside a
 * transaction every call reads.
 */
function businessInTransaction(tx: Tx, id: number): Promise<Business | undefined> {
  if (!isTransaction(tx)) return findBusiness(tx, id);
  let known = readInTransaction.get(tx);
  if (!known) readInTransaction.set(tx, (known = new Map()));
  let business = known.get(id);
  if (!business) known.set(id, (business = findBusiness(tx, id)));
  return business;
}

/**
 * D5: the outbox row of an event, written in the caller's transaction (the one that changed the
 * payment), so an event is never lost and never sent for a change that rolled back. The body is
 * built now, from the payment as it stands after the change, and sent byte for byte on every
 * attempt. No target (no `notifyUrl`, no business webhook URL) → nothing to deliver.
 */
export async function enqueueWebhook(
  tx: Tx,
  payment: PaymentRow,
  eventId: number,
  type: EventType,
  at: Date,
  known?: Business,
) {
  const [delivery] = await enqueueWebhooks(tx, [{ payment, eventId, at }], type, known);
  return delivery ?? null;
}

/**
 * The outbox rows of many payments' events of one type (an expiry batch), as `enqueueWebhook`
 * writes one: the records read in one statement, the rows inserted in one.
 */
export async function enqueueWebhooks(
  tx: Tx,
  events: { payment: PaymentRow; eventId: number; at: Date }[],
  type: EventType,
  known?: Business,
) {
  const targeted: { payment: PaymentRow; eventId: number; at: Date; business: Business; url: string }[] = [];
  for (const e of events) {
    const businessId = e.payment.onBehalfOfBusinessId ?? e.payment.businessId;
    // The caller may already hold the business (create does): no second read in the hot path.
    const business = known?.id === businessId ? known : await businessInTransaction(tx, businessId);
    const url = business && webhookTarget(e.payment.notifyUrl, business);
    if (business && url) targeted.push({ ...e, business, url });
  }
  if (targeted.length === 0) return [];
  const records = await paymentRecords(tx, targeted.map((t) => t.payment));
  const deliveries = await insertDeliveries(
    tx,
    targeted.map(({ payment, eventId, at, business, url }, i) => ({
      messageId: newMessageId(),
      eventId,
      paymentId: payment.id,
      businessId: business.id,
      eventType: type,
      url,
      body: JSON.stringify(webhookPayload(type, records[i], { businessId: business.id, redirectUrl: payment.redirectUrl })),
      status: "pending" as const,
      nextAttemptAt: at,
      createdAt: at,
      updatedAt: at,
    })),
  );
  for (const d of deliveries) publish(tx, { kind: "delivery", deliveryId: d.id, messageId: d.messageId, paymentId: d.paymentId });
  return deliveries;
}
