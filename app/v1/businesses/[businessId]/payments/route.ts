import { z } from "zod";
import { getListDb } from "@/db/client";
import { businessIdParam, otherMethods, withApiKey } from "@/lib/http/route";
import { readJsonBody, parseWith } from "@/lib/http/parse";
import { envelope, envelopeJson } from "@/lib/http/respond";
import { createPayment } from "@/lib/payments/create";
import { idempotencyFrom } from "@/lib/payments/idempotency";
import { parseListQuery } from "@/lib/payments/list-query";
import { listPayments, paymentListJson } from "@/lib/payments/read";
import { CreatePaymentRequestSchema } from "@/lib/payments/schemas";

const params = z.object({ businessId: businessIdParam });

export const POST = withApiKey(params, async ({ req, db, business }) => {
  const raw = await readJsonBody(req);
  const idempotency = idempotencyFrom(req, raw);
  const body = parseWith(CreatePaymentRequestSchema, raw);
  return envelope(req, await createPayment(db, business, body, idempotency));
});

export const GET = withApiKey(params, async ({ req, business }) => {
  const query = parseListQuery(new URL(req.url).searchParams);
  return envelopeJson(req, paymentListJson(await listPayments(await getListDb(), business, query)));
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
