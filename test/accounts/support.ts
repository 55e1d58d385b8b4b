import { getAuth } from "@/lib/accounts/auth";
import { config } from "@/lib/config";

/** Shared steps of the account tests: requests through Better Auth's own handler. */

export const origin = () => config().publicBaseUrl;

/**
 * A client address of its own per call, so one test's per-address rate limit touches no other
 * (nor a run before it on a shared database): a random /64 of the documentation prefix, as
 * Better Auth keys IPv6 clients by their /64.
 */
const hex = () => Math.floor(Math.random() * 0x10000).toString(16);
export const newIp = () => `2001:db8:${hex()}:${hex()}::1`;

export const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@shop.example`;

/** A request to `/api/auth<path>` from the service's own origin; `ip` defaults to a fresh address. */
export async function authCall(path: string, init: { body?: unknown; cookie?: string; ip?: string; method?: string } = {}) {
  const auth = await getAuth();
  const headers = new Headers({ origin: origin(), "x-forwarded-for": init.ip ?? newIp() });
  if (init.body !== undefined) headers.set("content-type", "application/json");
  if (init.cookie) headers.set("cookie", init.cookie);
  return auth.handler(new Request(`${origin()}/api/auth${path}`, { method: init.method ?? "POST", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) }));
}

/** The Cookie header a browser would send back after `res`. */
export const cookieOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");

export const signIn = (email: string, password: string, ip?: string) => authCall("/sign-in/email", { body: { email, password }, ip });
