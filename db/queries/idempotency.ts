import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../client";
import { idempotencyKeys } from "../schema";

export const IDEMPOTENCY_TTL_HOURS = 24;

/**
 * Claims a key for this request, storing the response it will get (the caller knows it before
 * doing the work, and the claim commits or rolls back with that work). A concurrent claim of the
 * same key blocks on the primary key until the first transaction ends, then sees its stored
 * result. A key older than the TTL is taken over as new. Returns true when this request owns the key.
 */
export async function claimIdempotencyKey(
  tx: Tx,
  row: { businessId: number; key: string; requestHash: string; createdAt: Date },
  response: unknown,
  responseStatus = 200,
): Promise<boolean> {
  const claimed = await tx
    .insert(idempotencyKeys)
    .values({ ...row, responseStatus, responseBody: response })
    .onConflictDoUpdate({
      target: [idempotencyKeys.businessId, idempotencyKeys.key],
      set: { requestHash: row.requestHash, createdAt: row.createdAt, responseStatus, responseBody: response },
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
