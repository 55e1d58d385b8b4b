import { z } from "zod";
import { withAdmin } from "@/lib/accounts/route-auth";
import { readBody } from "@/lib/http/body";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods, positiveIdParam } from "@/lib/http/route";
import { RotateEndpointSecretSchema } from "@/lib/webhooks/endpoint-schemas";
import { rotateEndpointSecret } from "@/lib/webhooks/endpoints";

const params = z.object({ businessId: businessIdParam, endpointId: positiveIdParam });

export const POST = withAdmin(params, async ({ req, db, params }) => {
  // The body may be left out: the old secret then signs beside the new one for 24 hours.
  const input = (await readBody(req, RotateEndpointSecretSchema, { optional: true })).data;
  return envelope(req, await rotateEndpointSecret(db, params.businessId, params.endpointId, input.overlapSeconds));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
