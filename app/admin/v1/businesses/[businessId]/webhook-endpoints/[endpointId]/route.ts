import { z } from "zod";
import { withAdmin } from "@/lib/accounts/route-auth";
import { readBody } from "@/lib/http/body";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods, positiveIdParam } from "@/lib/http/route";
import { PatchWebhookEndpointSchema } from "@/lib/webhooks/endpoint-schemas";
import { destroyEndpoint, getEndpoint, patchEndpoint } from "@/lib/webhooks/endpoints";

const params = z.object({ businessId: businessIdParam, endpointId: positiveIdParam });

export const GET = withAdmin(params, async ({ req, db, params }) => envelope(req, await getEndpoint(db, params.businessId, params.endpointId)));

export const PATCH = withAdmin(params, async ({ req, db, params }) => {
  const input = (await readBody(req, PatchWebhookEndpointSchema)).data;
  return envelope(req, await patchEndpoint(db, params.businessId, params.endpointId, input));
});

export const DELETE = withAdmin(params, async ({ req, db, params }) =>
  envelope(req, await destroyEndpoint(db, params.businessId, params.endpointId)),
);

export const { POST, PUT, OPTIONS } = otherMethods(["GET", "PATCH", "DELETE"]);
