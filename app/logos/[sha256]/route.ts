import { getDb } from "@/db/client";
import { findLogo } from "@/lib/businesses/brand";
import { otherMethods } from "@/lib/http/route";
import { NON_PAGE_CSP } from "@/lib/http/security-headers.mjs";

const SHA256 = /^[0-9a-f]{64}$/;

/** A year: the address names the bytes' hash, so what it serves never changes. */
const CACHE_FOR_GOOD = "public, max-age=31536000, immutable";

/** Whether an If-None-Match header names `etag` (or is `*`): the browser's copy is current. */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });
}

/**
 * A merchant's checkout logo, by the SHA-256 of its bytes (lib/businesses/brand.ts). Served as
 * the type its content was found to be, with nosniff and a policy that lets it load and run
 * nothing, so even a file that is also valid HTML or script in disguise is only ever an image.
 */
export async function GET(req: Request, ctx: { params: Promise<{ sha256: string }> }) {
  const { sha256 } = await ctx.params;
  const logo = SHA256.test(sha256) ? await findLogo(await getDb(), sha256) : undefined;
  if (!logo) {
    return Response.json(
      { type: "/docs#problem-not-found", title: "Not found", status: 404, detail: "No such logo." },
      { status: 404, headers: { "cache-control": "no-store", "content-type": "application/problem+json; charset=utf-8" } },
    );
  }
  const etag = `"${logo.sha256}"`;
  const caching = { etag, "cache-control": CACHE_FOR_GOOD };
  if (matches(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers: caching });
  return new Response(new Uint8Array(logo.content), {
    headers: {
      ...caching,
      "content-type": logo.contentType,
      "content-length": String(logo.content.byteLength),
      "content-disposition": "inline",
      "x-content-type-options": "nosniff",
      // default-src 'none' (and no framing): the one policy next.config.ts gives every path that is not a page.
      "content-security-policy": NON_PAGE_CSP,
    },
  });
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
