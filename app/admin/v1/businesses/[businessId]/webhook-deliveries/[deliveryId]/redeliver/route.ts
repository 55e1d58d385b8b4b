import { z } from "zod";
import { redeliverOne } from "@/lib/webhooks/delivery-log";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods, positiveIdParam } from "@/lib/http/route";
import { withAdmin } from "@/lib/accounts/route-auth";

const params = z.object({
  businessId: businessIdParam,
  deliveryId: positiveIdParam,
});

export const POST = withAdmin(params, async ({ req, db, params }) =>
  envelope(req, await redeliverOne(db, params.businessId, params.deliveryId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
