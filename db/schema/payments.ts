import { sql, type SQL } from "drizzle-orm";
import { bigint, bigserial, check, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { customers } from "./customers";
import type { CoinName } from "@/domain/coins";
import { PAYMENT_STATUSES, type PaymentStatus } from "@/domain/statuses";

export type TimelineEntry = { time: string; paymentStatus: PaymentStatus };
export type FeeTransfer = { businessId: number; percent: number };

/**
 * PAYMENT_STATUSES as an SQL list of literals, for the CHECK on `payments.status` (DDL takes no
 * parameters; the values are the fixed vocabulary, not input).
 */
const STATUS_LIST = sql.raw(PAYMENT_STATUSES.map((s) => `'${s}'`).join(", "));

/** Fiat amounts: exact decimals; ISO 4217 allows at most 4 minor digits. */
const fiat = (name: string) => numeric(name, { precision: 24, scale: 4 });

export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey(),
    /** The account the payment belongs to: the addressed business, or its parent for a sub-business. */
    businessId: bigint("business_id", { mode: "number" })
      .notNull()
      .references(() => businesses.id),
    /** The sub-business the payment was made for, when the addressed business has a parent. */
    onBehalfOfBusinessId: bigint("on_behalf_of_business_id", { mode: "number" }),
    customerId: bigint("customer_id", { mode: "number" })
      .notNull()
      .references(() => customers.id),
    /** Copy of the customer's email, kept in step with `customers.email`, so search stays one index. */
    customerEmail: text("customer_email"),
    /** The language the customer's e-mails are written in: the checkout's when they gave the address there; null (English) when the API gave it. */
    customerLocale: text("customer_locale"),
    name: text("name"),
    description: text("description"),
    note: text("note"),
    currency: text("currency").notNull(),
    amount: fiat("amount").notNull(),
    endAmount: fiat("end_amount").notNull(),
    platformFee: fiat("platform_fee"),
    netAmountUsd: fiat("net_amount_usd"),
    status: text("status").$type<PaymentStatus>().notNull(),
    offeredCoins: text("offered_coins").array().$type<CoinName[]>().notNull(),
    paymentMethods: jsonb("payment_methods").$type<Record<string, string[]>>(),
    selectedPaymentMethod: text("selected_payment_method"),
    selectedCoin: text("selected_coin"),
    metadata: jsonb("metadata").$type<Record<string, string>>(),
    feeTransfers: jsonb("fee_transfers").$type<FeeTransfer[]>(),
    redirectUrl: text("redirect_url"),
    notifyUrl: text("notify_url"),
    customerIp: text("customer_ip"),
    customerUserAgent: text("customer_user_agent"),
    timeline: jsonb("timeline").$type<TimelineEntry[]>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
    /**
     * Lower-cased name, description and note, one per line: what `searchString` matches besides
     * the customer's email. The email is matched through the customer (`customers_email_trgm_idx`):
     * indexed once per customer instead of once per payment, its common trigrams (`buy`, `gma`,
     * `com`…) no longer make every search read posting lists as long as the store.
     */
    searchText: text("search_text").generatedAlwaysAs(
      (): SQL =>
        sql`lower(coalesce(${payments.name}, '') || E'\n' || coalesce(${payments.description}, '') || E'\n' || coalesce(${payments.note}, ''))`,
    ),
  },
  (t) => [
    // The database refuses a status outside the vocabulary, whichever writer tries.
    check("payments_status_check", sql`${t.status} in (${STATUS_LIST})`),
    // The list's order. Migration 0017 makes it and payments_obo_created_idx INCLUDE status and
    // net_amount_usd (drizzle's index builder has no INCLUDE), so the dashboard's per-day chart
    // reads a range by an index-only scan.
    index("payments_business_created_idx").on(t.businessId, t.createdAt.desc(), t.id.desc()),
    index("payments_business_status_created_idx").on(t.businessId, t.status, t.createdAt.desc(), t.id.desc()),
    index("payments_business_coin_created_idx").on(t.businessId, t.selectedCoin, t.createdAt.desc(), t.id.desc()),
    index("payments_business_amount_idx").on(t.businessId, t.amount),
    index("payments_obo_created_idx")
      .on(t.onBehalfOfBusinessId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.onBehalfOfBusinessId} is not null`),
    // A small pending list, as customers_email_trgm_idx. Every write of a payment row that is
    // not a HOT update (a status change, a note) adds its trigrams again.
    index("payments_search_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`).with({ gin_pending_list_limit: 256 }),
    // A customer's payments, for searchString's match on the customer's email. Migrations 0006
    // and 0007 make it cover what a search page needs (INCLUDE business_id, created_at, id,
    // status; drizzle's index builder has no INCLUDE), so a search, plain or narrowed by status or
    // time, reads no payment's row but the page's own.
    index("payments_customer_idx").on(t.customerId),
    // The expiry sweep's claim: only payments that can still expire are in this index.
    index("payments_expiry_idx")
      .on(t.expiresAt)
      .where(sql`${t.status} in ('AWAITING_PAYMENT', 'UNDERPAID')`),
    // The watch list: payments whose transfers may still change their status.
    index("payments_open_idx")
      .on(t.status)
      .where(sql`${t.status} in ('AWAITING_PAYMENT', 'PENDING', 'UNDERPAID', 'PROCESSING')`),
  ],
);

/** Every status change and creation, written in the same transaction: the audit trail and the outbox source. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    type: text("type").notNull(),
    fromStatus: text("from_status").$type<PaymentStatus>(),
    toStatus: text("to_status").$type<PaymentStatus>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("payment_events_payment_idx").on(t.paymentId, t.id)],
);

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    businessId: bigint("business_id", { mode: "number" }).notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ name: "idempotency_keys_pk", columns: [t.businessId, t.key] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);

export type PaymentRow = typeof payments.$inferSelect;
