import { z } from "zod";
import { redeliverOne } from "@/lib/admin/deliveries";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods, positiveIdParam, withAdmin } from "@/lib/http/route";

const params = z.object({
  businessId: businessIdParam,
  deliveryId: positiveIdParam,
});

export const POST = withAdmin(params, async ({ req, db, params }) =>
  envelope(req, await redeliverOne(db, params.businessId, params.deliveryId)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
