import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Tx } from "../client";
import type { CoinName } from "@/domain/coins";
import type { PaymentStatus } from "@/domain/statuses";
import { businesses, charges, payments, tonComments, tonUnmatched, tonWallets, transfers } from "../schema";
import { watchedSince } from "./chain-watch";

export type TonWallet = { address: string; testnet: boolean | null };

/** A business's TON wallet (raw address and the testnet flag of the form it was given in), or undefined. */
export async function findTonWallet(tx: Tx, businessId: number): Promise<TonWallet | undefined> {
  const [row] = await tx.select({ address: tonWallets.address, testnet: tonWallets.testnet }).from(tonWallets).where(eq(tonWallets.businessId, businessId)).limit(1);
  return row;
}

/** Sets (or with null removes) a business's TON wallet; another address starts its following afresh. */
export async function setTonWallet(tx: Tx, businessId: number, wallet: TonWallet | null, at: Date): Promise<void> {
  if (wallet === null) {
    await tx.delete(tonWallets).where(eq(tonWallets.businessId, businessId));
    return;
  }
  await tx
    .insert(tonWallets)
    .values({ businessId, address: wallet.address, testnet: wallet.testnet, updatedAt: at })
    .onConflictDoUpdate({
      target: tonWallets.businessId,
      set: { address: wallet.address, testnet: wallet.testnet, updatedAt: at, followed: sql`case when ${tonWallets.address} = ${wallet.address} then ${tonWallets.followed} else '{}'::jsonb end` },
    });
}

/** The payment's TON comment: `fresh` stored when it has none yet, else the one it has. */
export async function claimTonComment(tx: Tx, paymentId: string, fresh: string, at: Date): Promise<string> {
  await tx.insert(tonComments).values({ paymentId, comment: fresh, createdAt: at }).onConflictDoNothing({ target: tonComments.paymentId });
  const [row] = await tx.select({ comment: tonComments.comment }).from(tonComments).where(eq(tonComments.paymentId, paymentId));
  return row.comment;
}

export async function findTonComment(tx: Tx, paymentId: string): Promise<string | undefined> {
  const [row] = await tx.select({ comment: tonComments.comment }).from(tonComments).where(eq(tonComments.paymentId, paymentId));
  return row?.comment;
}

/** The live businesses' TON wallets the watcher follows, with when each was given (an account not read yet is read from then). */
export async function liveTonWallets(tx: Tx): Promise<{ businessId: number; address: string; followed: Record<string, { lt: string; hash: string }>; since: Date }[]> {
  return tx
    .select({ businessId: tonWallets.businessId, address: tonWallets.address, followed: tonWallets.followed, since: tonWallets.updatedAt })
    .from(tonWallets)
    .innerJoin(businesses, eq(businesses.id, tonWallets.businessId))
    .where(eq(businesses.mode, "live"));
}

/** Moves the business's cursor on one followed account (only while its wallet is still `address`). */
export async function setFollowed(tx: Tx, businessId: number, address: string, account: string, at: { lt: string; hash: string }): Promise<void> {
  await tx
    .update(tonWallets)
    .set({ followed: sql`${tonWallets.followed} || jsonb_build_object(${account}::text, ${JSON.stringify(at)}::jsonb)` })
    .where(and(eq(tonWallets.businessId, businessId), eq(tonWallets.address, address)));
}

/** A live TON charge found by its payment's comment. */
export type CommentCharge = { paymentId: string; businessId: number; address: string; coin: CoinName; status: PaymentStatus };

/**
 * The live charge whose payment has `comment`, open or closed since `lateSince` (late money is
 * still the payment's), or undefined: no payment has it, or it is closed for longer.
 */
export async function chargeByComment(tx: Tx, comment: string, lateSince: Date): Promise<CommentCharge | undefined> {
  const [row] = await tx
    .select({ paymentId: charges.paymentId, businessId: businesses.id, address: charges.address, coin: sql<CoinName>`${charges.coin}`, status: payments.status })
    .from(tonComments)
    .innerJoin(charges, eq(charges.paymentId, tonComments.paymentId))
    .innerJoin(payments, eq(payments.id, charges.paymentId))
    .innerJoin(businesses, eq(businesses.id, payments.businessId))
    .where(and(eq(tonComments.comment, comment), eq(businesses.mode, "live"), watchedSince(lateSince)))
    .limit(1);
  return row;
}

/** Keeps money that matched no payment for the merchant's review (once per transaction, business and coin). */
export async function recordTonUnmatched(tx: Tx, row: typeof tonUnmatched.$inferInsert): Promise<void> {
  await tx.insert(tonUnmatched).values(row).onConflictDoNothing();
}

/** The business's TON money awaiting review (neither assigned nor left), newest first. */
export async function listTonUnmatched(tx: Tx, businessId: number) {
  return tx
    .select()
    .from(tonUnmatched)
    .where(and(eq(tonUnmatched.businessId, businessId), isNull(tonUnmatched.resolvedAt)))
    .orderBy(sql`${tonUnmatched.seenAt} desc`);
}

/** One unmatched entry of the business, locked for its review. */
export async function findTonUnmatchedForUpdate(tx: Tx, businessId: number, txHash: string, coin: string) {
  const [row] = await tx
    .select()
    .from(tonUnmatched)
    .where(and(eq(tonUnmatched.businessId, businessId), eq(tonUnmatched.txHash, txHash), eq(tonUnmatched.coin, coin)))
    .for("update");
  return row;
}

/** Closes a review: assigned to `paymentId`, or left (null). */
export async function resolveTonUnmatched(tx: Tx, businessId: number, txHash: string, coin: string, paymentId: string | null, at: Date): Promise<void> {
  await tx
    .update(tonUnmatched)
    .set({ paymentId, resolvedAt: at })
    .where(and(eq(tonUnmatched.businessId, businessId), eq(tonUnmatched.txHash, txHash), eq(tonUnmatched.coin, coin)));
}

/** Which of the transaction hashes a payment already has as a transfer. */
export async function recordedTxIds(tx: Tx, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await tx.select({ txId: transfers.txId }).from(transfers).where(inArray(transfers.txId, [...ids]));
  return new Set(rows.map((r) => r.txId));
}
