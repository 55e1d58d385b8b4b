import { sql, type SQL } from "drizzle-orm";
import { bigserial, boolean, index, integer, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { payments } from "./payments";

/** Coin amounts are integer base units (satoshi, wei, sun, …): numeric(78,0) holds any uint256. */
const baseUnits = (name: string) => numeric(name, { precision: 78, scale: 0 });

/**
 * The charge a customer's coin selection creates (D8): the quoted coin amount at a locked rate
 * and the deposit address. One per payment; re-selection (allowed while nothing is paid)
 * replaces it.
 */
export const charges = pgTable(
  "charges",
  {
    paymentId: uuid("payment_id")
      .primaryKey()
      .references(() => payments.id),
    coin: text("coin").notNull(),
    chargeType: text("charge_type").notNull(),
    network: text("network"),
    address: text("address").notNull(),
    derivationScope: text("derivation_scope"),
    derivationIndex: integer("derivation_index"),
    walletName: text("wallet_name"),
    quotedUnits: baseUnits("quoted_units").notNull(),
    /** Currency units per whole coin, as the rate source gave it. */
    exchangeRate: numeric("exchange_rate", { precision: 38, scale: 18 }).notNull(),
    rateSource: text("rate_source").notNull(),
    /** When the rate's inputs were read (the oldest of them): the quote is never fresher than this. */
    rateFetchedAt: timestamp("rate_fetched_at", { withTimezone: true, precision: 3 }),
    /** USD per one unit of the payment's currency, locked with the rate: netAmountUsd is settled at it. */
    usdPerCurrencyUnit: numeric("usd_per_currency_unit"),
    requiredConfirmations: integer("required_confirmations").notNull(),
    /** The business's underpayment tolerance when the quote was made, locked like the rate. */
    tolerancePercent: numeric("tolerance_percent", { precision: 7, scale: 4 }).notNull().default("0"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
    /**
     * When the charge was made or last replaced, by the database's clock (one clock for every
     * instance): the chain watchers keep their watch set between ticks and read only the charges
     * changed since their last read (db/queries/chain-watch.ts, `chargesChangedSince`).
     */
    changedAt: timestamp("changed_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("charges_address_idx").on(t.network, t.address), index("charges_changed_at_idx").on(t.changedAt)],
);

/** Transfers seen on a charge's address (from the simulator or a chain watcher). */
export const transfers = pgTable(
  "transfers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    /** The transfer's identity on its chain, recorded once: an outpoint (`hash:vout`), a transaction hash, or `hash:logIndex` for a token log. */
    txId: text("tx_id").notNull(),
    /** The transaction's hash, what an explorer finds and what the Payment record calls a Transaction's `id`. */
    txHash: text("tx_hash")
      .notNull()
      .generatedAlwaysAs((): SQL => sql`split_part(${transfers.txId}, ':', 1)`),
    amount: baseUnits("amount").notNull(),
    confirmations: integer("confirmations").notNull().default(0),
    blockNumber: text("block_number"),
    /** The hash of the block it was seen in (real chains): compared with the node's to notice a reorganisation. */
    blockHash: text("block_hash"),
    fromAddress: text("from_address"),
    toAddress: text("to_address").notNull(),
    dropped: boolean("dropped").notNull().default(false),
    /** Arrived after the payment reached a terminal status: recorded, no status change. */
    late: boolean("late").notNull().default(false),
    seenAt: timestamp("seen_at", { withTimezone: true, precision: 3 }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
    /**
     * What the transaction uses up, so that another transaction using one of them means this one
     * will never be mined (real chains): the outpoints it spends (Bitcoin family, `txid:vout`),
     * or its sender and nonce (Ethereum, `0xsender:nonce`). Null when unknown (the simulator).
     */
    spends: text("spends").array(),
    /**
     * Why the money cannot count yet whatever its confirmations (a Monero transfer whose sender
     * locked it with `unlock_time`): shown with the transfer, and it never completes a payment.
     */
    held: text("held"),
  },
  (t) => [uniqueIndex("transfers_payment_tx_uq").on(t.paymentId, t.txId)],
);

/** Next derivation index per scope (`test:BTC` shared by all test businesses, `b:<id>:BTC` per live business). */
export const addressCounters = pgTable("address_counters", {
  scope: text("scope").primaryKey(),
  nextIndex: integer("next_index").notNull(),
});

export type ChargeRow = typeof charges.$inferSelect;
export type TransferRow = typeof transfers.$inferSelect;
