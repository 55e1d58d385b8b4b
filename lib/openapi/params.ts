import { businessIdParam, paymentIdParam } from "@/lib/http/route";

/**
 * The routes' own path-parameter schemas, described for the document. `businessId` is parsed
 * from a string of digits; the spec describes it as an int64, so that is how it is rendered.
 */
export const businessIdPath = businessIdParam.meta({
  description: "The business, as shown in the dashboard (admin API: returned on creation).",
  override: ({ jsonSchema }) => {
    delete jsonSchema.pattern;
    Object.assign(jsonSchema, { type: "integer", format: "int64", minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
  },
});

export const paymentIdPath = paymentIdParam.meta({ description: "The payment id returned on create." });
