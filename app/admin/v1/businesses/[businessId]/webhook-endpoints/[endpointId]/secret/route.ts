import { z } from "zod";
import { withAdmin } from "@/lib/accounts/route-auth";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods, positiveIdParam } from "@/lib/http/route";
import { endpointSecret } from "@/lib/webhooks/endpoints";

const params = z.object({ businessId: businessIdParam, endpointId: positiveIdParam });

export const GET = withAdmin(params, async ({ req, db, params }) => envelope(req, await endpointSecret(db, params.businessId, params.endpointId)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
