import { and, asc, count, eq, gte, inArray, isNotNull, sql } from "drizzle-orm";
import type { Tx } from "../client";
import { businesses, webhookDeliveries, webhookEndpoints, type WebhookEndpointRow } from "../schema";

export async function listEndpoints(tx: Tx, businessId: number): Promise<WebhookEndpointRow[]> {
  return tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.businessId, businessId)).orderBy(asc(webhookEndpoints.id));
}

/** Locks the business's row for the transaction: its endpoints are counted and added one writer at a time. */
export async function lockBusinessEndpoints(tx: Tx, businessId: number): Promise<void> {
  await tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, businessId)).for("no key update");
}

export async function countEndpoints(tx: Tx, businessId: number): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.businessId, businessId));
  return row.n;
}

export async function findEndpoint(tx: Tx, businessId: number, id: number): Promise<WebhookEndpointRow | undefined> {
  const [row] = await tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.businessId, businessId)))
    .limit(1);
  return row;
}

export async function findEndpointsByIds(tx: Tx, ids: number[]): Promise<WebhookEndpointRow[]> {
  if (ids.length === 0) return [];
  return tx.select().from(webhookEndpoints).where(inArray(webhookEndpoints.id, ids));
}

export async function insertEndpoint(tx: Tx, row: typeof webhookEndpoints.$inferInsert): Promise<WebhookEndpointRow> {
  const [created] = await tx.insert(webhookEndpoints).values(row).returning();
  return created;
}

export async function updateEndpoint(
  tx: Tx,
  businessId: number,
  id: number,
  patch: Partial<typeof webhookEndpoints.$inferInsert> & { updatedAt: Date },
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await tx
    .update(webhookEndpoints)
    .set(patch)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.businessId, businessId)))
    .returning();
  return row;
}

export async function deleteEndpoint(tx: Tx, businessId: number, id: number): Promise<WebhookEndpointRow | undefined> {
  const [row] = await tx
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.businessId, businessId)))
    .returning();
  return row;
}

/**
 * Records an attempt's outcome on its endpoint in one statement: a success ends a failing
 * streak; a failure starts one (or continues it), and a streak of `disableAfterMs` or more
 * disables the endpoint. Answers the endpoint when this attempt disabled it, else undefined.
 */
export async function noteEndpointAttempt(
  tx: Tx,
  id: number,
  ok: boolean,
  at: Date,
  disableAfterMs: number,
): Promise<WebhookEndpointRow | undefined> {
  if (ok) {
    // Only an endpoint that was failing changes: a healthy one's row is not rewritten per delivery.
    await tx
      .update(webhookEndpoints)
      .set({ failingSince: null })
      .where(and(eq(webhookEndpoints.id, id), isNotNull(webhookEndpoints.failingSince)));
    return undefined;
  }
  const since = sql`coalesce(${webhookEndpoints.failingSince}, ${at.toISOString()}::timestamptz)`;
  const due = sql`(${webhookEndpoints.enabled} and ${since} <= ${new Date(at.getTime() - disableAfterMs).toISOString()}::timestamptz)`;
  const [row] = await tx
    .update(webhookEndpoints)
    .set({
      failingSince: sql`${since}`,
      enabled: sql`case when ${due} then false else ${webhookEndpoints.enabled} end`,
      disabledReason: sql`case when ${due} then 'failing' else ${webhookEndpoints.disabledReason} end`,
      disabledAt: sql`case when ${due} then ${at.toISOString()}::timestamptz else ${webhookEndpoints.disabledAt} end`,
      updatedAt: sql`case when ${due} then ${at.toISOString()}::timestamptz else ${webhookEndpoints.updatedAt} end`,
    })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  return row && !row.enabled && row.disabledAt?.getTime() === at.getTime() && row.disabledReason === "failing" ? row : undefined;
}

/**
 * Stops the scheduled attempts of an endpoint's pending deliveries (it was disabled or
 * deleted): they become `failed`, which a recovery can queue again. Returns how many.
 */
export async function holdEndpointDeliveries(tx: Tx, endpointId: number, at: Date): Promise<number> {
  const rows = await tx
    .update(webhookDeliveries)
    .set({ status: "failed", nextAttemptAt: null, updatedAt: at })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

/**
 * Recovery: the endpoint's failed deliveries created at or after `since` are due again now,
 * with a fresh retry schedule and their message ids kept (receivers dedupe on them).
 */
export async function requeueEndpointDeliveries(
  tx: Tx,
  endpointId: number,
  since: Date,
  at: Date,
): Promise<{ id: number; messageId: string; paymentId: string | null }[]> {
  return tx
    .update(webhookDeliveries)
    .set({ status: "pending", attempts: 0, nextAttemptAt: at, lockedUntil: null, updatedAt: at })
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.status, "failed"),
        gte(webhookDeliveries.createdAt, since),
      ),
    )
    .returning({ id: webhookDeliveries.id, messageId: webhookDeliveries.messageId, paymentId: webhookDeliveries.paymentId });
}
