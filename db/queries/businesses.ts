import { count, eq } from "drizzle-orm";
import type { Tx } from "../client";
import { businesses, type Business } from "../schema";
import { forgetCredentials } from "./api-keys";

export async function insertBusiness(tx: Tx, row: typeof businesses.$inferInsert): Promise<Business> {
  const [created] = await tx.insert(businesses).values(row).returning();
  forgetCredentials();
  return created;
}

export async function findBusiness(tx: Tx, id: number): Promise<Business | undefined> {
  const [row] = await tx.select().from(businesses).where(eq(businesses.id, id)).limit(1);
  return row;
}

export async function updateBusiness(tx: Tx, id: number, patch: Partial<typeof businesses.$inferInsert>) {
  const [row] = await tx
    .update(businesses)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(businesses.id, id))
    .returning();
  forgetCredentials();
  return row;
}

export async function countBusinesses(tx: Tx): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(businesses);
  return row.n;
}
