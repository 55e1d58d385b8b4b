import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { SimulateRequestSchema } from "@/lib/checkout/simulate-schema";
import { config } from "@/lib/config";
import { ListPaymentsQuerySchema } from "@/lib/payments/list-query";
import {
  CREATE_PAYMENT_EXAMPLE,
  CreatePaymentRequestSchema,
  CreateResultSchema,
  NoteRequestSchema,
  PaymentListSchema,
  PaymentSchema,
} from "@/lib/payments/schemas";
import { adminPaths } from "./admin";
import { chainPaths } from "./admin-chains";
import { moneroPaths } from "./admin-monero";
import { ratePaths } from "./admin-rates";
import { userPaths } from "./admin-users";
import { webhookEndpointPaths } from "./admin-webhook-endpoints";
import { ProblemDetailsSchema, RATE_UNAVAILABLE, SECURITY_SCHEMES, envelopeOf, errors, jsonBody, stateConflict, success } from "./components";
import { finishDocument, serviceDescription } from "./finish";
import { businessIdPath, paymentIdPath } from "./params";

/**
 * The OpenAPI 3.1 document of the service, built from the same zod schemas the route handlers
 * parse with (lib/payments/schemas.ts, lib/payments/list-query.ts, lib/businesses/schemas.ts).
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
      "Makes the create safe to retry: 1 to 255 visible ASCII characters (`!` to `~`), e.g. your order id, scoped to the business and kept for 24 hours. A repeat with the same key and the same body (key order and whitespace aside) returns the first response, also while the first request is still running (it waits for it); the same key with a different body gets 409 `idempotency-conflict`. A request refused with 400 does not use the key up.",
    examples: ["order-1042"],
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
        "Creates a payment and returns its id and the URL of the hosted checkout page (`{PUBLIC_BASE_URL}/pay/{id}`) to redirect the customer to. The customer chooses a coin there; webhooks report every status change. An invalid `Idempotency-Key` is reported in the same 400 as the body's errors.",
      requestParams: { path: businessPath, header: z.object({ "Idempotency-Key": IdempotencyKeyHeader }) },
      requestBody: jsonBody(CreatePaymentRequestSchema, { description: "The payment to create.", example: CREATE_PAYMENT_EXAMPLE }),
      responses: {
        200: success("The payment was created.", envelopeOf(CreateResultSchema, "CreatePaymentResultEnvelope")),
        ...errors(400, 401, 403, 409, 413, 415, 429),
      },
    }),
    get: payments({
      operationId: "listPayments",
      summary: "List payments",
      description:
        "Lists the business's payments, newest first (`createdAt` descending), one page at a time. Filters combine with AND; `statuses` and `cryptoCoins` repeat once per value and match any of them. `toTime` must not be before `fromTime`, nor `toAmount` less than `fromAmount` (400 naming `toTime` or `toAmount`). Query parameter names match case-insensitively; an unknown name, an unknown enum value, or a single-valued parameter given twice is a 400. A parent business's list includes its sub-businesses' payments; `onBehalfOfBusinessId` narrows it to one.",
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
      requestBody: jsonBody(NoteRequestSchema, { description: "The new note.", example: { note: "Customer asked for gift wrapping" } }),
      responses: {
        200: success("The payment, with the new note.", paymentEnvelope),
        ...errors(400, 401, 403, 404, 413, 415, 429),
      },
    }),
  },
  "/v1/businesses/{businessId}/payments/{paymentId}/simulate": {
    post: {
      tags: ["Simulator"],
      security: [{ bearerAuth: [] }],
      operationId: "simulatePayment",
      summary: "Simulate the chain (test mode)",
      description:
        "Test-mode businesses only (a `live` business gets 404, whatever the body): one action on the payment's simulated chain — `select` a coin as the customer would, `pay` (a transfer), `confirm` (add confirmations) or `fail` (drop the transfers). The usual order is select → pay → confirm. Answers the updated payment, with its charge and transactions.",
      requestParams: { path: paymentPath },
      requestBody: jsonBody(SimulateRequestSchema, {
        description: "The action.",
        examples: {
          select: { summary: "Choose a coin, as the customer does on checkout", value: { action: "select", coin: "BITCOIN" } },
          pay: { summary: "A transfer of exactly the amount due", value: { action: "pay" } },
          payPart: { summary: "A partial transfer (whole coins) with one confirmation", value: { action: "pay", amount: 0.0001, confirmations: 1 } },
          confirm: { summary: "Enough confirmations to settle", value: { action: "confirm" } },
          fail: { summary: "The transfers are dropped (a reorganisation)", value: { action: "fail" } },
        },
      }),
      responses: {
        200: success("The payment after the action.", paymentEnvelope),
        ...errors(400, 401, 403, 404, 413, 415, 429),
        409: stateConflict(
          "The payment's state forbids the action: `select` after a transfer was seen or once the payment is no longer AWAITING_PAYMENT; `pay` before a coin is selected; `confirm` or `fail` with no transfer to act on.",
        ),
        503: RATE_UNAVAILABLE,
      },
    },
  },
  "/v1/openapi.json": {
    get: {
      tags: ["Reference"],
      security: [],
      operationId: "getOpenApiDocument",
      summary: "This OpenAPI document",
      description: "The OpenAPI 3.1 document of the service, as JSON. Public: no authentication, any origin (CORS), cacheable for 5 minutes.",
      responses: {
        200: {
          description: "The document.",
          content: { "application/json": { schema: z.looseObject({ openapi: z.string() }).meta({ description: "An OpenAPI 3.1 document." }) } },
        },
      },
    },
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
      description: serviceDescription(),
      license: { name: "UNLICENSED (proprietary: no licence is granted)" },
    },
    servers: [{ url: serverUrl(), description: "This service (its PUBLIC_BASE_URL)." }],
    tags: [
      { name: "Payments", description: "The merchant API. Authenticated with an API key (`bearerAuth`) and rate-limited per key." },
      {
        name: "Simulator",
        description: "Test mode only: drive a test business's simulated chain through the same detection logic a real chain goes through.",
      },
      {
        name: "Admin",
        description:
          "The operator's API for businesses, API keys, the webhook signing secret and the webhook delivery log. Authenticated with the admin token (`adminBearer`); not rate-limited.",
      },
      { name: "Reference", description: "This document." },
    ],
    paths: { ...v1Paths, ...adminPaths, ...chainPaths, ...moneroPaths, ...ratePaths, ...userPaths, ...webhookEndpointPaths },
    components: {
      schemas: { ProblemDetails: ProblemDetailsSchema },
      securitySchemes: SECURITY_SCHEMES,
    },
  });
  return finishDocument(doc);
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

let memo: OpenApiDocument | undefined;

/** The document, built once per process. */
export function openApiDocument(): OpenApiDocument {
  memo ??= buildOpenApiDocument();
  return memo;
}
