import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { ENDPOINT_DISABLED_REASONS } from "@/db/schema";
import {
  CREATE_ENDPOINT_EXAMPLE,
  CreateWebhookEndpointSchema,
  MAX_ENDPOINTS,
  PatchWebhookEndpointSchema,
  RecoverEndpointSchema,
  RotateEndpointSecretSchema,
} from "@/lib/webhooks/endpoint-schemas";
import { adminErrors, envelopeOf, jsonBody, stateConflict, success } from "./components";
import { businessIdPath, endpointIdPath } from "./params";
import { EventTypeSchema } from "./webhooks";

/**
 * The admin API's webhook endpoints (lib/webhooks/endpoints.ts builds these objects;
 * test/openapi.test.ts and test/webhooks/endpoints-api.test.ts parse real answers with them).
 */
const dateTime = z.iso.datetime({ offset: true });
const int64 = z.number().int().positive().meta({ format: "int64" });
const secret = z.string().meta({ description: "The signing secret (`whsec_` and 32 random bytes in base64), for svix or any Standard Webhooks verifier." });
const overlapEnd = dateTime.nullable().meta({ description: "Until when the previous secret also signs every message; null when only one secret signs." });

export const WebhookEndpointSchema = z
  .strictObject({
    endpointId: int64,
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(EventTypeSchema).nullable().meta({ description: "The event types it receives; null: every type." }),
    enabled: z.boolean(),
    disabledReason: z.enum(ENDPOINT_DISABLED_REASONS).nullable().meta({
      description: "Why it is disabled: `manual` (turned off) or `failing` (every attempt failed for 5 days); null while enabled.",
    }),
    disabledAt: dateTime.nullable(),
    failingSince: dateTime.nullable().meta({ description: "The first failed attempt since its last success; null while it answers. Five days of this disables it." }),
    previousSecretExpiresAt: overlapEnd,
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .meta({ id: "WebhookEndpoint", description: "Where a business's events are sent, without its secret." });

const CreatedEndpointSchema = WebhookEndpointSchema.extend({ secret: secret.meta({ description: "Its signing secret. Also readable later (`GET …/secret`)." }) }).meta({
  id: "CreatedWebhookEndpoint",
});
const EndpointSecretSchema = z.strictObject({ secret, previousSecretExpiresAt: overlapEnd }).meta({ id: "WebhookEndpointSecret" });
const DeletedEndpointSchema = z.strictObject({ endpointId: int64, deleted: z.literal(true) }).meta({ id: "DeletedWebhookEndpoint" });
const RecoveredSchema = z
  .strictObject({
    endpointId: int64,
    queued: z.number().int().min(0).meta({ format: "int32", description: "How many failed deliveries are due again." }),
  })
  .meta({ id: "WebhookEndpointRecovery" });

const admin = (op: ZodOpenApiOperationObject): ZodOpenApiOperationObject => ({ tags: ["Admin"], security: [{ adminBearer: [] }], ...op });
const business = z.object({ businessId: businessIdPath });
const endpoint = z.object({ businessId: businessIdPath, endpointId: endpointIdPath });
const endpointEnvelope = envelopeOf(WebhookEndpointSchema, "WebhookEndpointEnvelope");
const base = "/admin/v1/businesses/{businessId}/webhook-endpoints";

export const webhookEndpointPaths: ZodOpenApiPathsObject = {
  [base]: {
    get: admin({
      operationId: "adminListWebhookEndpoints",
      summary: "List webhook endpoints",
      description: "The business's endpoints, oldest first. The first is the primary endpoint: the business's `webhookUrl`.",
      requestParams: { path: business },
      responses: { 200: success("The endpoints.", envelopeOf(z.array(WebhookEndpointSchema), "WebhookEndpointListEnvelope")), ...adminErrors(400, 401, 404) },
    }),
    post: admin({
      operationId: "adminCreateWebhookEndpoint",
      summary: "Add a webhook endpoint",
      description: `Adds an endpoint with its own signing secret. Every event of a payment without a \`notifyUrl\` goes to each enabled endpoint whose \`eventTypes\` take it, as a message of its own (its own message id and signature). A business has at most ${MAX_ENDPOINTS} endpoints: one more is a 409.`,
      requestParams: { path: business },
      requestBody: jsonBody(CreateWebhookEndpointSchema, { description: "The endpoint.", example: CREATE_ENDPOINT_EXAMPLE }),
      responses: {
        201: success("The endpoint with its secret.", envelopeOf(CreatedEndpointSchema, "CreatedWebhookEndpointEnvelope")),
        ...adminErrors(400, 401, 404, 413, 415),
        409: stateConflict(`The business has ${MAX_ENDPOINTS} endpoints already.`),
      },
    }),
  },
  [`${base}/{endpointId}`]: {
    get: admin({
      operationId: "adminGetWebhookEndpoint",
      summary: "Get a webhook endpoint",
      description: "One endpoint, without its secret.",
      requestParams: { path: endpoint },
      responses: { 200: success("The endpoint.", endpointEnvelope), ...adminErrors(400, 401, 404) },
    }),
    patch: admin({
      operationId: "adminPatchWebhookEndpoint",
      summary: "Change a webhook endpoint",
      description:
        "Changes its URL, description, event filter or enabled flag. Disabling stops its pending deliveries (they become `failed`); re-enabling sends nothing by itself: `POST …/recover` resends what it missed.",
      requestParams: { path: endpoint },
      requestBody: jsonBody(PatchWebhookEndpointSchema, { description: "The settings to change.", example: { eventTypes: null, enabled: true } }),
      responses: { 200: success("The endpoint.", endpointEnvelope), ...adminErrors(400, 401, 404, 413, 415) },
    }),
    delete: admin({
      operationId: "adminDeleteWebhookEndpoint",
      summary: "Delete a webhook endpoint",
      description: "Deletes it: its pending deliveries stop; the delivery log keeps its deliveries (with `endpointId` null).",
      requestParams: { path: endpoint },
      responses: { 200: success("It is gone.", envelopeOf(DeletedEndpointSchema, "DeletedWebhookEndpointEnvelope")), ...adminErrors(400, 401, 404) },
    }),
  },
  [`${base}/{endpointId}/secret`]: {
    get: admin({
      operationId: "adminGetWebhookEndpointSecret",
      summary: "Get a webhook endpoint's secret",
      description: "The endpoint's current signing secret, and until when the previous one also signs.",
      requestParams: { path: endpoint },
      responses: { 200: success("The secret.", envelopeOf(EndpointSecretSchema, "WebhookEndpointSecretEnvelope")), ...adminErrors(400, 401, 404) },
    }),
  },
  [`${base}/{endpointId}/secret/rotate`]: {
    post: admin({
      operationId: "adminRotateWebhookEndpointSecret",
      summary: "Rotate a webhook endpoint's secret",
      description:
        "Gives the endpoint a new random secret. The old one keeps signing beside it for `overlapSeconds` (default 24 hours): each message then carries both signatures in `webhook-signature` (`v1,<new> v1,<old>`), so a receiver verifies with either while it switches. The body may be left out.",
      requestParams: { path: endpoint },
      requestBody: jsonBody(RotateEndpointSecretSchema, {
        description: "Optional: an absent or blank body stands for `{}` whatever its `Content-Type`.",
        required: false,
        example: { overlapSeconds: 3600 },
      }),
      responses: { 200: success("The new secret.", envelopeOf(EndpointSecretSchema, "RotatedWebhookEndpointSecretEnvelope")), ...adminErrors(400, 401, 404, 413, 415) },
    }),
  },
  [`${base}/{endpointId}/recover`]: {
    post: admin({
      operationId: "adminRecoverWebhookEndpoint",
      summary: "Resend what an endpoint missed",
      description:
        "Every `failed` delivery of the endpoint created at or after `since` is due again now, on a fresh retry schedule, with its message id and body: the events it missed while disabled, and those whose retries ran out. The endpoint must be enabled (409 otherwise).",
      requestParams: { path: endpoint },
      requestBody: jsonBody(RecoverEndpointSchema, { description: "Since when.", example: { since: "2026-01-05T00:00:00Z" } }),
      responses: {
        200: success("How many are due again.", envelopeOf(RecoveredSchema, "WebhookEndpointRecoveryEnvelope")),
        ...adminErrors(400, 401, 404, 413, 415),
        409: stateConflict("The endpoint is disabled: enable it first."),
      },
    }),
  },
};
