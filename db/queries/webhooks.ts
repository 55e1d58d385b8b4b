import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, or, sql, count } from "drizzle-orm";
import type { Tx } from "../client";
import { webhookAttempts, webhookDeliveries, type WebhookAttemptRow, type WebhookDeliveryRow } from "../schema";

export async function insertDeliveries(tx: Tx, rows: (typeof webhookDeliveries.$inferInsert)[]): Promise<WebhookDeliveryRow[]> {
  if (rows.length === 0) return [];
  return tx.insert(webhookDeliveries).values(rows).returning();
}

/**
 * Claims up to `limit` due deliveries for `leaseMs`: `FOR UPDATE SKIP LOCKED` lets any number of
 * workers claim at once without sharing a row; the lease lets another worker take a row whose
 * claimer died mid-attempt.
 */
export async function claimDueDeliveries(tx: Tx, now: Date, limit: number, leaseMs: number): Promise<WebhookDeliveryRow[]> {
  const due = tx
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, "pending"),
        lte(webhookDeliveries.nextAttemptAt, now),
        or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, now)),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  return tx
    .update(webhookDeliveries)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs) })
    .where(inArray(webhookDeliveries.id, due))
    .returning();
}

/** Claims one delivery (only when in one of `statuses`) unless another worker holds it. */
export async function claimDelivery(
  tx: Tx,
  id: number,
  now: Date,
  leaseMs: number,
  statuses: WebhookDeliveryRow["status"][] = ["pending"],
): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await tx
    .update(webhookDeliveries)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs) })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        inArray(webhookDeliveries.status, statuses),
        or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, now)),
      ),
    )
    .returning();
  return row;
}

/**
 * Records an attempt and the delivery's new state, releasing the claim, in ONE statement (a
 * data-modifying CTE: atomic without a transaction's round trips). `scheduled` attempts count
 * towards the D5 schedule (`attempts`); an operator's manual redelivery does not use up a retry.
 */
export async function recordAttempt(
  tx: Tx,
  attempt: typeof webhookAttempts.$inferInsert,
  set: Pick<WebhookDeliveryRow, "status" | "nextAttemptAt" | "lastAttemptAt" | "lastStatusCode"> & { url?: string },
  scheduled = true,
): Promise<WebhookDeliveryRow> {
  const inserted = tx.$with("attempt").as(tx.insert(webhookAttempts).values(attempt).returning({ id: webhookAttempts.id }));
  const [row] = await tx
    .with(inserted)
    .update(webhookDeliveries)
    .set({
      ...set,
      attempts: scheduled ? sql`${webhookDeliveries.attempts} + 1` : webhookDeliveries.attempts,
      lockedUntil: null,
      updatedAt: set.lastAttemptAt!,
    })
    .where(eq(webhookDeliveries.id, attempt.deliveryId))
    .returning();
  return row;
}

export async function findDelivery(tx: Tx, businessId: number, id: number): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await tx
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.businessId, businessId)))
    .limit(1);
  return row;
}

export async function listDeliveries(
  tx: Tx,
  businessId: number,
  f: {
    paymentId?: string;
    endpointId?: number;
    status?: WebhookDeliveryRow["status"];
    limit: number;
    offset: number;
    paymentsOnly?: boolean;
  },
): Promise<{ rows: (WebhookDeliveryRow & { attemptList: WebhookAttemptRow[] })[]; total: number }> {
  const where = and(
    eq(webhookDeliveries.businessId, businessId),
    f.paymentId ? eq(webhookDeliveries.paymentId, f.paymentId) : undefined,
    f.endpointId !== undefined ? eq(webhookDeliveries.endpointId, f.endpointId) : undefined,
    // Test events are the only deliveries without a payment.
    f.paymentsOnly ? isNotNull(webhookDeliveries.paymentId) : undefined,
    f.status ? eq(webhookDeliveries.status, f.status) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    tx
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(f.limit)
      .offset(f.offset),
    tx.select({ total: count() }).from(webhookDeliveries).where(where),
  ]);
  const attempts = rows.length
    ? await tx
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, rows.map((r) => r.id)))
        .orderBy(asc(webhookAttempts.id))
    : [];
  return {
    rows: rows.map((r) => ({ ...r, attemptList: attempts.filter((a) => a.deliveryId === r.id) })),
    total,
  };
}

export async function listAttempts(tx: Tx, deliveryId: number): Promise<WebhookAttemptRow[]> {
  return tx.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(asc(webhookAttempts.id));
}

/** A delivery that is not to be attempted (its endpoint is disabled): failed, unclaimed, with no attempt made. */
export async function holdDelivery(tx: Tx, id: number, at: Date): Promise<WebhookDeliveryRow> {
  const [row] = await tx
    .update(webhookDeliveries)
    .set({ status: "failed", nextAttemptAt: null, lockedUntil: null, updatedAt: at })
    .where(eq(webhookDeliveries.id, id))
    .returning();
  return row;
}

/** Committed state of deliveries by id (the Inngest driver sends an event once its row is visible). */
export type DeliveryState = {
  id: number;
  messageId: string;
  status: "pending" | "succeeded" | "failed";
  nextAttemptAt: Date | null;
  lockedUntil: Date | null;
};

export async function deliveryStates(db: Tx, ids: number[]): Promise<Map<number, DeliveryState>> {
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
