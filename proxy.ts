import { NextResponse, type NextRequest } from "next/server";
import { foreignServerAction, isDecodable, NOT_PAGES, securePage, undecodablePath, unreadableForm } from "@/lib/http/page-guard";

/**
 * Runs before routing (lib/http/page-guard.ts): an undecodable path is a 400 wherever it points,
 * a server action from a foreign origin a 403, a form the framework could not read a 400, and
 * each page gets its nonce-based Content-Security-Policy.
 */
export async function proxy(req: NextRequest) {
  if (!isDecodable(req.nextUrl.pathname)) return undecodablePath(req);
  if (NOT_PAGES.test(req.nextUrl.pathname)) return NextResponse.next();
  return foreignServerAction(req) ?? (await unreadableForm(req)) ?? securePage(req);
}

// Pages, and any path with a percent sign (only such a path can fail to decode). The API, the
// checkout's polling route, the merchants' logos and /metrics, /healthz, /readyz (NOT_PAGES) skip the proxy otherwise: it adds ~60% to the server CPU of
// a cached payment read where it runs (docs/performance.md).
export const config = {
  matcher: ["/((?!v1(?:/|$)|admin/v1(?:/|$)|api/|_next/|bench/|pay/[^/]+/state$|logos/|(?:metrics|healthz|readyz)$).*)", "/(.*%.*)"],
};
