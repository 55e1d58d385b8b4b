import { and, eq, notExists } from "drizzle-orm";
import type { Tx } from "../client";
import { brandLogos, businesses, type BrandLogo } from "../schema";

/** Stores a logo under its SHA-256; the same bytes stored again (another business, a re-upload) are one row. */
export async function storeBrandLogo(tx: Tx, row: { sha256: string; contentType: string; content: Buffer }): Promise<void> {
  await tx.insert(brandLogos).values(row).onConflictDoNothing({ target: brandLogos.sha256 });
}

export async function findBrandLogo(tx: Tx, sha256: string): Promise<BrandLogo | undefined> {
  const [row] = await tx.select().from(brandLogos).where(eq(brandLogos.sha256, sha256)).limit(1);
  return row;
}

/** Deletes the logo unless a business still shows it (call after pointing a business elsewhere). */
export async function deleteBrandLogoIfUnused(tx: Tx, sha256: string): Promise<void> {
  const used = tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.logoSha256, sha256));
  await tx.delete(brandLogos).where(and(eq(brandLogos.sha256, sha256), notExists(used)));
}
