import { NextResponse, type NextRequest } from "next/server";
import { config, type Config } from "@/lib/config";
import { ApiError } from "./errors";
import { isApiTarget } from "./methods.mjs";
import { problemResponse } from "./respond";
import { NON_PAGE_CSP, pageCsp } from "./security-headers.mjs";

/**
 * What the proxy (proxy.ts) does before Next.js renders a page or runs a server action: a path
 * that cannot be percent-decoded is a 400 (the framework's answer would be a bare 500), a server
 * action posted from a foreign origin is a 403 and a form it cannot read a 400 (the framework
 * answers both with a 500), and every page gets its Content-Security-Policy with a fresh nonce.
 */

/**
 * The paths that are not pages, which the proxy's matcher leaves out (proxy.ts; they only reach it
 * with a `%` in the path): the API, Better Auth and Inngest under /api, the checkout's polling
 * route, the merchants' logos, Next.js's own files, the bench route and the operator's /metrics, /healthz
 * and /readyz. Their headers come from next.config.ts.
 */
export const NOT_PAGES = /^\/(?:v1(?:\/|$)|admin\/v1(?:\/|$)|api\/|_next\/|bench\/|pay\/[^/]+\/state$|logos\/|(?:metrics|healthz|readyz)$)/;

/** The checkout page, the one page CHECKOUT_FRAME_ANCESTORS may let other origins frame, and the one page translated. */
const CHECKOUT_PAGE = /^\/pay\/[^/]+\/?$/;

/**
 * Set on the request by the proxy when the page is the checkout, so the language is chosen for it
 * alone (i18n/request.ts); the dashboard stays English. The proxy always rewrites it, so a client
 * cannot set it on another page.
 */
export const CHECKOUT_PAGE_HEADER = "x-checkout-page";

export function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** A small self-contained HTML page for the answers given before Next.js renders anything. */
export function htmlPage(status: number, title: string, text: string): Response {
  const body =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p><p><a href="/">Go to the home page</a></p></main></body></html>`;
  return new Response(body, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "content-security-policy": NON_PAGE_CSP },
  });
}

/** 400 for a path that is not valid percent-encoded UTF-8: a ProblemDetails under the API prefixes and /api, else a page. */
export function undecodablePath(req: NextRequest): Response {
  const detail = "The request path is not valid percent-encoded UTF-8.";
  const { pathname } = req.nextUrl;
  if (isApiTarget(pathname) || pathname.startsWith("/api/")) return problemResponse(req, new ApiError("malformed-request", 400, detail));
  return htmlPage(400, "Bad request", detail);
}

/** The host a server action must come from, as Next.js reads it: the first X-Forwarded-Host, else Host. */
function actionHost(headers: Headers): string | null {
  return headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
}

/**
 * 403 for a server action whose `Origin` is not this host's, else null. The same test as
 * Next.js's CSRF check (its action handler, with no `serverActions.allowedOrigins` configured),
 * on the same requests — a POST carrying an action id, or a multipart form — so it answers exactly
 * those the framework would abort with a 500. No `Origin` passes, as there: a browser always sends
 * one with a POST.
 */
export function foreignServerAction(req: NextRequest): Response | null {
  if (req.method !== "POST") return null;
  const isAction = req.headers.has("next-action") || (req.headers.get("content-type") ?? "").startsWith("multipart/form-data");
  const origin = req.headers.get("origin");
  if (!isAction || origin === null) return null;
  let originHost: string;
  try {
    originHost = origin === "null" ? "null" : new URL(origin).host;
  } catch {
    originHost = ""; // not a URL: from no host at all
  }
  if (originHost && originHost === actionHost(req.headers)) return null;
  return htmlPage(403, "Forbidden", "This form was sent from another site.");
}

/**
 * 400 for a form posted to a page as a server action before hydration (multipart, no action id)
 * whose body is not readable form data, else null: the framework reads it with the same parser
 * and answers its failure with a 500. Forms are small; reading one twice costs little.
 */
export async function unreadableForm(req: NextRequest): Promise<Response | null> {
  if (req.method !== "POST" || req.headers.has("next-action") || !(req.headers.get("content-type") ?? "").startsWith("multipart/form-data")) return null;
  try {
    await req.clone().formData();
    return null;
  } catch {
    return htmlPage(400, "Bad request", "The form data could not be read.");
  }
}

function nonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/** Lets the page render with a fresh nonce: Next.js reads it from the request's policy and puts it on its scripts. */
export function securePage(req: NextRequest, cfg: Pick<Config, "publicBaseUrl" | "checkoutFrameAncestors"> = config()): NextResponse {
  const csp = pageCsp({
    nonce: nonce(),
    dev: process.env.NODE_ENV === "development",
    https: cfg.publicBaseUrl.startsWith("https:"),
    frameAncestors: CHECKOUT_PAGE.test(req.nextUrl.pathname) ? cfg.checkoutFrameAncestors : [],
  });
  const headers = new Headers(req.headers);
  headers.set("content-security-policy", csp);
  if (CHECKOUT_PAGE.test(req.nextUrl.pathname)) headers.set(CHECKOUT_PAGE_HEADER, "1");
  else headers.delete(CHECKOUT_PAGE_HEADER);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("content-security-policy", csp);
  return res;
}
