import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { paymentEvents, payments } from "./payments";

/**
 * The webhook outbox: one row per event and target endpoint, written in the same transaction
 * as the status change (D5). `body` holds the exact bytes that are signed and sent on every
 * attempt; `messageId` stays the same across retries.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    messageId: text("message_id").notNull().unique(),
    /** The payment event and payment it tells of; both null only for a test event (lib/webhooks/test-event.ts). */
    eventId: bigint("event_id", { mode: "number" }).references(() => paymentEvents.id),
    paymentId: uuid("payment_id").references(() => payments.id),
    businessId: bigint("business_id", { mode: "number" }).notNull(),
    eventType: text("event_type").notNull(),
    url: text("url").notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, precision: 3 }),
    /** A worker's claim: another worker may take the row only after this time (crash recovery). */
    lockedUntil: timestamp("locked_until", { withTimezone: true, precision: 3 }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, precision: 3 }),
    lastStatusCode: integer("last_status_code"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_business_idx").on(t.businessId, t.createdAt.desc(), t.id.desc()),
    index("webhook_deliveries_payment_idx").on(t.paymentId, t.id),
  ],
);

/** Every attempt of a delivery: time, status code, latency, error, first 2 KB of the answer. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: bigint("delivery_id", { mode: "number" })
      .notNull()
      .references(() => webhookDeliveries.id),
    attemptedAt: timestamp("attempted_at", { withTimezone: true, precision: 3 }).notNull(),
    succeeded: boolean("succeeded").notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
    responseBody: text("response_body"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.id)],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
