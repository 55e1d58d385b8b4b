import { z } from "zod";
import { getListDb } from "@/db/client";
import { readBody } from "@/lib/http/body";
import { businessIdParam, otherMethods } from "@/lib/http/route";
import { withApiKey } from "@/lib/accounts/route-auth";
import { envelope, envelopeJson } from "@/lib/http/respond";
import { createPayment } from "@/lib/payments/create";
import { idempotencyFrom, idempotencyKeyErrors } from "@/lib/payments/idempotency";
import { parseListQuery } from "@/lib/payments/list-query";
import { listPayments, paymentListJson } from "@/lib/payments/read";
import { createPaymentRequestSchema } from "@/lib/payments/schemas";

const params = z.object({ businessId: businessIdParam });

export const POST = withApiKey(params, async ({ req, db, business }) => {
  const schema = createPaymentRequestSchema(business.mode);
  const { data, raw } = await readBody(req, schema, { known: idempotencyKeyErrors(req) });
  return envelope(req, await createPayment(db, business, data, idempotencyFrom(req, raw)));
});

export const GET = withApiKey(params, async ({ req, business }) => {
  const query = parseListQuery(new URL(req.url).searchParams);
  return envelopeJson(req, paymentListJson(await listPayments(await getListDb(), business, query)));
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
