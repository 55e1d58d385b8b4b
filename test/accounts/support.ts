import { getAuth } from "@/lib/accounts/auth";
import { handleAuthRequest } from "@/lib/accounts/auth-handler";
import { config } from "@/lib/config";
import { PEER_HEADER, PEER_SECRET_ENV } from "@/lib/http/peer.mjs";

/** Shared steps of the account tests: requests through the service's /api/auth handler, as the route serves them. */

export const origin = () => config().publicBaseUrl;

// What the production server (scripts/server.mjs) does: a per-process secret signs the connection's address.
process.env[PEER_SECRET_ENV] ??= "test-peer-secret";

/** The header the production server sets on a request whose connection comes from `ip`. */
export const fromPeer = (ip: string) => ({ [PEER_HEADER]: `${process.env[PEER_SECRET_ENV]} ${ip}` });

/**
 * A client address of its own per call, so one test's per-address rate limit touches no other
 * (nor a run before it on a shared database): a random /64 of the documentation prefix, as
 * Better Auth keys IPv6 clients by their /64.
 */
const hex = () => Math.floor(Math.random() * 0x10000).toString(16);
export const newIp = () => `2001:db8:${hex()}:${hex()}::1`;

export const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@shop.example`;

type CallInit = { body?: unknown; cookie?: string; ip?: string; method?: string; headers?: Record<string, string> };

/** A request to `/api/auth<path>` from the service's own origin, over a connection from `ip` (a fresh address by default). */
export async function authCall(path: string, init: CallInit = {}) {
  const headers = new Headers({ origin: origin(), ...fromPeer(init.ip ?? newIp()), ...init.headers });
  if (init.body !== undefined) headers.set("content-type", "application/json");
  if (init.cookie) headers.set("cookie", init.cookie);
  const req = new Request(`${origin()}/api/auth${path}`, { method: init.method ?? "POST", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  return handleAuthRequest(await getAuth(), config(), req);
}

/** The Cookie header a browser would send back after `res`. */
export const cookieOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");

/** The email of the session `cookie` carries, or null (the server's own reading: get-session is not served over HTTP). */
export async function sessionEmail(cookie: string): Promise<string | null> {
  const session = await (await getAuth()).api.getSession({ headers: new Headers({ cookie }) });
  return session?.user.email ?? null;
}

export const signIn = (email: string, password: string, ip?: string) => authCall("/sign-in/email", { body: { email, password }, ip });
