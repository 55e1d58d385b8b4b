import { z } from "zod";
import { rotateWebhookSecret } from "@/lib/admin/businesses";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods, withAdmin } from "@/lib/http/route";

const params = z.object({ businessId: businessIdParam });

export const POST = withAdmin(params, async ({ req, db, params }) =>
  envelope(req, await rotateWebhookSecret(db, params.businessId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
