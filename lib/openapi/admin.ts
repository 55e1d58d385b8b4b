import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { CreateApiKeySchema, CreateBusinessSchema, PatchBusinessSchema } from "@/lib/admin/schemas";
import { COIN_NAMES } from "@/lib/chains/coins";
import { adminErrors, envelopeOf, requestContent, success } from "./components";
import { businessIdPath } from "./params";

/**
 * Output shapes of the admin API (design section 4). The handlers in lib/admin/businesses.ts
 * build these objects; test/openapi.test.ts parses real responses with these strict schemas,
 * so the document cannot drift from them unnoticed.
 */
const dateTime = z.iso.datetime({ offset: true });
const id = z.number().int().positive().meta({ format: "int64" });

export const BusinessSchema = z
  .strictObject({
    businessId: id,
    name: z.string(),
    mode: z.enum(["test", "live"]),
    webhookUrl: z.string().nullable().meta({ description: "Default webhook address; a payment's notifyUrl overrides it." }),
    paymentLifetimeSeconds: z.number().int().meta({ description: "Time from createdAt to expiresAt of a new payment." }),
    enabledCoins: z.array(z.enum(COIN_NAMES as [string, ...string[]])),
    feePercent: z.number(),
    underpaymentTolerancePercent: z.number(),
    parentBusinessId: id.nullable(),
    extendedPublicKeys: z.record(z.string(), z.string()).meta({ description: "Account extended public keys by key family." }),
    createdAt: dateTime,
  })
  .meta({ id: "Business", description: "A business and its settings." });

export const CreatedBusinessSchema = BusinessSchema.extend({
  apiKey: z.string().meta({ description: "An API key for this business. Shown once." }),
  keyId: z.string().meta({ description: "The id of that key, to revoke it." }),
  webhookSecret: z.string().meta({ description: "The webhook signing secret (`whsec_…`). Shown once; rotatable." }),
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
  .strictObject({ webhookSecret: z.string().meta({ description: "The new signing secret (`whsec_…`), replacing the old one." }) })
  .meta({ id: "WebhookSecret" });

// Same rule as the route's own parameter schema (app/admin/v1/…/api-keys/[keyId]).
const keyIdPath = z.string().regex(/^key_[A-Za-z0-9_-]{1,64}$/).meta({ description: "The key id (`key_…`)." });

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
        "Creates a business with its settings, a first API key for it and a webhook signing secret. `mode` defaults to `test`; `enabledCoins` defaults to every coin the mode can serve.",
      requestBody: { required: true, content: requestContent(CreateBusinessSchema) },
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
      description: "Changes the given settings; omitted ones keep their value. `webhookUrl: null` removes the default webhook address.",
      requestParams: { path: business },
      requestBody: { required: true, content: requestContent(PatchBusinessSchema) },
      responses: { 200: success("The updated business.", businessEnvelope), ...adminErrors(400, 401, 404, 413, 415) },
    }),
  },
  "/admin/v1/businesses/{businessId}/api-keys": {
    post: admin({
      operationId: "adminCreateApiKey",
      summary: "Create an API key",
      description:
        "Issues a new API key owned by the business. `businessIds` may name the business and its sub-businesses (default: the business only). The body may be empty.",
      requestParams: { path: business },
      requestBody: { required: false, content: requestContent(CreateApiKeySchema) },
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
      description: "Revokes the key at once: later requests with it get 401.",
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
      summary: "Rotate the webhook signing secret",
      description: "Replaces the business's webhook signing secret with a new random one and returns it.",
      requestParams: { path: business },
      responses: {
        200: success("The new secret.", envelopeOf(WebhookSecretSchema, "WebhookSecretEnvelope")),
        ...adminErrors(400, 401, 404),
      },
    }),
  },
};
