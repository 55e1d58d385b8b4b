import { and, eq, isNull, sql } from "drizzle-orm";
import type { Tx } from "../client";
import { prepared } from "../prepared";
import { apiKeys, businesses } from "../schema";

export async function insertApiKey(tx: Tx, row: typeof apiKeys.$inferInsert) {
  await tx.insert(apiKeys).values(row);
}

/**
 * The key's row and the addressed business in one statement (every API request needs both):
 * undefined when the key is unknown; `business` null when no such business exists.
 */
export async function findApiKeyWithBusiness(tx: Tx, keyId: string, businessId: number) {
  const statement = prepared(tx, "apiKeyWithBusiness", () =>
    tx
      .select({ key: apiKeys, business: businesses })
      .from(apiKeys)
      .leftJoin(businesses, eq(businesses.id, sql.placeholder("businessId")))
      .where(eq(apiKeys.id, sql.placeholder("keyId")))
      .limit(1)
      .prepare("api_key_with_business"),
  );
  const [row] = await statement.execute({ keyId, businessId });
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
