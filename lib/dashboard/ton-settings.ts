import { z } from "zod";
import type { Db } from "@/db/client";
import { recordChainTransfer } from "@/db/queries/chain-watch";
import { findCharge } from "@/db/queries/charges";
import { findTonUnmatchedForUpdate, findTonWallet, listTonUnmatched, resolveTonUnmatched } from "@/db/queries/ton";
import { inTransaction } from "@/db/transaction";
import { isTerminal } from "@/domain/transitions";
import { authorize } from "@/lib/accounts/authorize";
import { patchBusiness } from "@/lib/businesses/businesses";
import { PatchBusinessSchema } from "@/lib/businesses/schemas";
import { TON_FINAL_CONFIRMATIONS } from "@/lib/chains/ton/follower";
import { invalidField, notFound } from "@/lib/http/errors";
import { parseWith } from "@/lib/http/parse";
import { loadForUpdate } from "@/lib/payments/lock";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { friendlyTonAddress, parseTonAddress } from "@/lib/wallets/ton";

/*
 * The Settings page's TON wallet (owners: `manage-settings`): the admin API's `tonWallet` (its
 * rules in lib/businesses/schemas.ts), and the money that reached it without a comment or with an
 * unknown one (lib/chains/ton/follower.ts): the merchant assigns each to a payment, or leaves it.
 */

export const TON_WALLET_NOTE =
  "Your TON wallet's address, as your wallet shows it to receive Toncoin or USDT (UQ…, EQ…, or raw 0:…). Every TON payment goes straight to it, told apart by the comment the checkout asks the customer to send: money without a known comment waits below for you.";

export type TonReviewView = { txHash: string; coin: string; amount: string; comment: string | null; sender: string | null; seenAt: string };
export type TonSettingsView = { wallet: string | null; note: string; review: TonReviewView[] };

export async function tonSettingsOf(db: Db, userId: string, businessId: unknown): Promise<TonSettingsView> {
  const { business } = await authorize(db, userId, businessId, "manage-settings");
  const wallet = await findTonWallet(db, business.id);
  const review = (await listTonUnmatched(db, business.id)).map((r) => ({ txHash: r.txHash, coin: r.coin, amount: r.amount, comment: r.comment, sender: r.sender, seenAt: r.seenAt.toISOString() }));
  return { wallet: wallet ? (wallet.testnet === null ? wallet.address : friendlyTonAddress(wallet.address, wallet.testnet)) : null, note: TON_WALLET_NOTE, review };
}

const TonWalletInput = z.strictObject({ tonWallet: PatchBusinessSchema.shape.tonWallet.unwrap() });

/** Sets the wallet (an empty string or null removes it). */
export async function saveTonSettings(db: Db, userId: string, businessId: unknown, input: unknown): Promise<{ tonWallet: string | null }> {
  const { business } = await authorize(db, userId, businessId, "manage-settings");
  const { tonWallet } = parseWith(TonWalletInput, input);
  const saved = await patchBusiness(db, business.id, { tonWallet: tonWallet || null });
  return { tonWallet: saved.tonWallet };
}

const ReviewInput = z.strictObject({ txHash: z.string().regex(/^[0-9a-f]{64}$/), coin: z.string().min(1).max(40), paymentId: z.uuid().nullable() });

/**
 * Closes one entry of the review: with `paymentId`, the money becomes a transfer of that payment
 * (a payment of this business whose charge is in the same coin to the same wallet), final as TON
 * is, and the payment's status follows from the detection step like any watcher's transfer;
 * with null it is left, kept as reviewed.
 */
export async function resolveTonReview(db: Db, userId: string, businessId: unknown, input: unknown): Promise<{ assigned: string | null }> {
  const { business } = await authorize(db, userId, businessId, "manage-settings");
  const r = parseWith(ReviewInput, input);
  const now = new Date();
  const assigned = await inTransaction(db, async (tx) => {
    const row = await findTonUnmatchedForUpdate(tx, business.id, r.txHash, r.coin);
    if (!row || row.resolvedAt) throw notFound("No such payment awaits review.");
    if (r.paymentId === null) {
      await resolveTonUnmatched(tx, business.id, r.txHash, r.coin, null, now);
      return null;
    }
    const { payment, business: owner } = await loadForUpdate(tx, r.paymentId);
    const charge = await findCharge(tx, r.paymentId);
    const address = charge && parseTonAddress(charge.address);
    if (owner.id !== business.id || !charge || charge.coin !== r.coin || typeof address !== "object" || address.raw !== (await findTonWallet(tx, business.id))?.address) {
      throw invalidField("paymentId", `must be a payment of this business whose customer chose ${r.coin} to this wallet`);
    }
    await recordChainTransfer(tx, { paymentId: r.paymentId, txId: r.txHash, amount: BigInt(row.amount), toAddress: charge.address, blockNumber: null, blockHash: null, confirmations: TON_FINAL_CONFIRMATIONS, late: isTerminal(payment.status), at: now });
    await resolveTonUnmatched(tx, business.id, r.txHash, r.coin, r.paymentId, now);
    return r.paymentId;
  });
  if (assigned) await reconcilePayment(db, assigned, now);
  return { assigned };
}
