import { z } from "zod";
import type { Db } from "@/db/client";
import { paymentChangeMark, paymentsChangeMark } from "@/db/queries/dashboard-changes";
import { authorize } from "@/lib/accounts/authorize";
import { notFound } from "@/lib/http/errors";

/*
 * What the dashboard's open pages poll to refresh themselves: a mark that changes when the page's
 * data may have (db/queries/dashboard-changes.ts), for a member of the business. The payments
 * list and the overview watch the business's payments; a payment's page watches that payment.
 */

const PaymentId = z.uuid();

/** The mark of the business's payments, or of one of them (`paymentId`): 404 for anyone else and any other id. */
export async function changeMark(db: Db, userId: string, businessId: unknown, paymentId?: unknown): Promise<string> {
  const { business } = await authorize(db, userId, businessId, "view");
  if (paymentId === undefined || paymentId === null) return paymentsChangeMark(db, business);
  const id = PaymentId.safeParse(paymentId);
  const mark = id.success ? await paymentChangeMark(db, business, id.data) : null;
  if (mark === null) throw notFound(`No payment ${String(paymentId).slice(0, 80)} exists for this business.`);
  return mark;
}
