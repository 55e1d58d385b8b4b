import { z } from "zod";
import { ListDeliveriesQuerySchema, listBusinessDeliveries } from "@/lib/webhooks/delivery-log";
import { parseQuery } from "@/lib/http/query";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods } from "@/lib/http/route";
import { withAdmin } from "@/lib/accounts/route-auth";

const params = z.object({ businessId: businessIdParam });

export const GET = withAdmin(params, async ({ req, db, params }) => {
  const query = parseQuery(new URL(req.url).searchParams, ListDeliveriesQuerySchema);
  return envelope(req, await listBusinessDeliveries(db, params.businessId, query));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
