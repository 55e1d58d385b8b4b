import type { z } from "zod";
import { addFieldError, ApiError, badRequest, newFieldErrors, type FieldErrors } from "./errors";
import { isJsonMediaType } from "./media";

export const MAX_BODY_BYTES = 64 * 1024;

function fieldName(path: PropertyKey[]): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out || "body";
}

/** zod issues → `{ field: [messages] }`, with unknown fields named one by one. */
export function zodFieldErrors(error: z.ZodError, prefix: PropertyKey[] = []): FieldErrors {
  const out = newFieldErrors();
  const add = (field: string, msg: string) => addFieldError(out, field, msg);
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add(fieldName([...prefix, ...issue.path, key]), "unknown field");
    } else if (issue.code === "invalid_key") {
      // A record key failed its own schema: report why (zod's own message only says "Invalid key").
      const field = fieldName([...prefix, ...issue.path]);
      for (const inner of issue.issues) add(field, inner.message);
    } else {
      add(fieldName([...prefix, ...issue.path]), issue.message);
    }
  }
  return out;
}

export function validationError(fieldErrors: FieldErrors, what = "Request"): ApiError {
  const summary = Object.entries(fieldErrors)
    .map(([f, msgs]) => `${f}: ${msgs.join("; ")}`)
    .join(". ");
  return badRequest(`${what} validation failed. ${summary}`, fieldErrors);
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown, what?: string): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(zodFieldErrors(result.error), what);
  return result.data;
}

/** Reads at most MAX_BODY_BYTES of the body as JSON (D11a, D12). */
export async function readJsonBody(req: Request, opts: { optional?: boolean } = {}): Promise<unknown> {
  // An optional body may be left out entirely (`curl -X POST` with no data): no type, no bytes.
  if (opts.optional && !req.headers.get("content-type")) {
    const text = await readLimited(req);
    if (text.trim() === "") return undefined;
  }
  if (!isJsonMediaType(req.headers.get("content-type"))) {
    throw new ApiError(
      "unsupported-media-type",
      415,
      "The request body must be JSON: send Content-Type: application/json (or text/json, application/*+json).",
    );
  }
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await readLimited(req);
  if (text.trim() === "") throw new ApiError("malformed-request", 400, "The request body is empty; a JSON object is expected.", { body: ["required"] });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message : "syntax error";
    throw new ApiError("malformed-request", 400, `The request body is not valid JSON: ${why}`, { body: ["not valid JSON"] });
  }
  checkJsonValue(value);
  return value;
}

export const MAX_JSON_DEPTH = 32;

/**
 * Refuses what no field of ours can hold, before anything walks the value recursively: nesting
 * deeper than MAX_JSON_DEPTH, strings or keys PostgreSQL cannot store (U+0000, lone
 * surrogates), and the key `__proto__`. Iterative, so a hostile body cannot exhaust the stack.
 */
function checkJsonValue(root: unknown): void {
  const errors = newFieldErrors();
  const add = (path: PropertyKey[], msg: string) => addFieldError(errors, fieldName(path), msg);
  const badText = (s: string) => s.includes("\u0000") || !s.isWellFormed();
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0 && Object.keys(errors).length < 20) {
    const { value, path } = stack.pop()!;
    if (typeof value === "string") {
      if (badText(value)) add(path, "must not contain NUL characters or unpaired surrogates");
    } else if (value !== null && typeof value === "object") {
      if (path.length >= MAX_JSON_DEPTH) {
        throw new ApiError("malformed-request", 400, `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`, {
          body: [`nested deeper than ${MAX_JSON_DEPTH} levels`],
        });
      }
      if (Array.isArray(value)) value.forEach((v, i) => stack.push({ value: v, path: [...path, i] }));
      else
        for (const [k, v] of Object.entries(value)) {
          if (badText(k)) add([...path, k], "the key must not contain NUL characters or unpaired surrogates");
          // zod drops an own `__proto__` key from records silently; refuse it instead of losing it.
          if (k === "__proto__") add([...path, k], "the key __proto__ is reserved");
          stack.push({ value: v, path: [...path, k] });
        }
    }
  }
  if (Object.keys(errors).length) throw validationError(errors);
}

const tooLarge = () =>
  new ApiError("payload-too-large", 413, `The request body exceeds ${MAX_BODY_BYTES} bytes.`, {
    body: [`larger than ${MAX_BODY_BYTES} bytes`],
  });

async function readLimited(req: Request): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // The client went away mid-body: a client error, not a server fault (no one reads the answer).
      throw new ApiError("malformed-request", 400, "The request body was not received in full.", { body: ["incomplete"] });
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError("malformed-request", 400, "The request body is not valid UTF-8.", { body: ["not valid UTF-8"] });
  }
}
