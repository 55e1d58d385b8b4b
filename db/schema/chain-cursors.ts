import { bigint, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** A block the watcher read: its height and hash. */
export type SeenBlock = { height: number; hash: string };

/**
 * How far each chain's watcher has read, and which service instance follows it. One row per
 * chain (BITCOIN, LITECOIN, BITCOIN_CASH, ETHEREUM, TRON). The watcher reads blocks after `height`;
 * `blockHash` is the hash it read there, compared with the node's on every tick to notice a
 * reorganisation. With several instances on one database, the one holding an unexpired lease
 * follows the chain and the others wait; a lease not renewed lapses, so another instance takes
 * over within a lease's length when its holder dies.
 */
export const chainCursors = pgTable("chain_cursors", {
  chain: text("chain").primaryKey(),
  /** The network the node reported: main, test or regtest (an EVM chain id maps to one of them). */
  network: text("network").notNull(),
  /**
   * An EVM node's chain id (eth_chainId), or TRON's (the last 4 bytes of its genesis block id, up
   * to 2^32: Nile's does not fit an integer); null for the Bitcoin family.
   */
  chainId: bigint("chain_id", { mode: "number" }),
  /** The last block read; null before the first tick (the watcher then starts at the tip). */
  height: integer("height"),
  blockHash: text("block_hash"),
  /**
   * The last blocks read, newest last (at most RECENT_BLOCKS): after a reorganisation the newest
   * of them still on the node's chain is where the two chains forked.
   */
  recent: jsonb("recent").$type<SeenBlock[]>().notNull().default([]),
  leaseOwner: text("lease_owner"),
  leaseUntil: timestamp("lease_until", { withTimezone: true, precision: 3 }),
  /** The node's tip at the last successful tick, and when it last changed (a chain that stops advancing is stalled). */
  tip: integer("tip"),
  /** The coins the chain serves on the node's network (ETHEREUM: Ether and the tokens whose contracts passed their checks). */
  coins: text("coins").array(),
  tipChangedAt: timestamp("tip_changed_at", { withTimezone: true, precision: 3 }),
  /** The follower's last successful tick. */
  tickedAt: timestamp("ticked_at", { withTimezone: true, precision: 3 }),
  /** The follower's last failure (node down, wrong credentials, a refused token contract), kept after it recovers. */
  lastError: text("last_error"),
  lastErrorAt: timestamp("last_error_at", { withTimezone: true, precision: 3 }),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull(),
});

export type ChainCursorRow = typeof chainCursors.$inferSelect;
