import { ApiError, PROBLEM_TYPES, type FieldErrors } from "./errors";
import { problemType, successType } from "./media";
import { log } from "@/log/logger.mjs";

const charset = (type: string) => `${type}; charset=utf-8`;

/** The spec's envelope: `{ data, message: null, errors: null }`. */
export function envelope(req: Request, data: unknown, status = 200, headers?: HeadersInit): Response {
  // JSON.stringify(undefined) is undefined, not text: the envelope then carries `"data":null`.
  return envelopeJson(req, JSON.stringify(data) ?? "null", status, headers);
}

/** The envelope around data that is JSON text already (a list page the database wrote). */
export function envelopeJson(req: Request, dataJson: string, status = 200, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set("content-type", charset(successType(req.headers.get("accept"))));
  return new Response(`{"data":${dataJson},"message":null,"errors":null}`, { status, headers: h });
}

export type ProblemDetails = {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: FieldErrors;
};

export function problemBody(req: Request, err: ApiError): ProblemDetails {
  return {
    type: `/docs#problem-${err.code}`,
    title: PROBLEM_TYPES[err.code],
    status: err.status,
    detail: err.detail,
    instance: new URL(req.url).pathname,
    ...(err.fieldErrors ? { errors: err.fieldErrors } : {}),
  };
}

/** The one place an error becomes an HTTP response. Unknown errors are logged and hidden. */
export function problemResponse(req: Request, error: unknown): Response {
  let err: ApiError;
  if (error instanceof ApiError) {
    err = error;
    log.debug({ code: err.code, status: err.status }, err.detail);
  } else {
    const ref = crypto.randomUUID();
    log.error({ reference: ref, method: req.method, path: new URL(req.url).pathname, err: error }, `unhandled error (reference ${ref})`);
    err = new ApiError("internal-error", 500, `An unexpected error occurred (reference ${ref}).`);
  }
  const headers = new Headers(err.headers);
  headers.set("content-type", charset(problemType(req.headers.get("accept"))));
  return new Response(JSON.stringify(problemBody(req, err)), { status: err.status, headers });
}
