import { z } from "zod";
import { isExactDouble } from "@/domain/decimal";
import { newFieldErrors, addFieldError } from "./errors";
import { mergeFieldErrors, validationError, zodFieldErrors } from "./parse";
import { isAcceptableText, TEXT_RULE } from "./text";

/**
 * Query parameter types, one definition each, for every query the API reads. Values are taken
 * exactly as sent: no trimming, no `0x10`, `1e2` or empty value read as a number. Each renders in
 * the OpenAPI document as the type a client sends (integer, number, date-time), not the string it
 * travels as.
 */

const INTEGER = /^-?[0-9]+$/;
const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

type Bounds = { min: number; max: number };

/** An integer in plain decimal digits, within `min`..`max` (at most 2^53-1). */
export function queryInteger({ min, max }: Bounds, { example, ...meta }: { description: string; example: number; format?: string }) {
  return z
    .string()
    .regex(INTEGER, "must be an integer in decimal digits")
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .meta({
      ...meta,
      override: ({ jsonSchema }) =>
        replaceSchema(jsonSchema, { type: "integer", format: "int32", minimum: min, maximum: max, ...meta, examples: [example] }),
    });
}

/** A decimal number (`10`, `12.50`), no exponent, at least `min`, held exactly by a double. */
export function queryDecimal(min: number, { example, ...meta }: { description: string; example: number }) {
  const description = `${meta.description} A decimal such as \`10\` or \`12.50\` (no exponent), held exactly by a double: at most 15 significant digits are always safe.`;
  return z
    .string()
    .regex(DECIMAL, "must be a decimal number such as 10 or 12.50")
    .refine(isExactDouble, "has more digits than can be held exactly; send at most 15 significant digits")
    .transform(Number)
    .pipe(z.number().min(min, min === 0 ? "must not be negative" : `must be at least ${min}`))
    .meta({
      description,
      override: ({ jsonSchema }) => replaceSchema(jsonSchema, { type: "number", minimum: min, description, examples: [example] }),
    });
}

/** The instants PostgreSQL and JavaScript both print as an ordinary RFC 3339 date-time. */
export const EARLIEST_TIME = "0001-01-01T00:00:00Z";
export const LATEST_TIME = "9999-12-31T23:59:59.999Z";
const TIME_RANGE = [Date.parse(EARLIEST_TIME), Date.parse(LATEST_TIME)] as const;

/**
 * An RFC 3339 date-time with an offset, whose UTC instant lies in years 1-9999:
 * `9999-12-31T23:59:59-14:00` is a valid date-time but falls in year 10000, which no timestamp
 * column can be compared with as text.
 */
export function queryDateTime({ example, ...meta }: { description: string; example: string }) {
  return z.iso
    .datetime({ offset: true, error: "must be an ISO 8601 date-time with an offset, e.g. 2026-01-31T12:00:00Z" })
    .refine((v) => {
      const t = Date.parse(v);
      return t >= TIME_RANGE[0] && t <= TIME_RANGE[1];
    }, `must fall between ${EARLIEST_TIME} and ${LATEST_TIME} in UTC`)
    .meta({
      description: `${meta.description} Between ${EARLIEST_TIME} and ${LATEST_TIME} (UTC).`,
      examples: [example],
    });
}

/** Free text of at most `max` characters under the text rule; an empty value is left out. */
export function queryText(max: number, { example, ...meta }: { description: string; example: string }) {
  const description = `${meta.description} At most ${max} characters, with no control characters other than tab, line feed and carriage return and no unpaired surrogates.`;
  return z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine(isAcceptableText, TEXT_RULE)
    .transform((v) => (v === "" ? undefined : v))
    .meta({ description, override: ({ jsonSchema }) => replaceSchema(jsonSchema, { type: "string", maxLength: max, description, examples: [example] }) });
}

function replaceSchema(target: Record<string, unknown>, next: Record<string, unknown>) {
  for (const k of Object.keys(target)) delete target[k];
  Object.assign(target, next);
}

/**
 * Reads a query string against an object schema (D1): names match case-insensitively, the
 * parameters in `arrays` repeat (a trailing `[]` and comma-separated values are accepted too),
 * and a single-valued parameter given twice, or an unknown one, is an error. Every wrong
 * parameter is reported in one 400.
 */
export function parseQuery<S extends z.ZodObject>(search: URLSearchParams, schema: S, arrays: ReadonlySet<string> = new Set()): z.infer<S> {
  const canonical = new Map(Object.keys(schema.shape).map((k) => [k.toLowerCase(), k]));
  // Null-prototype records: a parameter named `constructor`, `toString` or `__proto__` is just an unknown name.
  const raw: Record<string, string | string[]> = Object.create(null);
  const errors = newFieldErrors();
  for (const [name, value] of search) {
    const key = canonical.get(name.toLowerCase().replace(/\[\]$/, ""));
    if (!isAcceptableText(name)) addFieldError(errors, "query", `a parameter name ${TEXT_RULE}`);
    else if (key === undefined) addFieldError(errors, name, `unknown query parameter; allowed: ${[...canonical.values()].join(", ")}`);
    else if (arrays.has(key)) ((raw[key] ??= []) as string[]).push(...value.split(",").filter(Boolean));
    else if (key in raw) addFieldError(errors, key, "given more than once");
    else raw[key] = value;
  }
  const result = schema.safeParse(raw);
  const all = result.success ? errors : mergeFieldErrors(errors, zodFieldErrors(result.error));
  if (Object.keys(all).length) throw validationError(all, "Query");
  return result.data as z.infer<S>;
}
