import { serve } from "inngest/next";
import type { NextRequest } from "next/server";
import { inngest } from "@/lib/background/inngest-client";
import { functions } from "@/inngest/functions";
import { backgroundDriverOf } from "@/lib/background/driver";
import { config } from "@/lib/config";

const served = serve({ client: inngest, functions });
type Handler = typeof served.GET;

/**
 * Inngest's endpoint: it syncs the functions (PUT), reads their configuration (GET) and runs
 * them (POST, signed with INNGEST_SIGNING_KEY). Configuration decides whether there is anything
 * to serve: with the embedded runner the route answers 404 rather than letting the SDK complain
 * about missing keys. The events the functions raise reach the sender `instrumentation.ts`
 * subscribed, through the process's event bus (lib/events/bus.ts).
 */
function whenInngest(handler: Handler): Handler {
  return (req, ctx) => (backgroundDriverOf(config()) === "inngest" ? handler(req, ctx) : notConfigured(req));
}

async function notConfigured(req: NextRequest): Promise<Response> {
  return Response.json(
    {
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: "Inngest is not configured (set INNGEST_EVENT_KEY or INNGEST_DEV); background work runs in-process.",
      instance: req.nextUrl.pathname,
    },
    { status: 404, headers: { "content-type": "application/problem+json; charset=utf-8" } },
  );
}

export const GET = whenInngest(served.GET);
export const POST = whenInngest(served.POST);
export const PUT = whenInngest(served.PUT);
