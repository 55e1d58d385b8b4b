import { z } from "zod";
import { findPayment } from "@/db/queries/payments-read";
import { simulate } from "@/lib/checkout/simulator";
import { SimulateRequestSchema } from "@/lib/checkout/simulate-schema";
import { notFound } from "@/lib/http/errors";
import { readBody } from "@/lib/http/body";
import { envelope } from "@/lib/http/respond";
import { businessIdParam, otherMethods, paymentIdParam } from "@/lib/http/route";
import { withApiKey } from "@/lib/accounts/route-auth";
import { getPayment } from "@/lib/payments/read";

const params = z.object({ businessId: businessIdParam, paymentId: paymentIdParam });

/** Design §5: the simulated chain of test businesses (live businesses: 404). */
export const POST = withApiKey(params, async ({ req, db, business, params }) => {
  if (business.mode !== "test") throw notFound("The simulator exists for test-mode businesses only.");
  const body = (await readBody(req, SimulateRequestSchema)).data;
  if (!(await findPayment(db, business, params.paymentId))) throw notFound(`No payment ${params.paymentId} exists for this business.`);
  await simulate(db, params.paymentId, body);
  return envelope(req, await getPayment(db, business, params.paymentId));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
