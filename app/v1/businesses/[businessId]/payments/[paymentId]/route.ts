import { z } from "zod";
import { businessIdParam, otherMethods, paymentIdParam } from "@/lib/http/route";
import { withApiKey } from "@/lib/accounts/route-auth";
import { envelope } from "@/lib/http/respond";
import { getPayment } from "@/lib/payments/read";

const params = z.object({ businessId: businessIdParam, paymentId: paymentIdParam });

export const GET = withApiKey(params, async ({ req, db, business, params }) =>
  envelope(req, await getPayment(db, business, params.paymentId)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
