import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { acceptedCurrencies } from "@/lib/chains/rate-provider";
import { config } from "@/lib/config";
import { ListPaymentsQuerySchema } from "@/lib/payments/list-query";
import {
  CreatePaymentRequestSchema,
  CreateResultSchema,
  NoteRequestSchema,
  PaymentListSchema,
  PaymentSchema,
} from "@/lib/payments/schemas";
import { adminPaths } from "./admin";
import { ProblemDetailsSchema, SECURITY_SCHEMES, envelopeOf, errors, requestContent, success } from "./components";
import { businessIdPath, paymentIdPath } from "./params";

/**
 * The OpenAPI 3.1 document of the service, built from the same zod schemas the route handlers
 * parse with (lib/payments/schemas.ts, lib/payments/list-query.ts, lib/admin/schemas.ts).
 * Served at /v1/openapi.json and rendered at /docs. Needs no database.
 */

// D13. Validated in lib/payments/idempotency.ts with the same rule.
const IdempotencyKeyHeader = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/)
  .optional()
  .meta({
    description:
      "Makes the create safe to retry: for 24 hours a repeat with the same key and the same body returns the first response; the same key with a different body, or while the first request is still running, gets 409.",
  });

const payments = (op: ZodOpenApiOperationObject): ZodOpenApiOperationObject => ({
  tags: ["Payments"],
  security: [{ bearerAuth: [] }],
  ...op,
});
const businessPath = z.object({ businessId: businessIdPath });
const paymentPath = z.object({ businessId: businessIdPath, paymentId: paymentIdPath });
const paymentEnvelope = envelopeOf(PaymentSchema, "PaymentEnvelope");

const v1Paths: ZodOpenApiPathsObject = {
  "/v1/businesses/{businessId}/payments": {
    post: payments({
      operationId: "createPayment",
      summary: "Create a payment",
      description:
        "Creates a payment and returns its id and the URL of the hosted checkout page to redirect the customer to. The customer chooses a coin there; webhooks report every status change.",
      requestParams: { path: businessPath, header: z.object({ "Idempotency-Key": IdempotencyKeyHeader }) },
      requestBody: { required: true, content: requestContent(CreatePaymentRequestSchema) },
      responses: {
        200: success("The payment was created.", envelopeOf(CreateResultSchema, "CreatePaymentResultEnvelope")),
        ...errors(400, 401, 403, 409, 413, 415, 429),
      },
    }),
    get: payments({
      operationId: "listPayments",
      summary: "List payments",
      description:
        "Lists the business's payments, newest first (`createdAt` descending), one page at a time. Query parameter names match case-insensitively. Filters combine with AND; `statuses` and `cryptoCoins` repeat once per value and match any of them.",
      requestParams: { path: businessPath, query: ListPaymentsQuerySchema },
      responses: {
        200: success("One page of payments.", envelopeOf(PaymentListSchema, "PaymentListEnvelope")),
        ...errors(400, 401, 403, 429),
      },
    }),
  },
  "/v1/businesses/{businessId}/payments/{paymentId}": {
    get: payments({
      operationId: "getPayment",
      summary: "Fetch one payment",
      description: "Returns the payment record with its timeline, customer and charge.",
      requestParams: { path: paymentPath },
      responses: { 200: success("The payment.", paymentEnvelope), ...errors(400, 401, 403, 404, 429) },
    }),
  },
  "/v1/businesses/{businessId}/payments/{paymentId}/note": {
    put: payments({
      operationId: "updatePaymentNote",
      summary: "Set the internal note",
      description:
        "Sets or overwrites the payment's internal note, visible only to the business team (never on checkout or in webhooks).",
      requestParams: { path: paymentPath },
      requestBody: { required: true, content: requestContent(NoteRequestSchema) },
      responses: {
        200: success("The payment, with the new note.", paymentEnvelope),
        ...errors(400, 401, 403, 404, 413, 415, 429),
      },
    }),
  },
};

function serverUrl(): string {
  try {
    return config().publicBaseUrl;
  } catch {
    // An invalid configuration stops the service elsewhere; the document still describes the API.
    return "/";
  }
}

export function buildOpenApiDocument() {
  const doc = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Crypto Payment Service API",
      version: "1.0.0",
      description:
        "Create hosted-checkout cryptocurrency payments, fetch and list them, and set internal notes. Successes are wrapped in an envelope `{ data, message: null, errors: null }`; errors are RFC 7807 ProblemDetails.",
    },
    servers: [{ url: serverUrl() }],
    tags: [
      { name: "Payments", description: "The merchant API. Authenticated with an API key (`bearerAuth`)." },
      {
        name: "Admin",
        description: "The operator's API for businesses and API keys. Authenticated with the admin token (`adminBearer`).",
      },
    ],
    paths: { ...v1Paths, ...adminPaths },
    components: {
      schemas: { ProblemDetails: ProblemDetailsSchema },
      securitySchemes: SECURITY_SCHEMES,
    },
  });
  // The accepted currencies depend on the rate source in force, so they are filled in per process.
  const request = doc.components?.schemas?.CreatePaymentRequest as { properties?: Record<string, object> } | undefined;
  const currency = request?.properties?.currency;
  if (!currency) throw new Error("CreatePaymentRequest.currency is missing from the document");
  Object.assign(currency, { enum: acceptedCurrencies() });
  return doc;
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

let memo: OpenApiDocument | undefined;

/** The document, built once per process. */
export function openApiDocument(): OpenApiDocument {
  memo ??= buildOpenApiDocument();
  return memo;
}
