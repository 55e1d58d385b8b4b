import type { z } from "zod";
import { addFieldError, badRequest, newFieldErrors, type ApiError, type FieldErrors } from "./errors";

/** A zod path as a field name: `metadata.orderId`, `feeTransfers[0].percent`; the root is `body`. */
export function fieldName(path: PropertyKey[]): string {
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

/** Both maps' messages, field by field (`a`'s first). */
export function mergeFieldErrors(a: FieldErrors, b: FieldErrors): FieldErrors {
  const out = newFieldErrors();
  for (const errors of [a, b]) for (const [f, msgs] of Object.entries(errors)) for (const m of msgs) addFieldError(out, f, m);
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
