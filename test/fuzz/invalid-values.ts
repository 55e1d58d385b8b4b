import fc from "fast-check";
import { resolve, type Schema } from "./openapi";
import { numericBounds, textOf, typesOf } from "./schema-arbitrary";
import { isValid } from "./schema-validator";

/**
 * Values that break ONE schema node, each with a short reason: wrong type, out of range,
 * not an integer, not a multiple, too long or too short, not matching the pattern or the
 * format, not in the enum, too many or too few items. Every candidate is checked with ajv to
 * be really invalid. Nested fields are reached by mutations.ts, which walks the body.
 */

export type Invalid = { value: unknown; why: string };

const invalid = (s: Schema, why: string, values: fc.Arbitrary<unknown>): fc.Arbitrary<Invalid> =>
  values.filter((v) => !isValid(s, v)).map((value) => ({ value, why }));

/** Sample values of each JSON type; the ones a schema refuses are its wrong types. */
const ONE_OF_EACH_TYPE: unknown[] = ["fuzz", 7, 2.5, true, null, [], {}, [1, "a"], { a: 1 }];

/** Strings that break a format, per format (ajv decides which really do). */
const NOT_FORMATTED: Record<string, string[]> = {
  "date-time": ["2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-01-01", "2026-01-01T24:00:00Z", "yesterday", "2026-01-01T00:00:00"],
  date: ["2026-13-01", "01/02/2026", "2026-1-1"],
  uuid: ["not-a-uuid", "00000000-0000-0000-0000-00000000000g", "123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}"],
  email: ["jane", "jane@", "@example.com", "jane@@example.com", "jane example@example.com", "jane@example", `${"j".repeat(65)}@example.com`],
  uri: ["example.com/x", "http//x", "://x", "not a url", "http://exa mple.com/", "httPs://example.com/a b?x[y]", "https://example.com/?x[y]=1", "https://example.com/a|b"],
  ipv4: ["256.1.1.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "a.b.c.d"],
  ipv6: ["1::2::3", "12345::", "g::1", ":::"],
};

function numberCases(s: Schema, integer: boolean): fc.Arbitrary<Invalid>[] {
  const out: fc.Arbitrary<Invalid>[] = [];
  const { lo, hi } = numericBounds(s, integer, Infinity);
  const below = [s.exclusiveMinimum, lo - 1, lo - 0.5, lo - 1e6, -1e300].filter((v) => v !== undefined && Number.isFinite(v));
  const above = [s.exclusiveMaximum, hi + 1, hi + 0.5, hi * 2 + 1, 1e300].filter((v) => v !== undefined && Number.isFinite(v));
  if (Number.isFinite(lo)) out.push(invalid(s, "below the minimum", fc.constantFrom(...below)));
  if (Number.isFinite(hi)) out.push(invalid(s, "above the maximum", fc.constantFrom(...above)));
  if (integer) out.push(invalid(s, "not an integer", fc.integer({ min: -1000, max: 1000 }).map((n) => n + 0.5)));
  if (s.multipleOf) out.push(invalid(s, "not a multiple", fc.integer({ min: 1, max: 1000 }).map((n) => n * s.multipleOf + s.multipleOf / 2)));
  return out;
}

function stringCases(s: Schema): fc.Arbitrary<Invalid>[] {
  const out: fc.Arbitrary<Invalid>[] = [];
  if (s.maxLength !== undefined) {
    out.push(invalid(s, `longer than ${s.maxLength}`, fc.integer({ min: 1, max: 20 }).chain((extra) => textOf(s.maxLength + extra, s.maxLength + extra))));
  }
  if (s.minLength > 0) out.push(invalid(s, `shorter than ${s.minLength}`, textOf(0, s.minLength - 1)));
  if (s.pattern !== undefined) out.push(invalid(s, "not matching the pattern", textOf(0, 12)));
  if (s.format && NOT_FORMATTED[s.format]) out.push(invalid(s, `not a valid ${s.format}`, fc.constantFrom(...NOT_FORMATTED[s.format])));
  return out;
}

function arrayCases(s: Schema): fc.Arbitrary<Invalid>[] {
  const out: fc.Arbitrary<Invalid>[] = [];
  const items = resolve(s.items ?? {});
  // Items that the item schema accepts, to break only the count.
  const fill = Array.isArray(items.enum) ? items.enum[0] : typesOf(items).includes("integer") ? (items.minimum ?? 1) : "x";
  if (s.maxItems !== undefined) out.push(invalid(s, `more than ${s.maxItems} items`, fc.constant(Array(s.maxItems + 1).fill(fill))));
  if (s.minItems > 0) out.push(invalid(s, `fewer than ${s.minItems} items`, fc.constant([])));
  return out;
}

/** Invalid values of one schema node, or undefined when nothing is invalid there. */
export function invalidArb(schema: Schema): fc.Arbitrary<Invalid> | undefined {
  const s = resolve(schema);
  const cases: fc.Arbitrary<Invalid>[] = [];
  const wrongTypes = ONE_OF_EACH_TYPE.filter((v) => !isValid(s, v));
  if (wrongTypes.length) cases.push(fc.constantFrom(...wrongTypes).map((value) => ({ value, why: "wrong type or value" })));
  if (Array.isArray(s.enum) && s.enum.every((e: unknown) => typeof e === "string")) {
    const near = s.enum.flatMap((e: string) => [e.toLowerCase(), `${e}X`, ` ${e}`]);
    cases.push(invalid(s, "not one of the enum", fc.constantFrom("", "UNKNOWN_VALUE", ...near)));
  }
  // anyOf/oneOf: a value of a type some branch takes that no branch accepts.
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
    const b = resolve(branch);
    for (const c of caseArbs(b)) cases.push(c.filter((inv) => !isValid(s, inv.value)));
  }
  cases.push(...caseArbs(s));
  return cases.length ? fc.oneof(...cases) : undefined;
}

function caseArbs(s: Schema): fc.Arbitrary<Invalid>[] {
  const types = typesOf(s);
  const out: fc.Arbitrary<Invalid>[] = [];
  if (types.includes("integer")) out.push(...numberCases(s, true));
  else if (types.includes("number")) out.push(...numberCases(s, false));
  if (types.includes("string")) out.push(...stringCases(s));
  if (types.includes("array")) out.push(...arrayCases(s));
  return out;
}

/**
 * Control characters and unpaired surrogates, which the service refuses in all text a client
 * sends (body strings and keys, query values, headers): NUL cannot be stored by PostgreSQL at
 * all, the others only garble logs. Inserted into an otherwise valid string.
 */
export const CONTROL_CHARS = ["\u0000", "\u0001", "\u0007", "\u0008", "\u000b", "\u000c", "\u001b", "\u001f", "\ud800", "\udfff"];

/** In a URL an unpaired surrogate cannot be sent at all (it is encoded as U+FFFD), so `inUrl` leaves them out. */
export const withControlChar = (valid: string, inUrl = false): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom(...CONTROL_CHARS.filter((c) => !inUrl || c.isWellFormed())), fc.nat({ max: valid.length }))
    .map(([c, at]) => valid.slice(0, at) + c + valid.slice(at));
