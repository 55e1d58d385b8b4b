import { bigint, boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { payments } from "./payments";

/**
 * A live business's TON wallet, where every TON payment (Toncoin and the jettons) goes, each told
 * apart by its comment (`ton_comments`). Stored raw (`0:<hex>`); `testnet` is the flag of the
 * user-friendly form it was given in (null for a raw one), checked against the API's network.
 */
export const tonWallets = pgTable("ton_wallets", {
  businessId: bigint("business_id", { mode: "number" })
    .primaryKey()
    .references(() => businesses.id),
  address: text("address").notNull(),
  testnet: boolean("testnet"),
  /**
   * How far the watcher has read each followed account (the wallet, and its jetton wallet for each
   * jetton): `{ "<raw account>": { "lt": "<logical time>", "hash": "<base64>" } }`. The next
   * tick reads only newer transactions.
   */
  followed: jsonb("followed").$type<Record<string, { lt: string; hash: string }>>().notNull().default({}),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
});

/** A payment's TON comment: made when a TON coin is first chosen and kept for the payment. */
export const tonComments = pgTable("ton_comments", {
  paymentId: uuid("payment_id")
    .primaryKey()
    .references(() => payments.id),
  comment: text("comment").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
});

/**
 * Money that reached a business's TON wallet without a comment, or with one no payment of the
 * business has: kept for the merchant's review, who assigns it to a payment (`paymentId`) or
 * leaves it (`resolvedAt` with no payment).
 */
export const tonUnmatched = pgTable(
  "ton_unmatched",
  {
    /** The transaction's hash (hex): the merchant's wallet's, or its jetton wallet's. */
    txHash: text("tx_hash").notNull(),
    businessId: bigint("business_id", { mode: "number" })
      .notNull()
      .references(() => businesses.id),
    /** TON for Toncoin, else the jetton coin whose master's wallet received it. */
    coin: text("coin").notNull(),
    amount: text("amount").notNull(),
    comment: text("comment"),
    sender: text("sender"),
    lt: text("lt").notNull(),
    seenAt: timestamp("seen_at", { withTimezone: true, precision: 3 }).notNull(),
    paymentId: uuid("payment_id").references(() => payments.id),
    resolvedAt: timestamp("resolved_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [primaryKey({ columns: [t.txHash, t.businessId, t.coin] }), index("ton_unmatched_business_idx").on(t.businessId, t.seenAt)],
);

export type TonWalletRow = typeof tonWallets.$inferSelect;
