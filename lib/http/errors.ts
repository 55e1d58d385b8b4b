/** Field name → messages, as returned in a ProblemDetails' `errors`. */
export type FieldErrors = Record<string, string[]>;

/**
 * An empty FieldErrors map without a prototype: field names come from the client, and
 * `constructor` or `__proto__` must be plain keys, not Object.prototype's members.
 */
export function newFieldErrors(): FieldErrors {
  return Object.create(null) as FieldErrors;
}

/**
 * Field errors as a plain object, for a server action's result: React refuses to send an object
 * without a prototype back to the browser, so a form would get a server error instead of its messages.
 */
export function plainFieldErrors(errors: FieldErrors | undefined): Record<string, string[]> | undefined {
  return errors ? Object.fromEntries(Object.entries(errors)) : undefined;
}

export function addFieldError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

export const PROBLEM_TYPES = {
  "validation-error": "Validation failed",
  "malformed-request": "Malformed request",
  unauthorized: "Unauthorized",
  forbidden: "Forbidden",
  "not-found": "Not found",
  "method-not-allowed": "Method not allowed",
  conflict: "Conflict",
  "idempotency-conflict": "Idempotency key conflict",
  "payload-too-large": "Payload too large",
  "unsupported-media-type": "Unsupported media type",
  "rate-limited": "Too many requests",
  "admin-disabled": "Admin API disabled",
  "rate-unavailable": "Exchange rate unavailable",
  "internal-error": "Internal server error",
} as const;
export type ProblemCode = keyof typeof PROBLEM_TYPES;

/**
 * The one error type of the service. Thrown anywhere; turned into a ProblemDetails response
 * in one place (`problemResponse`).
 */
export class ApiError extends Error {
  constructor(
    readonly code: ProblemCode,
    readonly status: number,
    readonly detail: string,
    readonly fieldErrors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = "ApiError";
  }
}

export const badRequest = (detail: string, fieldErrors?: FieldErrors) =>
  new ApiError("validation-error", 400, detail, fieldErrors);
export const notFound = (detail: string) => new ApiError("not-found", 404, detail);
export const conflict = (detail: string) => new ApiError("conflict", 409, detail);

/** A 400 naming one field: `invalidField("amount", "must be at least 0.5")`. */
export function invalidField(field: string, message: string): ApiError {
  return badRequest(`${field}: ${message}`, { [field]: [message] });
}
