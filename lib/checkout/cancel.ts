import type { Db } from "@/db/client";
import { listTransfers } from "@/db/queries/charges";
import type { PaymentRow } from "@/db/schema";
import { conflict } from "@/lib/http/errors";
import { transition } from "@/lib/payments/state-machine";
import { loadForUpdate } from "@/lib/payments/lock";
import { inTransaction } from "@/db/transaction";

/** The customer gives up before paying anything: AWAITING_PAYMENT → CANCELLED. */
export async function cancelPayment(db: Db, paymentId: string): Promise<PaymentRow> {
  return inTransaction(db, async (tx) => {
    const { payment } = await loadForUpdate(tx, paymentId);
    if ((await listTransfers(tx, paymentId)).length > 0) {
      throw conflict("A transfer has already been received; the payment can no longer be cancelled.");
    }
    return transition(tx, payment, "CANCELLED");
  });
}
