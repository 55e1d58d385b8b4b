import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { paymentEvents, payments } from "./payments";

/** What a customer e-mail tells: the receipt (COMPLETED) or a status update. */
export const CUSTOMER_EMAIL_KINDS = ["receipt", "detected", "underpaid", "expired"] as const;
export type CustomerEmailKind = (typeof CUSTOMER_EMAIL_KINDS)[number];

/**
 * pending: to be sent (nextAttemptAt); sent: the SMTP server accepted it; failed: refused for
 * good or out of attempts; unsent: kept, never sent, because no SMTP server is configured.
 */
export const CUSTOMER_EMAIL_STATUSES = ["pending", "sent", "failed", "unsent"] as const;

/**
 * The customer e-mail outbox: one row per status-change event that tells the customer, written in
 * the status change's transaction (as webhook deliveries are). The message is rendered then, in
 * the customer's language, and sent byte for byte on every attempt; `idempotencyKey` (payment,
 * kind, event) makes a second row for the same event impossible and gives the SMTP Message-ID.
 */
export const customerEmails = pgTable(
  "customer_emails",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    businessId: bigint("business_id", { mode: "number" }).notNull(),
    eventId: bigint("event_id", { mode: "number" })
      .notNull()
      .references(() => paymentEvents.id),
    kind: text("kind", { enum: CUSTOMER_EMAIL_KINDS }).notNull(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    /** The Message-ID header, the same on every attempt: a resend after a crash is recognisably the same message. */
    messageId: text("message_id").notNull(),
    recipient: text("recipient").notNull(),
    locale: text("locale").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    status: text("status", { enum: CUSTOMER_EMAIL_STATUSES }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, precision: 3 }),
    /** A worker's claim: another worker may take the row only after this time (crash recovery). */
    lockedUntil: timestamp("locked_until", { withTimezone: true, precision: 3 }),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index("customer_emails_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("customer_emails_payment_idx").on(t.paymentId, t.id),
    check("customer_emails_status_check", sql`${t.status} in ('pending', 'sent', 'failed', 'unsent')`),
  ],
);

/** Every attempt to hand a customer e-mail to the SMTP server: its answer (code and text) or the error. */
export const customerEmailAttempts = pgTable(
  "customer_email_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    emailId: bigint("email_id", { mode: "number" })
      .notNull()
      .references(() => customerEmails.id),
    attemptedAt: timestamp("attempted_at", { withTimezone: true, precision: 3 }).notNull(),
    succeeded: boolean("succeeded").notNull(),
    /** The SMTP reply code (250, 550, …), or null when no server answered. */
    smtpCode: integer("smtp_code"),
    /** The server's reply, or the error (first 1 KB). */
    response: text("response"),
    latencyMs: integer("latency_ms").notNull(),
  },
  (t) => [index("customer_email_attempts_email_idx").on(t.emailId, t.id)],
);

export type CustomerEmailRow = typeof customerEmails.$inferSelect;
export type CustomerEmailAttemptRow = typeof customerEmailAttempts.$inferSelect;
