import { z } from "zod";
import { ListDeliveriesQuerySchema, listBusinessDeliveries } from "@/lib/admin/deliveries";
import { parseWith } from "@/lib/http/parse";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods, withAdmin } from "@/lib/http/route";

const params = z.object({ businessId: businessIdParam });

export const GET = withAdmin(params, async ({ req, db, params }) => {
  const query = parseWith(ListDeliveriesQuerySchema, Object.fromEntries(new URL(req.url).searchParams), "Query");
  return envelope(req, await listBusinessDeliveries(db, params.businessId, query));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
