import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { getDb, type Db } from "@/db/client";
import { findApiKeyWithBusiness } from "@/db/queries/api-keys";
import type { Business } from "@/db/schema";
import { assertKeyRowActive, bearerToken, noteKeyUse, verifyApiKeyToken, type ApiKeyClaims } from "@/lib/auth/api-keys";
import { wireBackground } from "@/lib/background/driver";
import { config } from "@/lib/config";
import { ApiError } from "./errors";
import { RELAY_HEADER, RELAY_SECRET_ENV, ROUTE_METHODS } from "./methods.mjs";
import { parseWith } from "./parse";
import { takeToken } from "./rate-limit";
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

export type ApiContext<P> = { req: Request; params: P; db: Db; business: Business; key: ApiKeyClaims };

/**
 * Wraps a merchant API handler: authenticates the bearer key (401), rate-limits it (429),
 * parses path parameters (400), checks the key may act for the addressed business (403),
 * and maps every thrown error to a ProblemDetails.
 */
export function withApiKey<S extends z.ZodObject<{ businessId: typeof businessIdParam }>>(
  paramsSchema: S,
  handler: (ctx: ApiContext<z.infer<S>>) => Promise<Response>,
): Handler {
  return async (req, ctx) => {
    try {
      wireBackground(); // this bundle's background driver hears the changes the handler makes
      const key = await verifyApiKeyToken(bearerToken(req));
      takeToken(key.keyId);
      const params = parseWith(paramsSchema, (await ctx.params) ?? {}, "Path");
      const db = await getDb();
      // One statement for the stored key (revoked? expired?) and the addressed business.
      const found = await findApiKeyWithBusiness(db, key.keyId, params.businessId);
      assertKeyRowActive(found?.key);
      await noteKeyUse(db, key.keyId); // at most one write per key and minute
      const business = found?.business;
      const allowed =
        business &&
        (key.businessIds.includes(business.id) ||
          (business.parentBusinessId !== null && key.businessIds.includes(business.parentBusinessId)));
      if (!allowed) {
        throw new ApiError("forbidden", 403, `This API key has no permission for business ${params.businessId}.`);
      }
      return await handler({ req, params, db, business, key });
    } catch (e) {
      return problemResponse(req, e);
    }
  };
}

/** Wraps an operator (admin API) handler: `Authorization: Bearer $ADMIN_TOKEN`. */
export function withAdmin<S extends z.ZodType>(
  paramsSchema: S,
  handler: (ctx: { req: Request; params: z.infer<S>; db: Db }) => Promise<Response>,
): Handler {
  return async (req, ctx) => {
    try {
      wireBackground();
      const expected = config().adminToken;
      if (!expected) {
        throw new ApiError("admin-disabled", 403, "The admin API is disabled: set ADMIN_TOKEN to enable it.");
      }
      const token = bearerToken(req);
      const a = Buffer.from(token);
      const b = Buffer.from(expected);
      if (a.length !== b.length || !timingSafeEqual(a, b)) {
        throw new ApiError("unauthorized", 401, "The admin token is invalid.", undefined, {
          "www-authenticate": 'Bearer realm="admin"',
        });
      }
      const params = parseWith(paramsSchema, (await ctx.params) ?? {}, "Path");
      return await handler({ req, params, db: await getDb() });
    } catch (e) {
      return problemResponse(req, e);
    }
  };
}

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
