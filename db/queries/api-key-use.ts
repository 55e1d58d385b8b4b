import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { Tx } from "../client";
import { apiKeys } from "../schema";

/**
 * Records that the key was used at `at`, unless a use within `minIntervalMs` before it is
 * already recorded (by this instance or another): a conditional UPDATE, so instances sharing a
 * database write a busy key's row at most about once per interval. True when it wrote.
 */
export async function touchApiKeyUse(tx: Tx, keyId: string, at: Date, minIntervalMs: number): Promise<boolean> {
  const rows = await tx
    .update(apiKeys)
    .set({ lastUsedAt: at })
    .where(
      and(
        eq(apiKeys.id, keyId),
        or(isNull(apiKeys.lastUsedAt), lte(apiKeys.lastUsedAt, new Date(at.getTime() - minIntervalMs))),
      ),
    )
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

/** When each of the business's keys was last used (null: never), by key id. */
export async function apiKeyLastUses(tx: Tx, ownerBusinessId: number): Promise<Map<string, Date | null>> {
  const rows = await tx
    .select({ id: apiKeys.id, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(eq(apiKeys.ownerBusinessId, ownerBusinessId));
  return new Map(rows.map((r) => [r.id, r.lastUsedAt]));
}
