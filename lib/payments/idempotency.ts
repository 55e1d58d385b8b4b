import { createHash } from "node:crypto";
import { invalidField, newFieldErrors, type FieldErrors } from "@/lib/http/errors";
import type { Idempotency } from "./create";

export const IDEMPOTENCY_HEADER = "idempotency-key";

/** Key order and whitespace do not make two bodies different. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const KEY_RULE = "must be 1 to 255 visible ASCII characters";
const validKey = (key: string) => key.length > 0 && key.length <= 255 && /^[\x21-\x7e]+$/.test(key);

/** D13: the header's errors, if it is there and malformed, to report with the body's. */
export function idempotencyKeyErrors(req: Request): FieldErrors {
  const key = req.headers.get(IDEMPOTENCY_HEADER);
  const errors = newFieldErrors();
  if (key !== null && !validKey(key)) errors["Idempotency-Key"] = [KEY_RULE];
  return errors;
}

/** D13: `Idempotency-Key` (1-255 printable characters) and the hash of the body it guards. */
export function idempotencyFrom(req: Request, body: unknown): Idempotency | undefined {
  const key = req.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return undefined;
  if (!validKey(key)) throw invalidField("Idempotency-Key", KEY_RULE);
  return { key, requestHash: createHash("sha256").update(canonical(body)).digest("hex") };
}
