import { z } from "zod";
import { withAdmin } from "@/lib/accounts/route-auth";
import { readBody } from "@/lib/http/body";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods } from "@/lib/http/route";
import { CreateWebhookEndpointSchema } from "@/lib/webhooks/endpoint-schemas";
import { createEndpoint, listBusinessEndpoints } from "@/lib/webhooks/endpoints";

const params = z.object({ businessId: businessIdParam });

export const GET = withAdmin(params, async ({ req, db, params }) => envelope(req, await listBusinessEndpoints(db, params.businessId)));

export const POST = withAdmin(params, async ({ req, db, params }) => {
  const input = (await readBody(req, CreateWebhookEndpointSchema)).data;
  return envelope(req, await createEndpoint(db, params.businessId, input), 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
