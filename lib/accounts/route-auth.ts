import { timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { getDb, type Db } from "@/db/client";
import { findApiKeyWithBusiness } from "@/db/queries/api-keys";
import type { Business } from "@/db/schema";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";
import { parseWith } from "@/lib/http/parse";
import { takeToken } from "@/lib/http/rate-limit";
import { log } from "@/log/logger.mjs";
import { problemResponse } from "@/lib/http/respond";
import type { businessIdParam, Handler } from "@/lib/http/route";
import { assertKeyRowActive, bearerToken, noteKeyUse, verifyApiKeyToken, type ApiKeyClaims } from "./api-keys";

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
      log.debug({ keyId: key.keyId, businessId: business.id }, "API key accepted");
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
