import { sql } from "drizzle-orm";
import { bigint, bigserial, doublePrecision, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";

/** One customer per business and email (D9); a payment without email gets a customer of its own. */
export const customers = pgTable(
  "customers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    businessId: bigint("business_id", { mode: "number" })
      .notNull()
      .references(() => businesses.id),
    email: text("email"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("customers_business_email_uq").on(t.businessId, sql`lower(${t.email})`),
    // searchString's match on a payment's customer email (db/queries/payment-filter.ts). A small
    // pending list: every search scans the entries not yet merged into the index, up to 4 MB
    // by default (~50 µs per 8 kB page); 256 kB keeps that under ~2 ms while writes still add
    // entries in batches (inserting them one by one cost ~3.5 ms per created payment).
    index("customers_email_trgm_idx").using("gin", sql`lower(${t.email}) gin_trgm_ops`).with({ gin_pending_list_limit: 256 }),
  ],
);

export const customerIps = pgTable(
  "customer_ips",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    customerId: bigint("customer_id", { mode: "number" })
      .notNull()
      .references(() => customers.id),
    ip: text("ip").notNull(),
    userAgent: text("user_agent"),
    city: text("city"),
    country: text("country"),
    riskScore: doublePrecision("risk_score"),
    connectionType: text("connection_type").notNull().default("Unknown"),
    isp: text("isp"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("customer_ips_customer_ip_uq").on(t.customerId, t.ip)],
);

export type CustomerRow = typeof customers.$inferSelect;
export type CustomerIpRow = typeof customerIps.$inferSelect;
