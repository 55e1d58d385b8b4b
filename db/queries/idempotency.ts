import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../client";
import { idempotencyKeys } from "../schema";

export const IDEMPOTENCY_TTL_HOURS = 24;

/**
 * Claims a key for this request. A concurrent claim of the same key blocks on the primary key
 * until the first transaction ends, then sees its stored result. A key older than the TTL is
 * taken over as new. Returns true when this request owns the key.
 */
export async function claimIdempotencyKey(
  tx: Tx,
  row: { businessId: number; key: string; requestHash: string; createdAt: Date },
): Promise<boolean> {
  const claimed = await tx
    .insert(idempotencyKeys)
    .values(row)
    .onConflictDoUpdate({
      target: [idempotencyKeys.businessId, idempotencyKeys.key],
      set: { requestHash: row.requestHash, createdAt: row.createdAt, responseStatus: null, responseBody: null },
      setWhere: sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
    })
    .returning({ key: idempotencyKeys.key });
  return claimed.length === 1;
}

export async function findIdempotencyKey(tx: Tx, businessId: number, key: string) {
  const [row] = await tx
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.businessId, businessId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return row;
}

export async function storeIdempotentResponse(tx: Tx, businessId: number, key: string, status: number, body: unknown) {
  await tx
    .update(idempotencyKeys)
    .set({ responseStatus: status, responseBody: body })
    .where(and(eq(idempotencyKeys.businessId, businessId), eq(idempotencyKeys.key, key)));
}
