import { bigint, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { payments } from "./payments";

/**
 * A live business's Solana wallet: its public key (base58, 32 bytes), the recipient of every
 * Solana Pay transfer request of its payments. ed25519 keys derive no child public keys, so
 * Solana is paid to the merchant's one wallet, each payment told apart by its reference
 * (`solana_references`); no secret is ever asked for or stored.
 */
export const solanaWallets = pgTable("solana_wallets", {
  businessId: bigint("business_id", { mode: "number" })
    .primaryKey()
    .references(() => businesses.id),
  address: text("address").notNull(),
  /**
   * The newest finalized signature the sweep of the wallet (and its token accounts) has read, by
   * account: `{ "<account>": "<signature>" }`. The sweep reads only what came after it.
   */
  sweptUntil: jsonb("swept_until").$type<Record<string, string>>().notNull().default({}),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
});

/**
 * A payment's Solana Pay reference: a fresh random 32-byte key, made when a Solana coin is first
 * chosen and kept for the payment. Wallets add it to the transfer instruction as a read-only
 * account, so `getSignaturesForAddress(reference)` finds the payment's transactions.
 */
export const solanaReferences = pgTable(
  "solana_references",
  {
    paymentId: uuid("payment_id")
      .primaryKey()
      .references(() => payments.id),
    reference: text("reference").notNull().unique(),
    /** The newest finalized signature read for the reference: the next poll asks only for newer ones (`until`). */
    lastSignature: text("last_signature"),
    /** When the watcher last asked the node about the reference: older payments are asked less often. */
    checkedAt: timestamp("checked_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("solana_references_checked_at_idx").on(t.checkedAt)],
);

/**
 * Money that reached a business's Solana wallet (or its token account) in a successful finalized
 * transaction carrying no payment's reference, and that matched no single open charge by amount:
 * kept for the merchant to review (the dashboard lists them).
 */
export const solanaUnmatched = pgTable(
  "solana_unmatched",
  {
    signature: text("signature").notNull(),
    businessId: bigint("business_id", { mode: "number" })
      .notNull()
      .references(() => businesses.id),
    /** SOLANA for lamports, else the coin whose configured mint it is. */
    coin: text("coin").notNull(),
    amount: text("amount").notNull(),
    slot: bigint("slot", { mode: "number" }).notNull(),
    seenAt: timestamp("seen_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.signature, t.businessId, t.coin] }), index("solana_unmatched_business_idx").on(t.businessId, t.seenAt)],
);

export type SolanaReferenceRow = typeof solanaReferences.$inferSelect;
