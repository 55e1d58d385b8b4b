import { z } from "zod";
import type {
  ZodOpenApiContentObject,
  ZodOpenApiRequestBodyObject,
  ZodOpenApiResponseObject,
  ZodOpenApiSecuritySchemeObject,
} from "zod-openapi";
import type { ProblemCode } from "@/lib/http/errors";
import { PROBLEM_CODES, problemTypeUri } from "./problems";

/** D12: success bodies are offered in these media types (application/json is the default). */
export const SUCCESS_MEDIA_TYPES = ["application/json", "text/json", "text/plain"] as const;
/** D12: errors are application/problem+json unless `Accept` names one of the success types. */
export const ERROR_MEDIA_TYPES = ["application/problem+json", ...SUCCESS_MEDIA_TYPES] as const;
/**
 * D12: the media types a request body is listed under, each one a client may send as it is. The
 * server also reads any `application/<name>+json` as JSON (lib/http/media.ts), which the body's
 * description says: a range such as `application/*+json` is no Content-Type a client can send.
 */
export const REQUEST_MEDIA_TYPES = ["application/json", "text/json"] as const;
/** What every request body's description says about the media types it is read under. */
export const REQUEST_MEDIA_NOTE =
  "Sent as `application/json` or `text/json`; any other `application/<name>+json` type (`application/merge-patch+json`, `application/vnd.api+json`) is read as JSON too.";

const content = (types: readonly string[], schema: z.ZodType): ZodOpenApiContentObject =>
  Object.fromEntries(types.map((t) => [t, { schema }]));

/**
 * What the one body reader (lib/http/body.ts) enforces on every request body before its schema
 * is applied; JSON Schema cannot say any of it, so every request body's description does.
 */
export const BODY_RULES =
  "JSON of at most 64 KB (65,536 bytes), nested at most 32 levels deep. Every string and every key follows the text rule (no control characters other than tab, line feed and carriage return, and no unpaired surrogates); the key `__proto__` is refused. Every number is read exactly as written: one that no double holds exactly (`0.499999999999999999999`, `1e400`) is refused, never rounded; 15 significant digits are always safe. Unknown fields are refused. All the body's errors are reported together in one 400.";

type Example = { summary: string; value: unknown };

/**
 * A JSON request body under the JSON media types of D12, with an example: `example` is
 * one value (it must be accepted as is); `examples` names several, each with a summary.
 */
export function jsonBody(
  schema: z.ZodType,
  opts: { description: string; required?: boolean } & ({ example: unknown } | { examples: Record<string, Example> }),
): ZodOpenApiRequestBodyObject {
  const { description, required = true, ...ex } = opts;
  return {
    description: `${description} ${REQUEST_MEDIA_NOTE} ${BODY_RULES}`,
    required,
    content: Object.fromEntries(REQUEST_MEDIA_TYPES.map((t) => [t, { schema, ...ex }])),
  };
}

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
    status: z.number().int().min(400).max(599).meta({ format: "int32", description: "The HTTP status code." }),
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

/** The rate limit of D14, in words (the numbers in force are in `info.description`). */
export const RATE_LIMIT_RULE =
  "Each API key has a token bucket: `RATE_LIMIT_PER_SECOND` requests per second (100 by default) with bursts up to `RATE_LIMIT_BURST` (200 by default), counted by each server process on its own. Over the limit: 429 with `Retry-After`.";

const ERROR_RESPONSES = {
  400: problem(
    "BadRequest",
    ["validation-error", "malformed-request"],
    "Invalid path or query parameters, headers or body; `errors` names each field and `detail` repeats the messages. A body that is empty, not JSON, not UTF-8 or nested too deeply is `malformed-request`.",
  ),
  401: problem(
    "Unauthorized",
    ["unauthorized"],
    "The bearer token is missing, malformed, wrongly signed, expired, revoked or unknown.",
    z.object({
      "WWW-Authenticate": z
        .string()
        .meta({ description: 'The challenge: `Bearer realm="api"` for an API key, `Bearer realm="admin"` for the admin token.', examples: ['Bearer realm="api"'] }),
    }),
  ),
  403: problem("Forbidden", ["forbidden"], "The API key has no permission for the business in the path (also when no such business exists)."),
  404: problem("NotFound", ["not-found"], "The addressed resource does not exist."),
  409: problem(
    "IdempotencyConflict",
    ["idempotency-conflict"],
    "The `Idempotency-Key` was used before, within 24 hours, with a different body.",
  ),
  413: problem("PayloadTooLarge", ["payload-too-large"], "The request body exceeds 64 KB (65,536 bytes)."),
  415: problem(
    "UnsupportedMediaType",
    ["unsupported-media-type"],
    "The request body is not sent as JSON: the `Content-Type` must be `application/json`, `text/json` or another `application/<name>+json` type.",
  ),
  429: problem(
    "TooManyRequests",
    ["rate-limited"],
    `The API key's rate limit was exceeded. ${RATE_LIMIT_RULE}`,
    z.object({
      "Retry-After": z
        .string()
        .regex(/^[1-9][0-9]*$/)
        .meta({ description: "Whole seconds to wait before retrying.", examples: ["1"] }),
    }),
  ),
} satisfies Record<number, ZodOpenApiResponseObject>;
type ErrorStatus = keyof typeof ERROR_RESPONSES;

const ADMIN_DISABLED = problem("AdminDisabled", ["admin-disabled"], "The admin API is disabled: ADMIN_TOKEN is not set.");

/** A 409 `conflict`: the request is valid but the resource's current state forbids it (`why`). */
export const stateConflict = (why: string): ZodOpenApiResponseObject => ({
  description: `${why} Problem type: \`conflict\`.`,
  content: content(ERROR_MEDIA_TYPES, ProblemDetailsSchema),
});

/** A 503 `rate-unavailable`: no fresh exchange rate for the coin in the payment's currency. */
export const RATE_UNAVAILABLE = problem(
  "RateUnavailable",
  ["rate-unavailable"],
  "No usable exchange rate for the chosen coin in the payment's currency: the market rates are out of date, or no rate source serves live payments. Other coins may still be quotable; retry later.",
);

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
