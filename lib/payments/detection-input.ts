import type { ChargeRow, PaymentRow, TransferRow } from "@/db/schema";
import type { DetectionInput } from "./detection";

/**
 * The detection function's input from stored rows; late transfers never move a status, and a
 * held one (locked by its sender) counts as seen but never as confirmed.
 */
export function detectionInput(
  payment: Pick<PaymentRow, "status">,
  charge: Pick<ChargeRow, "quotedUnits" | "tolerancePercent" | "requiredConfirmations">,
  transfers: (Pick<TransferRow, "late" | "txId" | "amount" | "confirmations" | "dropped"> & { held?: string | null })[],
): DetectionInput {
  return {
    status: payment.status,
    quoted: BigInt(charge.quotedUnits),
    tolerancePercent: charge.tolerancePercent,
    requiredConfirmations: charge.requiredConfirmations,
    transfers: transfers
      .filter((t) => !t.late)
      .map((t) => ({ txId: t.txId, amount: BigInt(t.amount), confirmations: t.held ? 0 : t.confirmations, dropped: t.dropped })),
  };
}
