import { notFound } from "@/lib/http/errors";
import { problemResponse } from "@/lib/http/respond";

/**
 * The framework's ceiling for `npm run bench`: a route handler that does no work. It exists
 * only when the server runs with BENCH_ROUTES=1; otherwise it is an unknown path (404
 * ProblemDetails). Not part of the API: outside /v1 and absent from the OpenAPI document.
 */
export const dynamic = "force-dynamic";

export async function GET(req: Request): Promise<Response> {
  if (process.env.BENCH_ROUTES !== "1") {
    return problemResponse(req, notFound(`No endpoint matches GET ${new URL(req.url).pathname}.`));
  }
  return new Response('{"data":{"ok":true},"message":null,"errors":null}', {
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}
