import type { Tx } from "@/db/client";
import { findBusiness } from "@/db/queries/businesses";
import { lockPayment } from "@/db/queries/payments-status";
import type { Business, PaymentRow } from "@/db/schema";
import { notFound } from "@/lib/http/errors";

/** A payment with its business, locked for update when a customer action or the watcher changes it. */
export async function loadForUpdate(tx: Tx, paymentId: string): Promise<{ payment: PaymentRow; business: Business }> {
  const payment = await lockPayment(tx, paymentId);
  if (!payment) throw notFound(`No payment ${paymentId} exists.`);
  const business = await findBusiness(tx, payment.onBehalfOfBusinessId ?? payment.businessId);
  if (!business) throw notFound(`No payment ${paymentId} exists.`);
  return { payment, business };
}
