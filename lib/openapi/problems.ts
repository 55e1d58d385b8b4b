import { PROBLEM_TYPES, type ProblemCode } from "@/lib/http/errors";

/**
 * What each problem type means, for the OpenAPI document and the `/docs` page. Typed over
 * every code of PROBLEM_TYPES, so a new code cannot ship undocumented.
 */
export const PROBLEM_DOCS: Record<ProblemCode, { status: number; description: string }> = {
  "validation-error": {
    status: 400,
    description:
      "A path, query or body field is invalid or unknown. `errors` maps each field to its messages, and `detail` repeats them in one sentence.",
  },
  "malformed-request": {
    status: 400,
    description:
      "The request body is empty, not valid JSON, not valid UTF-8, nested deeper than 32 levels or not received in full, or the path is not valid percent-encoded UTF-8.",
  },
  unauthorized: {
    status: 401,
    description:
      "The `Authorization: Bearer` header is missing or malformed, or the key is wrongly signed, expired or revoked. The response carries `WWW-Authenticate`.",
  },
  forbidden: {
    status: 403,
    description: "The API key is valid but has no permission for the business in the path.",
  },
  "not-found": {
    status: 404,
    description:
      "No payment (or business, API key, webhook delivery) matches the id in the path, or no endpoint matches the path. The simulator answers 404 to a `live` business.",
  },
  "method-not-allowed": {
    status: 405,
    description: "The endpoint exists but not for this HTTP method. The `Allow` header lists the methods it accepts.",
  },
  conflict: {
    status: 409,
    description:
      "The request conflicts with the current state of the resource: a simulator action the payment's state forbids, or a webhook delivery that is being attempted right now.",
  },
  "idempotency-conflict": {
    status: 409,
    description:
      "The `Idempotency-Key` was already used, within the last 24 hours, with a different request body.",
  },
  "payload-too-large": {
    status: 413,
    description: "The request body is larger than 64 KB (65,536 bytes).",
  },
  "unsupported-media-type": {
    status: 415,
    description: "The request body is not sent as JSON (`application/json`, `text/json` or another `application/<name>+json` type).",
  },
  "rate-limited": {
    status: 429,
    description: "The API key exceeded its request rate. Retry after the number of seconds in the `Retry-After` header.",
  },
  "admin-disabled": {
    status: 403,
    description: "The admin API is disabled because the operator has not set `ADMIN_TOKEN`.",
  },
  "rate-unavailable": {
    status: 503,
    description:
      "No usable exchange rate prices the chosen coin in the payment's currency right now: the market rates are older than the operator's limit (`RATE_MAX_AGE_SECONDS`), or no rate source serves live payments. Other coins may still be quotable; retry later or choose another.",
  },
  "internal-error": {
    status: 500,
    description: "An unexpected error. `detail` carries a reference to quote to the operator; the cause is logged on the server.",
  },
};

export const PROBLEM_CODES = Object.keys(PROBLEM_TYPES) as ProblemCode[];

/** The `type` URI of a problem, as `problemBody` writes it. */
export const problemTypeUri = (code: ProblemCode) => `/docs#problem-${code}`;
