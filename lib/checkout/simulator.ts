import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { confirmTransfers, findCharge, insertTransfer, listTransfers, updateTransfers } from "@/db/queries/charges";
import type { PaymentRow } from "@/db/schema";
import { loadForUpdate } from "@/lib/payments/lock";
import { selectCoin } from "@/lib/checkout/select";
import { conflict, invalidField, notFound } from "@/lib/http/errors";
import { isTerminal } from "@/domain/transitions";
import { toBaseUnits } from "@/domain/amounts";
import type { CoinName } from "@/domain/coins";
import { decideStatus } from "@/lib/payments/detection";
import { detectionInput } from "@/lib/payments/detection-input";
import { reconcileLocked } from "@/lib/payments/reconcile";
import { inTransaction } from "@/db/transaction";

export type SimulateAction =
  | { action: "select"; coin: string }
  | { action: "pay"; amount?: number; confirmations?: number }
  | { action: "confirm"; confirmations?: number }
  | { action: "fail" };

/** Simulated block heights start here so they look like a chain's, not like row numbers. */
const GENESIS_HEIGHT = 800_000;

/**
 * The test-mode chain (design §5). It only produces transfers and confirmations — what a node
 * would report — and then runs the same watcher step a real chain uses, in the same transaction
 * (`reconcileLocked`), so the status is decided by the detection logic, never by the simulator.
 */
export async function simulate(db: Db, paymentId: string, input: SimulateAction): Promise<PaymentRow> {
  if (input.action === "select") return selectCoin(db, paymentId, input.coin);
  return inTransaction(db, async (tx) => {
    const { payment, business } = await loadForUpdate(tx, paymentId);
    if (business.mode !== "test") throw notFound(`No payment ${paymentId} exists.`);
    const charge = await findCharge(tx, paymentId);
    if (!charge) throw conflict("No coin has been selected yet: select one before paying.");
    const existing = await listTransfers(tx, paymentId);
    const now = new Date();
    if (input.action === "pay") {
      let amount: bigint;
      if (input.amount !== undefined) {
        try {
          amount = toBaseUnits(charge.coin as CoinName, input.amount);
        } catch (e) {
          throw invalidField("amount", (e as Error).message);
        }
        if (amount <= 0n) throw invalidField("amount", "must be greater than 0");
      } else {
        const d = decideStatus(detectionInput(payment, charge, existing));
        amount = d.due > 0n ? d.due : BigInt(charge.quotedUnits);
      }
      const confirmations = input.confirmations ?? 0;
      await insertTransfer(tx, {
        paymentId,
        txId: randomBytes(32).toString("hex"),
        amount: amount.toString(),
        confirmations,
        blockNumber: confirmations > 0 ? String(GENESIS_HEIGHT + existing.length) : null,
        fromAddress: null,
        toAddress: charge.address,
        late: isTerminal(payment.status),
        seenAt: now,
        updatedAt: now,
      });
      return reconcileLocked(tx, payment, business, now);
    }
    const live = existing.filter((t) => !t.dropped);
    if (live.length === 0) throw conflict("There is no transfer to act on: pay first.");
    if (input.action === "confirm") {
      const add = input.confirmations ?? charge.requiredConfirmations;
      await confirmTransfers(tx, paymentId, add, String(GENESIS_HEIGHT));
    } else {
      await updateTransfers(tx, paymentId, { dropped: true });
    }
    return reconcileLocked(tx, payment, business, now);
  });
}
