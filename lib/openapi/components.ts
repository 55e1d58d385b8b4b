import { z } from "zod";
import type { ZodOpenApiContentObject, ZodOpenApiResponseObject, ZodOpenApiSecuritySchemeObject } from "zod-openapi";
import type { ProblemCode } from "@/lib/http/errors";
import { PROBLEM_CODES, problemTypeUri } from "./problems";

/** D12: success bodies are offered in these media types (application/json is the default). */
export const SUCCESS_MEDIA_TYPES = ["application/json", "text/json", "text/plain"] as const;
/** D12: errors are application/problem+json unless `Accept` names one of the success types. */
export const ERROR_MEDIA_TYPES = ["application/problem+json", ...SUCCESS_MEDIA_TYPES] as const;
/** D12: request bodies are read as JSON under any JSON media type. */
export const REQUEST_MEDIA_TYPES = ["application/json", "text/json", "application/*+json"] as const;

const content = (types: readonly string[], schema: z.ZodType): ZodOpenApiContentObject =>
  Object.fromEntries(types.map((t) => [t, { schema }]));

export const requestContent = (schema: z.ZodType) => content(REQUEST_MEDIA_TYPES, schema);

/** The spec's success envelope around `data`: `{ data, message: null, errors: null }`. */
export function envelopeOf<T extends z.ZodType>(data: T, id: string) {
  return z
    .strictObject({
      data,
      message: z.null().meta({ description: "Always null on success." }),
      errors: z.null().meta({ description: "Always null on success." }),
    })
    .meta({ id, description: "Success envelope: the result is in `data`." });
}

/** A success response whose body is `envelopeOf(data)`, offered in the three media types of D12. */
export const success = (description: string, body: z.ZodType): ZodOpenApiResponseObject => ({
  description,
  content: content(SUCCESS_MEDIA_TYPES, body),
});

export const ProblemDetailsSchema = z
  .looseObject({
    type: z
      .enum(PROBLEM_CODES.map(problemTypeUri) as [string, ...string[]])
      .meta({ description: "URI reference of the problem type; documented at that anchor of /docs." }),
    title: z.string().meta({ description: "Short summary of the problem type." }),
    status: z.number().int().meta({ description: "The HTTP status code." }),
    detail: z.string().meta({ description: "What went wrong with this request, in a sentence." }),
    instance: z.string().meta({ description: "The request path." }),
    errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .meta({ description: "Field → messages, for every invalid field (`body`, a body field, a query or path parameter)." }),
  })
  .meta({
    id: "ProblemDetails",
    description: "An RFC 7807 problem. Extra properties may occur.",
    examples: [
      {
        type: problemTypeUri("validation-error"),
        title: "Validation failed",
        status: 400,
        detail: "Request validation failed. amount: must be at least 0.5",
        instance: "/v1/businesses/1/payments",
        errors: { amount: ["must be at least 0.5"] },
      },
    ],
  });

const problemList = (codes: ProblemCode[]) => codes.map((c) => `\`${c}\``).join(", ");

/** A reusable error response, registered under components.responses as `id`. */
function problem(id: string, codes: ProblemCode[], summary: string, headers?: ZodOpenApiResponseObject["headers"]) {
  const response: ZodOpenApiResponseObject = {
    id,
    description: `${summary} Problem type${codes.length > 1 ? "s" : ""}: ${problemList(codes)}.`,
    content: content(ERROR_MEDIA_TYPES, ProblemDetailsSchema),
    ...(headers && { headers }),
  };
  return response;
}

const ERROR_RESPONSES = {
  400: problem("BadRequest", ["validation-error", "malformed-request"], "Invalid parameters or body; `errors` names each field."),
  401: problem(
    "Unauthorized",
    ["unauthorized"],
    "Missing or invalid bearer token.",
    z.object({ "WWW-Authenticate": z.string().meta({ description: 'The challenge, e.g. `Bearer realm="api"`.' }) }),
  ),
  403: problem("Forbidden", ["forbidden"], "The API key has no permission for this business."),
  404: problem("NotFound", ["not-found"], "The addressed resource does not exist."),
  409: problem(
    "IdempotencyConflict",
    ["idempotency-conflict"],
    "The `Idempotency-Key` was used before with a different body, or its first request is still running.",
  ),
  413: problem("PayloadTooLarge", ["payload-too-large"], "The request body exceeds 64 KB."),
  415: problem("UnsupportedMediaType", ["unsupported-media-type"], "The request body is not JSON."),
  429: problem(
    "TooManyRequests",
    ["rate-limited"],
    "Rate limit of the API key exceeded.",
    z.object({ "Retry-After": z.string().meta({ description: "Seconds to wait before retrying." }) }),
  ),
} satisfies Record<number, ZodOpenApiResponseObject>;
type ErrorStatus = keyof typeof ERROR_RESPONSES;

const ADMIN_DISABLED = problem("AdminDisabled", ["admin-disabled"], "The admin API is disabled: ADMIN_TOKEN is not set.");

/** The error responses of a merchant API operation, by status. */
export const errors = (...statuses: ErrorStatus[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), ERROR_RESPONSES[s]])) as Record<`${ErrorStatus}`, ZodOpenApiResponseObject>;

/** The same for the admin API, whose only 403 is a disabled admin API. */
export const adminErrors = (...statuses: Exclude<ErrorStatus, 403 | 429>[]) => ({ ...errors(...statuses), 403: ADMIN_DISABLED });

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "`Authorization: Bearer <API_KEY>`. The API key is a JWT issued by the service for one business (and optionally its sub-businesses). Use it server-side only.",
  },
  adminBearer: {
    type: "http",
    scheme: "bearer",
    description: "`Authorization: Bearer $ADMIN_TOKEN`, the operator token. The admin API is disabled when ADMIN_TOKEN is unset.",
  },
} satisfies Record<string, ZodOpenApiSecuritySchemeObject>;
