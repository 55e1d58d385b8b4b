import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "../client";
import { apiKeys } from "../schema";

export async function insertApiKey(tx: Tx, row: typeof apiKeys.$inferInsert) {
  await tx.insert(apiKeys).values(row);
}

export async function findApiKey(tx: Tx, id: string) {
  const [row] = await tx.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
  return row;
}

export async function listApiKeys(tx: Tx, ownerBusinessId: number) {
  return tx.select().from(apiKeys).where(eq(apiKeys.ownerBusinessId, ownerBusinessId)).orderBy(apiKeys.createdAt);
}

/** Returns the revoked row, or undefined when no such live key belongs to the business. */
export async function revokeApiKey(tx: Tx, ownerBusinessId: number, id: string, at: Date) {
  const [row] = await tx
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.ownerBusinessId, ownerBusinessId), isNull(apiKeys.revokedAt)))
    .returning();
  return row;
}
