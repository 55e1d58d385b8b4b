import type { Tx } from "@/db/client";
import { insertDeliveries } from "@/db/queries/webhooks";
import type { Business, WebhookDeliveryRow, WebhookEndpointRow } from "@/db/schema";
import { publish } from "@/lib/events/bus";
import { conflict } from "@/lib/http/errors";
import { newMessageId } from "./sign";

/**
 * The dashboard's "send a test event": one signed message to one of the business's endpoints that
 * tells of no payment, so a merchant can check their endpoint and signature verification before
 * a real payment arrives. It is an outbox row like any other (delivered, retried and logged by
 * the same code, lib/webhooks/deliver.ts), with no payment and no payment event behind it.
 */
export const TEST_EVENT_TYPE = "WEBHOOK_TEST";

/**
 * The body: the payment events' shape with `ForPaymentEvents: null`, so a receiver that reads
 * `EventType` first and ignores kinds it does not know (docs/webhooks.md) answers 2xx unchanged.
 */
export function testEventPayload(businessId: number, at: Date) {
  return { EventType: TEST_EVENT_TYPE, ForPaymentEvents: null, BusinessId: businessId, CreatedAt: at.toISOString() };
}
export type TestEventPayload = ReturnType<typeof testEventPayload>;

/**
 * Puts a test event for one of the business's endpoints in the outbox, due now, whatever the
 * endpoint's event filter; the driver hears of it after commit.
 */
export async function enqueueTestEvent(tx: Tx, business: Business, endpoint: WebhookEndpointRow | undefined, at: Date): Promise<WebhookDeliveryRow> {
  if (!endpoint) throw conflict("This business has no webhook endpoint: add one before sending a test event.");
  if (!endpoint.enabled) throw conflict("This endpoint is disabled: enable it before sending a test event.");
  const [delivery] = await insertDeliveries(tx, [
    {
      messageId: newMessageId(),
      eventId: null,
      paymentId: null,
      businessId: business.id,
      endpointId: endpoint.id,
      eventType: TEST_EVENT_TYPE,
      url: endpoint.url,
      body: JSON.stringify(testEventPayload(business.id, at)),
      status: "pending",
      nextAttemptAt: at,
      createdAt: at,
      updatedAt: at,
    },
  ]);
  publish(tx, { kind: "delivery", deliveryId: delivery.id, messageId: delivery.messageId, paymentId: null });
  return delivery;
}
