import { createHash, timingSafeEqual } from "node:crypto";
import { getDb } from "@/db/client";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";
import { problemResponse } from "@/lib/http/respond";
import { readiness } from "./readiness";
import { scrape } from "./scrape";

/*
 * The operator's endpoints outside the API (docs/monitoring.md): /healthz, /readyz and /metrics.
 * None is cached; none is a page (the proxy skips them, next.config.ts gives them the non-page
 * policy).
 */

const NO_STORE = { "cache-control": "no-store" };

/** `GET /healthz`: the process answers. No database call, so a slow database never restarts it. */
export async function healthz(): Promise<Response> {
  return Response.json({ status: "ok" }, { headers: NO_STORE });
}

/** `GET /readyz`: 200 when the database answers and carries every migration, else 503; the body says why. */
export async function readyz(): Promise<Response> {
  const body = await readiness(getDb);
  return Response.json(body, { status: body.status === "ready" ? 200 : 503, headers: NO_STORE });
}

/** Compares digests, so neither the token's bytes nor its length shows in the time taken. */
function sameToken(given: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * `GET /metrics`: the Prometheus exposition, for `Authorization: Bearer $METRICS_TOKEN`. Without
 * METRICS_TOKEN the path does not exist (404), so nothing is exposed unless an operator asks.
 */
export async function metricsEndpoint(req: Request): Promise<Response> {
  try {
    const expected = config().metricsToken;
    if (!expected) throw new ApiError("not-found", 404, "No endpoint matches GET /metrics: set METRICS_TOKEN to enable it.");
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
    if (!match || !sameToken(match[1], expected)) {
      throw new ApiError("unauthorized", 401, "Send `Authorization: Bearer <METRICS_TOKEN>`.", undefined, {
        "www-authenticate": 'Bearer realm="metrics"',
      });
    }
    const { body, contentType } = await scrape(getDb);
    return new Response(body, { headers: { "content-type": contentType, ...NO_STORE } });
  } catch (e) {
    return problemResponse(req, e);
  }
}
