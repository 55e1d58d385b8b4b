import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { executeRows, type Tx } from "../client";
import type { PaymentStatus } from "@/domain/statuses";
import { businesses, charges, moneroWallets, payments, transfers, type MoneroWalletRow } from "../schema";
import { chargesWithBusiness, liveCharges } from "./chain-watch";

export async function findMoneroWallet(tx: Tx, businessId: number): Promise<MoneroWalletRow | undefined> {
  const [row] = await tx.select().from(moneroWallets).where(eq(moneroWallets.businessId, businessId)).limit(1);
  return row;
}

/** Sets a business's Monero keys; a new key names a new wallet file (the old one holds another wallet's outputs). */
export async function putMoneroWallet(tx: Tx, row: Omit<MoneroWalletRow, "walletCreatedAt">): Promise<MoneroWalletRow> {
  const [out] = await tx
    .insert(moneroWallets)
    .values({ ...row, walletCreatedAt: null })
    .onConflictDoUpdate({ target: moneroWallets.businessId, set: { ...row, walletCreatedAt: null } })
    .returning();
  return out;
}

export async function deleteMoneroWallet(tx: Tx, businessId: number): Promise<void> {
  await tx.delete(moneroWallets).where(eq(moneroWallets.businessId, businessId));
}

export async function markMoneroWalletCreated(tx: Tx, businessId: number, walletFile: string, at: Date): Promise<void> {
  await tx
    .update(moneroWallets)
    .set({ walletCreatedAt: at })
    .where(and(eq(moneroWallets.businessId, businessId), eq(moneroWallets.walletFile, walletFile), isNull(moneroWallets.walletCreatedAt)));
}

/** A watched Monero charge with what its wallet needs: the business's wallet file and the subaddress's minor index. */
export type MoneroCharge = {
  paymentId: string;
  businessId: number;
  address: string;
  index: number;
  walletFile: string;
  requiredConfirmations: number;
  status: PaymentStatus;
};

/**
 * Live businesses' MONERO charges whose payment is open or closed since `lateSince` (money after
 * expiry is recorded as late), each with its business's wallet file: the follower asks each
 * wallet once per tick about all of its subaddresses. A charge made from a wallet file since
 * replaced (new keys) is in no wallet the service opens and is left out.
 */
export async function watchedMoneroCharges(tx: Tx, lateSince: Date): Promise<MoneroCharge[]> {
  return chargesWithBusiness(tx, {
    paymentId: charges.paymentId,
    businessId: businesses.id,
    address: charges.address,
    index: sql<number>`${charges.derivationIndex}`,
    walletFile: moneroWallets.walletFile,
    requiredConfirmations: charges.requiredConfirmations,
    status: sql<PaymentStatus>`${payments.status}`,
  })
    .innerJoin(moneroWallets, and(eq(moneroWallets.businessId, businesses.id), eq(charges.walletName, moneroWallets.walletFile)))
    .where(liveCharges(["MONERO"], lateSince));
}

/** Unconfirmed, undropped transfers of `txIds` to the given payments: what a double-spend seen in the pool drops. */
export async function moneroTransferIds(tx: Tx, paymentIds: string[], txIds: string[]): Promise<number[]> {
  if (!paymentIds.length || !txIds.length) return [];
  const rows = await tx
    .select({ id: transfers.id })
    .from(transfers)
    .where(and(inArray(transfers.paymentId, paymentIds), inArray(transfers.txId, txIds), isNull(transfers.blockNumber), eq(transfers.dropped, false)));
  return rows.map((r) => r.id);
}

/** Holds PostgreSQL's transaction-level lock that serialises sessions on the shared wallet-rpc across instances. */
export async function lockMoneroWalletRpc(tx: Tx): Promise<void> {
  await executeRows(tx, sql`select pg_advisory_xact_lock(hashtext('monero-wallet-rpc'))`);
}
