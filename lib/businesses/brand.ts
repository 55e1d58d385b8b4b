import type { Tx } from "@/db/client";
import { deleteBrandLogoIfUnused, findBrandLogo, storeBrandLogo } from "@/db/queries/brand-logos";
import type { BrandLogo, Business } from "@/db/schema";
import type { CheckedLogo } from "./logo";

/*
 * The merchant's brand on the checkout: the name customers see, the logo and the accent colour.
 * The admin API (create and PATCH) and the dashboard's Settings set them; the checkout shows them.
 */

/** Where a logo is served (app/logos/[sha256]/route.ts): by its content's hash, so the URL can be cached for good. */
export function logoPath(sha256: string): string {
  return `/logos/${sha256}`;
}

/** The name the checkout shows: the display name when one is set, else the business's name. */
export function displayNameOf(b: Pick<Business, "name" | "displayName">): string {
  return b.displayName ?? b.name;
}

/** What the checkout shows of the business: nothing beyond these three. */
export function brandOf(b: Business): { displayName: string; logoUrl: string | null; accentColor: string | null } {
  return { displayName: displayNameOf(b), logoUrl: b.logoSha256 ? logoPath(b.logoSha256) : null, accentColor: b.accentColor };
}

/**
 * Stores a checked logo, or nothing for `null`, and returns the value for `businesses.logo_sha256`.
 * The caller points the business at it in the same transaction, then calls `dropReplacedLogo`.
 */
export async function storeLogo(tx: Tx, logo: CheckedLogo | null): Promise<string | null> {
  if (!logo) return null;
  await storeBrandLogo(tx, { sha256: logo.sha256, contentType: logo.contentType, content: logo.content });
  return logo.sha256;
}

/** Deletes the logo a business showed before, once no business shows it (the same bytes may be another's logo). */
export async function dropReplacedLogo(tx: Tx, previous: string | null, next: string | null): Promise<void> {
  if (previous && previous !== next) await deleteBrandLogoIfUnused(tx, previous);
}

/** A stored logo by the SHA-256 of its bytes, or undefined. */
export function findLogo(tx: Tx, sha256: string): Promise<BrandLogo | undefined> {
  return findBrandLogo(tx, sha256);
}
