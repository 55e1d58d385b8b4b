import { z } from "zod";
import { businessIdParam, paymentIdParam } from "@/lib/http/route";

/**
 * The routes' own path-parameter schemas, described for the document. `businessId` is parsed
 * from a string of digits; the spec describes it as an int64, so that is how it is rendered.
 */
export const businessIdPath = businessIdParam.meta({
  description: "The business, as shown in the dashboard (admin API: returned on creation). A positive integer up to 2^53−1.",
  override: ({ jsonSchema }) => {
    delete jsonSchema.pattern;
    Object.assign(jsonSchema, { type: "integer", format: "int64", minimum: 1, maximum: Number.MAX_SAFE_INTEGER, examples: [1] });
  },
});

export const paymentIdPath = paymentIdParam.meta({
  description: "The payment id returned on create (a UUID).",
  examples: ["f1909731-0e96-4a73-8039-5a527e04b6c0"],
});

// Same rule as the route's own parameter schema (app/admin/v1/…/api-keys/[keyId]).
export const keyIdPath = z
  .string()
  .regex(/^key_[A-Za-z0-9_-]{1,64}$/)
  .meta({ description: "The key id (`key_…`), as returned when the key was created or listed.", examples: ["key_hfzNExgadvFxsImN"] });

/**
 * The route reads a delivery id as 1 to 16 decimal digits (app/admin/v1/…/[deliveryId]/redeliver);
 * ids are int64 row ids, and none lies above 2^53−1, so that is the documented maximum.
 */
export const deliveryIdPath = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/)
  .meta({
    description: "The delivery id (`deliveryId` in the delivery log). A positive integer.",
    override: ({ jsonSchema }) => {
      delete jsonSchema.pattern;
      Object.assign(jsonSchema, { type: "integer", format: "int64", minimum: 1, maximum: Number.MAX_SAFE_INTEGER, examples: [42] });
    },
  });

/** The route reads an endpoint id as a positive integer (app/admin/v1/…/webhook-endpoints/[endpointId]). */
export const endpointIdPath = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/)
  .meta({
    description: "The webhook endpoint's id (`endpointId`, as returned when it was created or listed). A positive integer.",
    override: ({ jsonSchema }) => {
      delete jsonSchema.pattern;
      Object.assign(jsonSchema, { type: "integer", format: "int64", minimum: 1, maximum: Number.MAX_SAFE_INTEGER, examples: [1] });
    },
  });
