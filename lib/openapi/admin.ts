import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { ListDeliveriesQuerySchema } from "@/lib/webhooks/delivery-log";
import { CREATE_BUSINESS_EXAMPLE, CreateApiKeySchema, CreateBusinessSchema, PatchBusinessSchema } from "@/lib/businesses/schemas";
import { COIN_NAMES } from "@/domain/coins";
import { adminErrors, envelopeOf, jsonBody, stateConflict, success } from "./components";
import { businessIdPath, deliveryIdPath, keyIdPath } from "./params";
import { WebhookDeliveryListSchema, WebhookDeliverySchema } from "./webhooks";

/**
 * Output shapes of the admin API (design section 4). The handlers in lib/businesses/businesses.ts
 * build these objects; test/openapi.test.ts parses real responses with these strict schemas,
 * so the document cannot drift from them unnoticed.
 */
const dateTime = z.iso.datetime({ offset: true });
const id = z.number().int().positive().meta({ format: "int64" });

export const BusinessSchema = z
  .strictObject({
    businessId: id,
    name: z.string(),
    displayName: z.string().nullable().meta({ description: "The name the checkout shows; null: it shows `name`." }),
    accentColor: z.string().nullable().meta({ description: "The checkout's accent colour (`#rrggbb`, lower case); null: the default." }),
    logoUrl: z.url().nullable().meta({
      description:
        "Where the checkout's logo is served (named by the SHA-256 of its bytes, so a new logo has a new address; cached for a year), or null for none.",
    }),
    mode: z.enum(["test", "live"]),
    webhookUrl: z.string().nullable().meta({
      description:
        "The primary webhook endpoint's URL (the business's oldest endpoint; `…/webhook-endpoints` lists them all); null when it has none. A payment's notifyUrl replaces the endpoints for that payment.",
    }),
    paymentLifetimeSeconds: z.number().int().meta({ format: "int32", description: "Time from createdAt to expiresAt of a new payment, in seconds." }),
    enabledCoins: z.array(z.enum(COIN_NAMES as [string, ...string[]])),
    feePercent: z.number(),
    underpaymentTolerancePercent: z.number(),
    parentBusinessId: id.nullable(),
    extendedPublicKeys: z.record(z.string(), z.string()).meta({ description: "Account extended public keys by key family." }),
    solanaWallet: z.string().nullable().meta({ description: "The Solana wallet address (a public key) Solana payments go to; null when none is set." }),
    tonWallet: z.string().nullable().meta({ description: "The TON wallet address TON payments go to (user-friendly non-bounceable, or raw when it was given raw); null when none is set." }),
    confirmations: z.record(z.string(), z.number().int()).meta({ description: "Confirmations per coin replacing the coins' defaults; {} when none." }),
    emailNotifications: z
      .object({ receipt: z.boolean(), detected: z.boolean(), underpaid: z.boolean(), expired: z.boolean() })
      .meta({ description: "Which e-mails a payment's customer is sent (when it has a customerEmail); every kind is on by default." }),
    createdAt: dateTime,
  })
  .meta({ id: "Business", description: "A business and its settings." });

export const CreatedBusinessSchema = BusinessSchema.extend({
  apiKey: z.string().meta({ description: "An API key for this business. Shown once." }),
  keyId: z.string().meta({ description: "The id of that key, to revoke it." }),
  webhookSecret: z.string().meta({
    description:
      "The business's signing secret (`whsec_…`): it signs deliveries to a payment's `notifyUrl`, and the endpoint made from `webhookUrl` starts with it. Shown once; rotatable.",
  }),
}).meta({ id: "CreatedBusiness", description: "A new business with its first API key and webhook secret." });

const businessIds = z.array(id).meta({ description: "The businesses the key may act for." });
const expiresAt = dateTime.nullable().meta({ description: "Null: the key does not expire." });

export const CreatedApiKeySchema = z
  .strictObject({
    keyId: z.string(),
    apiKey: z.string().meta({ description: "The JWT to send as `Authorization: Bearer`. Shown once." }),
    businessIds,
    expiresAt,
  })
  .meta({ id: "CreatedApiKey" });

export const ApiKeyInfoSchema = z
  .strictObject({ keyId: z.string(), businessIds, createdAt: dateTime, expiresAt, revokedAt: dateTime.nullable() })
  .meta({ id: "ApiKeyInfo", description: "An API key, without its secret value." });

export const RevokedApiKeySchema = z
  .strictObject({ keyId: z.string(), revokedAt: dateTime })
  .meta({ id: "RevokedApiKey" });

export const WebhookSecretSchema = z
  .strictObject({ webhookSecret: z.string().meta({ description: "The business's new signing secret (`whsec_…`), replacing the old one." }) })
  .meta({ id: "WebhookSecret" });

const admin = (op: ZodOpenApiOperationObject): ZodOpenApiOperationObject => ({
  tags: ["Admin"],
  security: [{ adminBearer: [] }],
  ...op,
});
const business = z.object({ businessId: businessIdPath });
const businessEnvelope = envelopeOf(BusinessSchema, "BusinessEnvelope");

export const adminPaths: ZodOpenApiPathsObject = {
  "/admin/v1/businesses": {
    post: admin({
      operationId: "adminCreateBusiness",
      summary: "Create a business",
      description:
        "Creates a business with its settings, a first API key for it and a webhook signing secret. `mode` defaults to `test`; `enabledCoins` defaults to BITCOIN, ETHEREUM, LITECOIN, ETH_TETHER, ETH_USD_COIN, TRX_TETHER and TRX_USD_C in either mode.",
      requestBody: jsonBody(CreateBusinessSchema, { description: "The business's settings.", example: CREATE_BUSINESS_EXAMPLE }),
      responses: {
        201: success("The business, its API key and webhook secret.", envelopeOf(CreatedBusinessSchema, "CreatedBusinessEnvelope")),
        ...adminErrors(400, 401, 413, 415),
      },
    }),
  },
  "/admin/v1/businesses/{businessId}": {
    get: admin({
      operationId: "adminGetBusiness",
      summary: "Get a business",
      description: "Returns the settings of a business.",
      requestParams: { path: business },
      responses: { 200: success("The business.", businessEnvelope), ...adminErrors(400, 401, 404) },
    }),
    patch: admin({
      operationId: "adminPatchBusiness",
      summary: "Change a business's settings",
      description:
        "Changes the given settings; omitted ones keep their value. `webhookUrl` changes the primary endpoint's URL (adding one, with the business's secret, when there is none); `webhookUrl: null` removes the primary endpoint; an empty string in `extendedPublicKeys` removes that family's key; `displayName`, `accentColor` or `logo` null removes that part of the checkout's brand. A sub-business's parent cannot change. The body may be up to 512 KB (524,288 bytes), room for a `logo` in base64.",
      requestParams: { path: business },
      requestBody: jsonBody(PatchBusinessSchema, {
        description: "The settings to change.",
        example: { name: "Shop (EU)", paymentLifetimeSeconds: 1800, underpaymentTolerancePercent: 0.5 },
      }),
      responses: { 200: success("The updated business.", businessEnvelope), ...adminErrors(400, 401, 404, 413, 415) },
    }),
  },
  "/admin/v1/businesses/{businessId}/api-keys": {
    post: admin({
      operationId: "adminCreateApiKey",
      summary: "Create an API key",
      description:
        "Issues a new API key owned by the business. `businessIds` may name the business and its sub-businesses (default: the business only); a key listing a sub-business acts for it (`/v1/businesses/{subBusinessId}/…`). The body may be left out.",
      requestParams: { path: business },
      requestBody: jsonBody(CreateApiKeySchema, {
        description: "Optional: an absent or blank body stands for `{}` whatever its `Content-Type`; a body that is present must be JSON (415 otherwise) and an object.",
        required: false,
        example: { expiresInSeconds: 2592000 },
      }),
      responses: {
        201: success("The new key, shown once.", envelopeOf(CreatedApiKeySchema, "CreatedApiKeyEnvelope")),
        ...adminErrors(400, 401, 404, 413, 415),
      },
    }),
    get: admin({
      operationId: "adminListApiKeys",
      summary: "List API keys",
      description: "Lists the keys the business owns, revoked ones included, without their secret values.",
      requestParams: { path: business },
      responses: {
        200: success("The keys.", envelopeOf(z.array(ApiKeyInfoSchema), "ApiKeyListEnvelope")),
        ...adminErrors(400, 401, 404),
      },
    }),
  },
  "/admin/v1/businesses/{businessId}/api-keys/{keyId}": {
    delete: admin({
      operationId: "adminRevokeApiKey",
      summary: "Revoke an API key",
      description:
        "Revokes the key at once: later requests with it get 401 (other server instances follow within a second). A key that is already revoked, or belongs to another business, is a 404.",
      requestParams: { path: z.object({ businessId: businessIdPath, keyId: keyIdPath }) },
      responses: {
        200: success("The revoked key.", envelopeOf(RevokedApiKeySchema, "RevokedApiKeyEnvelope")),
        ...adminErrors(400, 401, 404),
      },
    }),
  },
  "/admin/v1/businesses/{businessId}/webhook-secret/rotate": {
    post: admin({
      operationId: "adminRotateWebhookSecret",
      summary: "Rotate the business's signing secret",
      description:
        "Replaces the business's signing secret (it signs deliveries to a payment's `notifyUrl`) with a new random one (`whsec_` and 32 random bytes in base64), at once, and returns it; the primary endpoint, while it still shares the old secret, moves with it. An endpoint's own rotation, with an overlap during which both secrets sign, is `POST …/webhook-endpoints/{endpointId}/secret/rotate`. Takes no body.",
      requestParams: { path: business },
      responses: {
        200: success("The new secret.", envelopeOf(WebhookSecretSchema, "WebhookSecretEnvelope")),
        ...adminErrors(400, 401, 404),
      },
    }),
  },
  "/admin/v1/businesses/{businessId}/webhook-deliveries": {
    get: admin({
      operationId: "adminListWebhookDeliveries",
      summary: "List webhook deliveries",
      description:
        "The business's webhook delivery log, newest first (`createdAt` descending), one page at a time: every message sent or to be sent, with every attempt; `endpointId` narrows it to one endpoint's log. Filters combine with AND. Query parameter names match case-insensitively; an unknown name, or one given twice, is a 400.",
      requestParams: { path: business, query: ListDeliveriesQuerySchema },
      responses: {
        200: success("One page of deliveries.", envelopeOf(WebhookDeliveryListSchema, "WebhookDeliveryListEnvelope")),
        ...adminErrors(400, 401, 404),
      },
    }),
  },
  "/admin/v1/businesses/{businessId}/webhook-deliveries/{deliveryId}/redeliver": {
    post: admin({
      operationId: "adminRedeliverWebhook",
      summary: "Redeliver a webhook",
      description:
        "Makes one delivery attempt now, whatever the delivery's state, with the same message id and body (signed anew). Success marks the delivery `succeeded`; a failure is recorded and leaves its state and schedule as they were. Takes no body. Answers the delivery with every attempt.",
      requestParams: { path: z.object({ businessId: businessIdPath, deliveryId: deliveryIdPath }) },
      responses: {
        200: success("The delivery, with the new attempt.", envelopeOf(WebhookDeliverySchema, "WebhookDeliveryEnvelope")),
        ...adminErrors(400, 401, 404),
        409: stateConflict("The delivery is being attempted right now (by the scheduler or another redeliver); try again in a moment."),
      },
    }),
  },
};
