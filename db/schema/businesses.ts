import { sql } from "drizzle-orm";
import { bigint, bigserial, index, jsonb, numeric, pgTable, text, timestamp, integer, check } from "drizzle-orm/pg-core";
import { brandLogos } from "./brand-logos";

/** The customer e-mails a business sends, by kind (db/schema/emails.ts). */
export type EmailNotifications = { receipt: boolean; detected: boolean; underpaid: boolean; expired: boolean };

export const businesses = pgTable(
  "businesses",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    name: text("name").notNull(),
    /** The name customers see on the checkout; null shows `name`. */
    displayName: text("display_name"),
    /** The checkout's accent colour (`#rrggbb`, checked for contrast with white text); null keeps the default. */
    accentColor: text("accent_color"),
    /** The checkout logo (brand_logos), or null for none. */
    logoSha256: text("logo_sha256").references(() => brandLogos.sha256),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    paymentLifetimeSeconds: integer("payment_lifetime_seconds").notNull().default(3600),
    enabledCoins: text("enabled_coins").array().notNull(),
    feePercent: numeric("fee_percent", { precision: 7, scale: 4 }).notNull().default("0"),
    underpaymentTolerancePercent: numeric("underpayment_tolerance_percent", { precision: 7, scale: 4 })
      .notNull()
      .default("0"),
    parentBusinessId: bigint("parent_business_id", { mode: "number" }),
    /**
     * The business's signing secret: it signs deliveries to a payment's own `notifyUrl`, and an
     * endpoint made through the admin API's `webhookUrl` field starts with it.
     */
    webhookSecret: text("webhook_secret").notNull(),
    /** Account-level extended public keys per network (live businesses' deposit-address source). */
    extendedPublicKeys: jsonb("extended_public_keys").$type<Partial<Record<string, string>>>().notNull().default({}),
    /** Confirmations per coin that replace the coin's default (a speed policy, as BTCPay's); coins not named keep theirs. */
    confirmations: jsonb("confirmations").$type<Partial<Record<string, number>>>().notNull().default({}),
    /** Which customer e-mails the business sends (lib/emails); every kind is on unless switched off. */
    emailNotifications: jsonb("email_notifications")
      .$type<EmailNotifications>()
      .notNull()
      .default({ receipt: true, detected: true, underpaid: true, expired: true }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index("businesses_parent_idx").on(t.parentBusinessId),
    // Whether any business still shows a logo, asked when one is replaced (and by the foreign key's check).
    index("businesses_logo_idx").on(t.logoSha256),
    check("businesses_mode_check", sql`${t.mode} in ('test', 'live')`),
    check("businesses_accent_color_check", sql`${t.accentColor} ~ '^#[0-9a-f]{6}$'`),
  ],
);

export type Business = typeof businesses.$inferSelect;
