import { clientAddress } from "@/lib/http/client-address";
import type { Config } from "@/lib/config";
import type { Auth } from "./auth";

/*
 * The HTTP face of Better Auth (app/api/auth/[...all]): only the endpoints the product uses are
 * reachable, and Better Auth learns the client's address as lib/http/client-address.ts resolves
 * it, never from a header a client wrote.
 */

export const AUTH_BASE_PATH = "/api/auth";

/**
 * What the browser calls (lib/accounts/client.ts from components/dashboard): the sign-in form and
 * its second step, sign-out, and two-factor set-up on the Security page. Everything else Better
 * Auth serves (update-user, change-email, delete-user, sessions, sign-up, password resets…) is a
 * 404: an allowlist, so an endpoint a Better Auth upgrade adds stays closed too. The server calls
 * what else it needs through `auth.api` (the password change, lib/accounts/password.ts), with our
 * schemas in front.
 */
export const EXPOSED_AUTH_PATHS: ReadonlySet<string> = new Set([
  "/sign-in/email",
  "/sign-out",
  "/two-factor/enable",
  "/two-factor/disable",
  "/two-factor/verify-totp",
  "/two-factor/verify-backup-code",
]);

/**
 * Headers for Better Auth, which takes the client's address from X-Forwarded-For (its default
 * `ipAddressHeaders`): that header becomes the resolved address alone, or goes when the address is
 * unknown (Better Auth then counts every such client in one bucket).
 */
export function authHeaders(headers: Headers, cfg: Pick<Config, "trustedProxies">): Headers {
  const out = new Headers(headers);
  out.delete("x-forwarded-for");
  const ip = clientAddress(headers, cfg.trustedProxies);
  if (ip) out.set("x-forwarded-for", ip);
  return out;
}

/** A 429 says when to come back in the standard header too (Better Auth's own sends only X-Retry-After). */
function withRetryAfter(res: Response): Response {
  const seconds = res.headers.get("x-retry-after");
  if (res.status !== 429 || !seconds || res.headers.has("retry-after")) return res;
  const headers = new Headers(res.headers);
  headers.set("retry-after", seconds);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

const notFound = () =>
  new Response(JSON.stringify({ code: "NOT_FOUND", message: "Not found" }), { status: 404, headers: { "content-type": "application/json" } });

/** Answers a request under /api/auth. */
export async function handleAuthRequest(auth: Auth, cfg: Pick<Config, "trustedProxies">, req: Request): Promise<Response> {
  const { pathname } = new URL(req.url);
  const path = pathname.startsWith(`${AUTH_BASE_PATH}/`) ? pathname.slice(AUTH_BASE_PATH.length) : "";
  if (!EXPOSED_AUTH_PATHS.has(path)) return notFound();
  // A new request from the parts: `new Request(req)` refuses the framework's request object, whose class is not this runtime's.
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer();
  const forwarded = new Request(req.url, { method: req.method, headers: authHeaders(req.headers, cfg), body });
  return withRetryAfter(await auth.handler(forwarded));
}
