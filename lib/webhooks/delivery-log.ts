import { z } from "zod";
import type { Db } from "@/db/client";
import { findBusiness } from "@/db/queries/businesses";
import { findDelivery, listAttempts, listDeliveries } from "@/db/queries/webhooks";
import type { WebhookAttemptRow, WebhookDeliveryRow } from "@/db/schema";
import { conflict, notFound } from "@/lib/http/errors";
import { queryInteger } from "@/lib/http/query";
import { redeliver } from "@/lib/webhooks/deliver";

/** The states of a delivery (db/schema/webhooks.ts). */
export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

export const ListDeliveriesQuerySchema = z
  .strictObject({
    paymentId: z
      .uuid("must be a UUID")
      .optional()
      .meta({ description: "Only the deliveries of this payment.", examples: ["f1909731-0e96-4a73-8039-5a527e04b6c0"] }),
    endpointId: queryInteger({ min: 1, max: Number.MAX_SAFE_INTEGER }, {
      description: "Only the deliveries to this webhook endpoint (its delivery log).",
      example: 1,
      format: "int64",
    }).optional(),
    status: z.enum(DELIVERY_STATUSES).optional().meta({
      description:
        "Only deliveries in this state: `pending` (not delivered yet; retried on schedule), `succeeded` (a 2xx was received) or `failed` (every scheduled attempt failed).",
      examples: ["failed"],
    }),
    PageNumber: queryInteger({ min: 1, max: 1_000_000 }, { description: "Page number, from 1 (default 1).", example: 1 })
      .default(1)
      .meta({ override: { default: 1 } }),
    PageSize: queryInteger({ min: 1, max: 100 }, { description: "Results per page, at most 100 (default 20).", example: 20 })
      .default(20)
      .meta({ override: { default: 20 } }),
  })
  .meta({ id: "ListWebhookDeliveriesQuery" });

function attemptView(a: WebhookAttemptRow) {
  return {
    attemptedAt: a.attemptedAt.toISOString(),
    succeeded: a.succeeded,
    statusCode: a.statusCode,
    latencyMs: a.latencyMs,
    error: a.error,
    responseBody: a.responseBody,
  };
}

export function deliveryView(d: WebhookDeliveryRow, attempts: WebhookAttemptRow[]) {
  return {
    deliveryId: d.id,
    messageId: d.messageId,
    paymentId: d.paymentId,
    eventType: d.eventType,
    endpointId: d.endpointId,
    url: d.url,
    status: d.status,
    attemptCount: attempts.length,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    lastStatusCode: d.lastStatusCode,
    createdAt: d.createdAt.toISOString(),
    payload: JSON.parse(d.body) as unknown,
    attempts: attempts.map(attemptView),
  };
}

async function requireBusiness(db: Db, id: number) {
  if (!(await findBusiness(db, id))) throw notFound(`No business ${id} exists.`);
}

/**
 * One page of the business's delivery log. The admin API lists payments' events only (the shape
 * it documents); the dashboard's log also shows the test events sent from it
 * (`testEvents`, lib/webhooks/test-event.ts), which tell of no payment.
 */
export async function listBusinessDeliveries(
  db: Db,
  businessId: number,
  q: z.infer<typeof ListDeliveriesQuerySchema>,
  opts: { testEvents?: boolean } = {},
) {
  await requireBusiness(db, businessId);
  const { rows, total } = await listDeliveries(db, businessId, {
    paymentId: q.paymentId,
    endpointId: q.endpointId,
    status: q.status,
    limit: q.PageSize,
    offset: (q.PageNumber - 1) * q.PageSize,
    paymentsOnly: !opts.testEvents,
  });
  return {
    items: rows.map((r) => deliveryView(r, r.attemptList)),
    pageNumber: q.PageNumber,
    pageSize: q.PageSize,
    totalCount: total,
    totalPages: Math.ceil(total / q.PageSize),
  };
}

/** One attempt now with the same message id; answers the delivery with all its attempts. */
export async function redeliverOne(db: Db, businessId: number, deliveryId: number) {
  await requireBusiness(db, businessId);
  const found = await findDelivery(db, businessId, deliveryId);
  // A test event is the dashboard's (lib/webhooks/test-event.ts): not in the admin API's log.
  if (!found || found.paymentId === null) {
    throw notFound(`No webhook delivery ${deliveryId} exists for business ${businessId}.`);
  }
  const outcome = await redeliver(db, deliveryId);
  if (!outcome) throw conflict("This delivery is being attempted right now; try again in a moment.");
  return deliveryView(outcome.delivery, await listAttempts(db, deliveryId));
}
