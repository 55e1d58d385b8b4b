import { bigint, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";

/**
 * A live business's Monero wallet as the merchant gave it: the primary address, the private
 * view key and the height to scan from. The view key reveals the wallet's incoming payments but
 * cannot spend; it is a secret all the same (kept like the webhook signing secrets: readable by
 * the service, never returned by the API, never logged). The service makes one view-only wallet
 * from it in monero-wallet-rpc (`walletFile`, in the wallet-rpc's --wallet-dir) and one
 * subaddress there per payment (the charge's derivation index is its minor index).
 */
export const moneroWallets = pgTable("monero_wallets", {
  businessId: bigint("business_id", { mode: "number" })
    .primaryKey()
    .references(() => businesses.id),
  primaryAddress: text("primary_address").notNull(),
  privateViewKey: text("private_view_key").notNull(),
  restoreHeight: integer("restore_height").notNull(),
  /** The view-only wallet's file name in the wallet-rpc's directory; a new key makes a new file. */
  walletFile: text("wallet_file").notNull(),
  /** When the wallet-rpc made the file (null: made at the first payment that needs it). */
  walletCreatedAt: timestamp("wallet_created_at", { withTimezone: true, precision: 3 }),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
});

export type MoneroWalletRow = typeof moneroWallets.$inferSelect;
