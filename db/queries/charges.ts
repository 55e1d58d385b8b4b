import { asc, eq, sql } from "drizzle-orm";
import type { Tx } from "../client";
import { addressCounters, charges, transfers, type ChargeRow, type TransferRow } from "../schema";

/** The next derivation index of a scope, claimed atomically (concurrent selections never share one). */
export async function claimAddressIndex(tx: Tx, scope: string): Promise<number> {
  const [row] = await tx
    .insert(addressCounters)
    .values({ scope, nextIndex: 1 })
    .onConflictDoUpdate({ target: addressCounters.scope, set: { nextIndex: sql`${addressCounters.nextIndex} + 1` } })
    .returning({ next: addressCounters.nextIndex });
  return row.next - 1;
}

export async function upsertCharge(tx: Tx, row: typeof charges.$inferInsert): Promise<ChargeRow> {
  const { paymentId: _id, createdAt: _created, ...update } = row;
  void _id;
  void _created;
  const [out] = await tx
    .insert(charges)
    .values(row)
    // A replaced charge (another coin chosen) is changed again for the chain watchers' watch sets.
    .onConflictDoUpdate({ target: charges.paymentId, set: { ...update, changedAt: sql`now()` } })
    .returning();
  return out;
}

export async function findCharge(tx: Tx, paymentId: string): Promise<ChargeRow | undefined> {
  const [row] = await tx.select().from(charges).where(eq(charges.paymentId, paymentId)).limit(1);
  return row;
}

export async function listTransfers(tx: Tx, paymentId: string): Promise<TransferRow[]> {
  return tx.select().from(transfers).where(eq(transfers.paymentId, paymentId)).orderBy(asc(transfers.id));
}

export async function insertTransfer(tx: Tx, row: typeof transfers.$inferInsert): Promise<TransferRow> {
  const [out] = await tx.insert(transfers).values(row).returning();
  return out;
}

/** Sets columns of the payment's transfers that still stand (not dropped). */
export async function updateTransfers(
  tx: Tx,
  paymentId: string,
  set: Partial<Pick<TransferRow, "confirmations" | "dropped" | "blockNumber">>,
) {
  await tx
    .update(transfers)
    .set({ ...set, updatedAt: new Date() })
    .where(sql`${transfers.paymentId} = ${paymentId} and not ${transfers.dropped}`);
}

/**
 * Adds `add` confirmations to each of the payment's standing transfers, and gives those not yet
 * in a block the block `blockNumber` (the test-mode chain's confirm).
 */
export async function confirmTransfers(tx: Tx, paymentId: string, add: number, blockNumber: string) {
  await tx
    .update(transfers)
    .set({
      confirmations: sql`${transfers.confirmations} + ${add}`,
      blockNumber: sql`coalesce(${transfers.blockNumber}, ${blockNumber})`,
      updatedAt: new Date(),
    })
    .where(sql`${transfers.paymentId} = ${paymentId} and not ${transfers.dropped}`);
}

