import { z } from "zod";
import { withAdmin } from "@/lib/accounts/route-auth";
import { readBody } from "@/lib/http/body";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods, positiveIdParam } from "@/lib/http/route";
import { RecoverEndpointSchema } from "@/lib/webhooks/endpoint-schemas";
import { recoverEndpoint } from "@/lib/webhooks/endpoints";

const params = z.object({ businessId: businessIdParam, endpointId: positiveIdParam });

export const POST = withAdmin(params, async ({ req, db, params }) => {
  const { since } = (await readBody(req, RecoverEndpointSchema)).data;
  return envelope(req, await recoverEndpoint(db, params.businessId, params.endpointId, new Date(since)));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
