import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { ApiError } from "./errors";
import { RELAY_HEADER, RELAY_SECRET_ENV, ROUTE_METHODS } from "./methods.mjs";
import { problemResponse } from "./respond";

type RouteContext = { params: Promise<Record<string, string | string[]>> };
export type Handler = (req: Request, ctx: RouteContext) => Promise<Response>;

/** A positive integer id in a path (bigserial), at most 2^53-1. */
export const positiveIdParam = z
  .string()
  .regex(/^[1-9][0-9]{0,18}$/, "must be a positive integer")
  .transform(Number)
  .refine(Number.isSafeInteger, "is out of range");
export const businessIdParam = positiveIdParam;
export const paymentIdParam = z.uuid("must be a UUID");

type Method = (typeof ROUTE_METHODS)[number];

/**
 * The method the production server relays (scripts/method-guard.mjs): one the framework cannot
 * dispatch (TRACE, CONNECT, PROPFIND, FOO…), sent on as OPTIONS with `x-relayed-method: <secret>
 * <METHOD>`. Without the server's per-process secret (never under `next dev`) the header is ignored.
 */
function relayedMethod(req: Request): string | undefined {
  const secret = process.env[RELAY_SECRET_ENV];
  const value = secret ? req.headers.get(RELAY_HEADER) : null;
  if (!secret || !value) return undefined;
  const space = value.indexOf(" ");
  const given = Buffer.from(value.slice(0, space < 0 ? 0 : space));
  const expected = Buffer.from(secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return value.slice(space + 1) || undefined;
}

/**
 * Handlers for every method a route does not implement: 405 ProblemDetails with `Allow`
 * (D11) instead of the framework's empty 405. Spread into the route module's exports. Its OPTIONS
 * handler also answers the methods the server relays, so `allowed` is the route's one list.
 */
export function otherMethods(allowed: Method[]): Partial<Record<Method, Handler>> {
  const allow = allowed.join(", ");
  const notAllowed = (req: Request, method: string) =>
    problemResponse(
      req,
      new ApiError("method-not-allowed", 405, `${method} is not allowed here; allowed: ${allow}.`, undefined, { allow }),
    );
  const out: Partial<Record<Method, Handler>> = {};
  for (const m of ROUTE_METHODS) {
    // HEAD is answered from GET by the framework.
    if (allowed.includes(m) || (m === "HEAD" && allowed.includes("GET"))) continue;
    if (m === "OPTIONS") {
      out[m] = async (req) => {
        const relayed = relayedMethod(req);
        if (relayed) return notAllowed(req, relayed);
        return new Response(null, { status: 204, headers: { allow: `${allow}, OPTIONS` } });
      };
      continue;
    }
    out[m] = async (req) => notAllowed(req, req.method);
  }
  return out;
}

/** Unmatched paths under an API prefix: 404 ProblemDetails for any method, relayed ones too. */
export function unknownRoute(): Record<Method, Handler> {
  const h: Handler = async (req) => {
    const method = relayedMethod(req) ?? req.method;
    return problemResponse(req, new ApiError("not-found", 404, `No endpoint matches ${method} ${new URL(req.url).pathname}.`));
  };
  return Object.fromEntries(ROUTE_METHODS.map((m) => [m, h])) as Record<Method, Handler>;
}
