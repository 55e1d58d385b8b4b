import { and, eq, gte, isNull, lt, or, sql } from "drizzle-orm";
import type { Tx } from "../client";
import { chainCursors, type ChainCursorRow, type SeenBlock } from "../schema";

/**
 * Takes or renews `chain`'s lease for `owner` until `now + ttlMs`, when nobody else holds an
 * unexpired one: a conditional UPDATE, so of two instances asking at once exactly one gets it.
 * Returns the cursor when `owner` holds the lease, undefined otherwise.
 */
export async function claimChainLease(
  tx: Tx,
  chain: string,
  network: string,
  owner: string,
  now: Date,
  ttlMs: number,
): Promise<ChainCursorRow | undefined> {
  await tx.insert(chainCursors).values({ chain, network, updatedAt: now }).onConflictDoNothing();
  const [row] = await tx
    .update(chainCursors)
    .set({ leaseOwner: owner, leaseUntil: new Date(now.getTime() + ttlMs) })
    .where(
      and(
        eq(chainCursors.chain, chain),
        or(isNull(chainCursors.leaseOwner), eq(chainCursors.leaseOwner, owner), lt(chainCursors.leaseUntil, now)),
      ),
    )
    .returning();
  return row;
}

/**
 * Moves the cursor to the block at `height` with `blockHash`, only while `owner` holds the lease:
 * an instance whose lease lapsed (paused, partitioned) cannot move a cursor another now follows.
 * With `renewMs` the lease is renewed too, so a catch-up longer than a lease keeps it while it
 * makes progress. Returns whether it moved.
 */
export async function advanceChainCursor(
  tx: Tx,
  chain: string,
  owner: string,
  cursor: { network: string; height: number; blockHash: string; recent?: SeenBlock[] },
  now: Date,
  renewMs?: number,
): Promise<boolean> {
  const rows = await tx
    .update(chainCursors)
    .set({ ...cursor, updatedAt: now, ...(renewMs !== undefined && { leaseUntil: new Date(now.getTime() + renewMs) }) })
    .where(and(eq(chainCursors.chain, chain), eq(chainCursors.leaseOwner, owner), gte(chainCursors.leaseUntil, now)))
    .returning({ chain: chainCursors.chain });
  return rows.length === 1;
}

/** Gives the lease up (a clean stop), so another instance need not wait for it to lapse. */
export async function releaseChainLease(tx: Tx, chain: string, owner: string): Promise<void> {
  await tx
    .update(chainCursors)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(and(eq(chainCursors.chain, chain), eq(chainCursors.leaseOwner, owner)));
}

/** What a successful tick saw, written by the lease holder: the node's network and tip. */
export type ChainTick = { network: string; chainId: number | null; tip: number; coins: string[] };

/**
 * Records a successful tick of `owner`, the lease holder: the node's network, tip and the coins
 * the chain serves; `tipChangedAt` moves only when the tip does, so a node that stops advancing
 * shows as stalled. Returns whether it was written (the lease still held).
 */
export async function recordChainTick(tx: Tx, chain: string, owner: string, tick: ChainTick, now: Date): Promise<boolean> {
  const rows = await tx
    .update(chainCursors)
    .set({
      network: tick.network,
      chainId: tick.chainId,
      tip: tick.tip,
      coins: tick.coins,
      tipChangedAt: sql`case when ${chainCursors.tip} is distinct from ${tick.tip} or ${chainCursors.tipChangedAt} is null then ${now.toISOString()}::timestamptz else ${chainCursors.tipChangedAt} end`,
      tickedAt: now,
    })
    .where(and(eq(chainCursors.chain, chain), eq(chainCursors.leaseOwner, owner)))
    .returning({ chain: chainCursors.chain });
  return rows.length === 1;
}

/**
 * Records a failed tick (the node unreachable, a refused answer). Written unless another instance
 * holds the chain's lease: its ticks, not this instance's view of the node, are the chain's state.
 * The row is made when missing, with the network still unknown.
 */
export async function recordChainError(tx: Tx, chain: string, owner: string, message: string, now: Date): Promise<void> {
  await tx.insert(chainCursors).values({ chain, network: "unknown", updatedAt: now }).onConflictDoNothing();
  await tx
    .update(chainCursors)
    .set({ lastError: message.slice(0, 1000), lastErrorAt: now })
    .where(and(eq(chainCursors.chain, chain), or(isNull(chainCursors.leaseOwner), eq(chainCursors.leaseOwner, owner), lt(chainCursors.leaseUntil, now))));
}

/**
 * Forgets where the watcher was: the node now serves another network than the cursor's (the
 * operator pointed the service at another node), so its heights and hashes mean nothing there.
 * The next tick starts at the new node's tip.
 */
export async function resetChainCursor(tx: Tx, chain: string, network: string, now: Date): Promise<void> {
  await tx
    .update(chainCursors)
    .set({ network, height: null, blockHash: null, recent: [], tip: null, tipChangedAt: null, updatedAt: now })
    .where(eq(chainCursors.chain, chain));
}

export async function listChainCursors(tx: Tx): Promise<ChainCursorRow[]> {
  return tx.select().from(chainCursors).orderBy(chainCursors.chain);
}
