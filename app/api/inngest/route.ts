import { serve } from "inngest/next";
import type { NextRequest } from "next/server";
import { inngest } from "@/lib/background/inngest-client";
import { functions } from "@/inngest/functions";
import { wireBackground } from "@/lib/background/driver";

const served = serve({ client: inngest, functions });
type Handler = typeof served.GET;

/**
 * Inngest's endpoint: it syncs the functions (PUT), reads their configuration (GET) and runs
 * them (POST, signed with INNGEST_SIGNING_KEY). With the embedded runner there is nothing to
 * serve, so the route answers 404 rather than letting the SDK complain about missing keys.
 */
function whenInngest(handler: Handler): Handler {
  // The functions change payments and write deliveries: this bundle's bus must reach the sender.
  return (req, ctx) => (wireBackground() === "inngest" ? handler(req, ctx) : notConfigured(req));
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
