import { z } from "zod";
import { rotateWebhookSecret } from "@/lib/businesses/businesses";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods } from "@/lib/http/route";
import { withAdmin } from "@/lib/accounts/route-auth";

const params = z.object({ businessId: businessIdParam });

export const POST = withAdmin(params, async ({ req, db, params }) =>
  envelope(req, await rotateWebhookSecret(db, params.businessId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
