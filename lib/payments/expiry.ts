import type { Db } from "@/db/client";
import { lockDuePayment, lockDuePayments } from "@/db/queries/payments-status";
import { transition, transitionMany } from "./state-machine";
import { inTransaction } from "@/db/transaction";

const EXPIRABLE = ["AWAITING_PAYMENT", "UNDERPAID"] as const;

/**
 * D2/D3: payments still awaiting (or underpaid) at `expiresAt` become EXPIRED. Rows are claimed
 * with `FOR UPDATE SKIP LOCKED` in batches, and each batch goes through the state machine's
 * conditional update (`transitionMany`, one statement per batch), so concurrent sweepers,
 * retries and a payment racing the expiry all leave one consistent outcome. Returns how many
 * payments expired.
 */
export async function expireDuePayments(db: Db, now = new Date(), batchSize = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await inTransaction(db, async (tx) => {
      const due = await lockDuePayments(tx, EXPIRABLE, now, batchSize);
      // One statement for the batch; the rows are locked, so none changes underneath it.
      const moved = await transitionMany(
        tx,
        due.map((p) => ({ payment: p, at: p.expiresAt > now ? now : p.expiresAt })),
        "EXPIRED",
      );
      return { n: moved.length, claimed: due.length };
    });
    total += expired.n;
    if (expired.claimed < batchSize) return total;
  }
}

/** Expires one payment if it is due (Inngest's per-payment function calls this). */
export async function expirePaymentIfDue(db: Db, paymentId: string, now = new Date()): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const p = await lockDuePayment(tx, paymentId, EXPIRABLE, now);
    if (!p) return false;
    await transition(tx, p, "EXPIRED", { at: p.expiresAt });
    return true;
  });
}
