import { parse as parseLosslessJson } from "lossless-json";
import type { z } from "zod";
import { isExactDouble } from "@/domain/decimal";
import { addFieldError, ApiError, newFieldErrors, type FieldErrors } from "./errors";
import { isJsonMediaType } from "./media";
import { fieldName, mergeFieldErrors, validationError, zodFieldErrors } from "./parse";
import { isAcceptableText, TEXT_RULE } from "./text";

export const MAX_BODY_BYTES = 64 * 1024;
export const MAX_JSON_DEPTH = 32;

export type BodyResult<T> = {
  /** The validated, typed body. */
  data: T;
  /** The JSON value as sent (absent for a left-out optional body): what an idempotency key guards. */
  raw: unknown;
};

/**
 * The one body reader of every route (D11a, D12): at most MAX_BODY_BYTES of JSON, parsed with
 * each number's source text kept, checked for what no field can hold, then validated by
 * `schema`. Every wrong field is reported in one 400, whether the text rule, an inexact number
 * or the schema found it.
 *
 * With `optional`, a body that is absent or only whitespace stands for `{}`, whatever its
 * Content-Type; a body that is present must still be JSON, and `null` is not an object.
 * `known` carries errors the route found elsewhere (a header), reported in the same 400.
 * `maxBytes` raises the limit for a route whose body may carry a file (a business's logo).
 */
export async function readBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  opts: { optional?: boolean; known?: FieldErrors; maxBytes?: number } = {},
): Promise<BodyResult<z.infer<S>>> {
  const known = opts.known ?? newFieldErrors();
  const maxBytes = opts.maxBytes ?? MAX_BODY_BYTES;
  const isJson = isJsonMediaType(req.headers.get("content-type"));
  if (!opts.optional && !isJson) throw unsupportedMediaType();
  if (Number(req.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge(maxBytes);
  const text = await readLimited(req, maxBytes);
  if (text.trim() === "") {
    if (opts.optional) return { data: validate(schema, {}, known), raw: undefined };
    throw new ApiError("malformed-request", 400, "The request body is empty; a JSON object is expected.", { body: ["required"] });
  }
  if (!isJson) throw unsupportedMediaType();
  const raw = parseJson(text);
  return { data: validate(schema, raw, mergeFieldErrors(known, checkJsonValue(raw))), raw };
}

function validate<S extends z.ZodType>(schema: S, value: unknown, found: FieldErrors): z.infer<S> {
  const result = schema.safeParse(value);
  const errors = result.success ? found : mergeFieldErrors(found, zodFieldErrors(result.error));
  if (Object.keys(errors).length) throw validationError(errors);
  return result.data as z.infer<S>;
}

/**
 * A JSON number whose exact decimal value no double holds (`0.499999999999999999999`,
 * `1.10000000000000000001`, `1e400`). JSON.parse would round it silently, so a too-small amount
 * could pass as 0.5; it is kept as text and refused by name instead.
 */
class InexactNumber {
  constructor(
    readonly text: string,
    readonly nearest: number,
  ) {}
}

function parseNumber(text: string): number | InexactNumber {
  return isExactDouble(text) ? Number(text) : new InexactNumber(text, Number(text));
}

function parseJson(text: string): unknown {
  try {
    return parseLosslessJson(text, null, parseNumber);
  } catch (e) {
    const why = e instanceof Error ? e.message : "syntax error";
    throw new ApiError("malformed-request", 400, `The request body is not valid JSON: ${why}`, { body: ["not valid JSON"] });
  }
}

/**
 * Refuses what no field of ours can hold, before anything walks the value recursively: nesting
 * deeper than MAX_JSON_DEPTH, text that breaks the text rule, numbers no double holds exactly,
 * and the key `__proto__` (zod drops it from records silently). Inexact numbers are replaced by
 * their nearest double, so the schema can still report on the other fields. Iterative, so a
 * hostile body cannot exhaust the stack.
 */
function checkJsonValue(root: unknown): FieldErrors {
  const errors = newFieldErrors();
  const add = (path: PropertyKey[], msg: string) => addFieldError(errors, fieldName(path), msg);
  type Slot = { value: unknown; path: PropertyKey[]; set?: (v: unknown) => void };
  const stack: Slot[] = [{ value: root, path: [] }];
  while (stack.length > 0 && Object.keys(errors).length < 20) {
    const { value, path, set } = stack.pop()!;
    if (typeof value === "string") {
      if (!isAcceptableText(value)) add(path, TEXT_RULE);
    } else if (value instanceof InexactNumber) {
      add(path, `${value.text.length > 40 ? "the number" : value.text} has more digits than can be held exactly; send at most 15 significant digits`);
      set?.(value.nearest);
    } else if (value !== null && typeof value === "object") {
      if (path.length >= MAX_JSON_DEPTH) {
        throw new ApiError("malformed-request", 400, `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`, {
          body: [`nested deeper than ${MAX_JSON_DEPTH} levels`],
        });
      }
      if (Array.isArray(value)) {
        value.forEach((v, i) => stack.push({ value: v, path: [...path, i], set: (x) => (value[i] = x) }));
      } else {
        const obj = value as Record<string, unknown>;
        for (const [k, v] of Object.entries(obj)) {
          if (!isAcceptableText(k)) add([...path, k], `the key ${TEXT_RULE}`);
          if (k === "__proto__") add([...path, k], "the key __proto__ is reserved");
          stack.push({ value: v, path: [...path, k], set: (x) => (obj[k] = x) });
        }
      }
    }
  }
  return errors;
}

const tooLarge = (maxBytes: number) =>
  new ApiError("payload-too-large", 413, `The request body exceeds ${maxBytes} bytes.`, {
    body: [`larger than ${maxBytes} bytes`],
  });

const unsupportedMediaType = () =>
  new ApiError(
    "unsupported-media-type",
    415,
    "The request body must be JSON: send Content-Type: application/json (or text/json, or another application/<name>+json type).",
  );

async function readLimited(req: Request, maxBytes: number): Promise<string> {
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
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError("malformed-request", 400, "The request body is not valid UTF-8.", { body: ["not valid UTF-8"] });
  }
}
