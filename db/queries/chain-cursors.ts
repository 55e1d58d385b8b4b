import { and, eq, gte, isNull, lt, or } from "drizzle-orm";
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
 * Returns whether it moved.
 */
export async function advanceChainCursor(
  tx: Tx,
  chain: string,
  owner: string,
  cursor: { network: string; height: number; blockHash: string; recent?: SeenBlock[] },
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .update(chainCursors)
    .set({ ...cursor, updatedAt: now })
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

export async function listChainCursors(tx: Tx): Promise<ChainCursorRow[]> {
  return tx.select().from(chainCursors).orderBy(chainCursors.chain);
}
