import { inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments, webhookDeliveries } from "@/db/schema";
import type { PaymentStatus } from "@/lib/payments/status";

/*
 * Read-only lookups the Inngest functions and the driver need and `db/queries` does not have yet
 * (there, deliveries are read per business). They only read committed state: the driver uses
 * them to send an event once its row is visible, the functions to tell "not visible yet" from
 * "done elsewhere".
 */

export type DeliveryState = {
  id: number;
  messageId: string;
  status: "pending" | "succeeded" | "failed";
  nextAttemptAt: Date | null;
  lockedUntil: Date | null;
};

export async function deliveryStates(db: Db, ids: number[]): Promise<Map<number, DeliveryState>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      messageId: webhookDeliveries.messageId,
      status: webhookDeliveries.status,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      lockedUntil: webhookDeliveries.lockedUntil,
    })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

export type PaymentState = { id: string; status: PaymentStatus; expiresAt: Date };

export async function paymentStates(db: Db, ids: string[]): Promise<Map<string, PaymentState>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: payments.id, status: payments.status, expiresAt: payments.expiresAt })
    .from(payments)
    .where(inArray(payments.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}
