import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { paymentEvents, payments } from "./payments";

/** Why an endpoint is disabled: its owner turned it off, or it failed without a break for 5 days. */
export const ENDPOINT_DISABLED_REASONS = ["manual", "failing"] as const;

/**
 * A business's webhook endpoints (at most 10): each has its own URL, signing secret, event
 * filter and enabled flag. During a secret rotation's overlap the previous secret signs too,
 * so a receiver can move to the new one without dropping a message.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    businessId: bigint("business_id", { mode: "number" })
      .notNull()
      .references(() => businesses.id),
    url: text("url").notNull(),
    secret: text("secret").notNull(),
    /** The secret before the last rotation; it signs beside `secret` until `previousSecretExpiresAt`. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true, precision: 3 }),
    description: text("description").notNull().default(""),
    /** The event types it receives; null receives every type. */
    eventTypes: text("event_types").array(),
    enabled: boolean("enabled").notNull().default(true),
    disabledReason: text("disabled_reason", { enum: ENDPOINT_DISABLED_REASONS }),
    disabledAt: timestamp("disabled_at", { withTimezone: true, precision: 3 }),
    /** The first failed attempt since its last success; null while it answers. */
    failingSince: timestamp("failing_since", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("webhook_endpoints_business_idx").on(t.businessId, t.id),
    check("webhook_endpoints_disabled_reason_check", sql`${t.disabledReason} in ('manual', 'failing')`),
  ],
);

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
    /** The endpoint it is for; null when it goes to the payment's own `notifyUrl` (or came before endpoints). */
    endpointId: bigint("endpoint_id", { mode: "number" }).references(() => webhookEndpoints.id, { onDelete: "set null" }),
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
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt.desc(), t.id.desc()),
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
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
