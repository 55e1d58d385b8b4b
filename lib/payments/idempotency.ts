import { createHash } from "node:crypto";
import { invalidField } from "@/lib/http/errors";
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

/** D13: `Idempotency-Key` (1-255 printable characters) and the hash of the body it guards. */
export function idempotencyFrom(req: Request, body: unknown): Idempotency | undefined {
  const key = req.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return undefined;
  if (key.length === 0 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw invalidField("Idempotency-Key", "must be 1 to 255 visible ASCII characters");
  }
  return { key, requestHash: createHash("sha256").update(canonical(body)).digest("hex") };
}
