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
async function readApiKeyWithBusiness(tx: Tx, keyId: string, businessId: number) {
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

type Credentials = Awaited<ReturnType<typeof readApiKeyWithBusiness>>;

/**
 * How long an instance may answer from its own copy of a key row and business. Changes made
 * through this process (the admin API) clear the copies at once; another instance, or a row
 * changed directly in the database, is seen within this time. The read costs a database round
 * trip on every API request otherwise: a third of a fetch's work (docs/performance.md).
 */
export const CREDENTIALS_CACHE_MS = 1000;
const CACHE_MAX = 10_000;

// On globalThis: the admin routes that clear it and the API routes that fill it may be bundled
// apart by Next, and a module-level Map would then exist once per bundle.
const g = globalThis as unknown as {
  __paymentsCredentials?: { entries: Map<string, { at: number; value: Credentials }>; generation: number };
};
const cache = (g.__paymentsCredentials ??= { entries: new Map(), generation: 0 });

/** The key's row and the addressed business, as `readApiKeyWithBusiness`, at most CREDENTIALS_CACHE_MS old. */
export async function findApiKeyWithBusiness(tx: Tx, keyId: string, businessId: number): Promise<Credentials> {
  const id = `${keyId} ${businessId}`;
  // performance.now(): monotonic, and untouched by tests that fake Date.
  const now = performance.now();
  const hit = cache.entries.get(id);
  if (hit && now - hit.at < CREDENTIALS_CACHE_MS) return hit.value;
  const generation = cache.generation;
  const value = await readApiKeyWithBusiness(tx, keyId, businessId);
  // A change committed while this read was in flight cleared the cache; keep nothing it may predate.
  if (generation === cache.generation) {
    if (cache.entries.size >= CACHE_MAX) cache.entries.clear();
    cache.entries.set(id, { at: now, value });
  }
  return value;
}

/** Drops every remembered key and business: call after any change to either. */
export function forgetCredentials(): void {
  cache.generation++;
  cache.entries.clear();
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
  forgetCredentials();
  return row;
}
