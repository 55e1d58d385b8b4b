import fc from "fast-check";
import { FindingLog } from "./findings";
import type { Received } from "./fuzz-request";
import { CONTROL_CHARS } from "./invalid-values";
import { textOf } from "./schema-arbitrary";

/**
 * Requests to what the OpenAPI document does not describe — Better Auth under /api/auth and the
 * pages — built from malformed parts: path segments and query values that are odd, huge or not
 * decodable, hostile headers and bodies of every shape. What they must get is only "no 5xx"
 * (and the security headers, judged by the page fuzzer): there is no schema to hold them to.
 */

/** Text a server may choke on: control characters, lone surrogates, huge, or empty. */
export const nastyText: fc.Arbitrary<string> = fc.oneof(
  textOf(0, 40),
  fc.tuple(textOf(0, 10), fc.constantFrom(...CONTROL_CHARS), textOf(0, 10)).map(([a, c, b]) => a + c + b),
  fc.constantFrom("", " ", "null", "undefined", "NaN", "-1", "0", "1e999", "9223372036854775808", "__proto__", "constructor", "../../etc/passwd", "<script>alert(1)</script>", "' OR 1=1 --"),
  fc.integer({ min: 256, max: 100_000 }).map((n) => "x".repeat(n)),
);

/** Any JSON value, nasty strings included, nested a little. */
export const nastyJson: fc.Arbitrary<unknown> = fc.oneof({ weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) }, { weight: 3, arbitrary: nastyText });

/** JSON text nested far too deep, as an object of objects or an array of arrays. */
const deepJson = fc.tuple(fc.integer({ min: 33, max: 20_000 }), fc.boolean()).map(([depth, arrays]) =>
  arrays ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth),
);

/** Percent-escapes that do not decode to UTF-8, or decode to something a router may trip on. */
const BAD_ESCAPES = ["%", "%%", "%zz", "%E0%A4%A", "%ff", "%C0%AF", "%ED%A0%80", "%F4%90%80%80", "%00", "%2e%2e", "%2F", "%5C", "%0d%0a", "%u0041"];

/** One path segment, as it goes on the wire. */
export const segment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: nastyText.map((t) => encodeURIComponent(t.isWellFormed() ? t : t.toWellFormed())) },
  { weight: 3, arbitrary: fc.tuple(textOf(0, 6).map(encodeURIComponent), fc.constantFrom(...BAD_ESCAPES), textOf(0, 6).map(encodeURIComponent)).map((p) => p.join("")) },
  { weight: 1, arbitrary: fc.constantFrom("", ".", "..", "_next", "~", "index", "page", "route", "@", "(signed-in)", "[businessId]", "%5BbusinessId%5D") },
  { weight: 1, arbitrary: fc.constantFrom("0", "-1", "1.5", "1e3", "9223372036854775808", "00000000-0000-0000-0000-000000000000") },
);

/** A query string (with its `?`), or nothing. */
export const queryString: fc.Arbitrary<string> = fc.oneof(
  fc.constant(""),
  fc
    .array(fc.tuple(fc.oneof(segment, fc.constantFrom("_rsc", "__nextDataReq", "callbackURL", "redirect", "next")), segment), { minLength: 1, maxLength: 4 })
    .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`),
  fc.constantFrom("?", "?&&", "?=", "?a", "?%", "?a=%E0%A4%A"),
);

export type RawBody = { text: string } | { bytes: Uint8Array };

/** A request body of any shape, with the Content-Type it claims (or none). */
export function bodyArb(fields: string[]): fc.Arbitrary<{ body?: RawBody; contentType?: string }> {
  const object = fc.dictionary(fc.oneof(fc.constantFrom(...fields), nastyText), nastyJson, { maxKeys: 6 }).map((o) => JSON.stringify(o));
  const text: fc.Arbitrary<string> = fc.oneof(
    { weight: 4, arbitrary: object },
    nastyJson.map((v) => JSON.stringify(v) ?? "null"),
    deepJson,
    fc.constantFrom("", "{", '{"email":', "[1,]", "{'a':1}", '{"a":1}{"b":2}', "\ufeff{}", "null", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--x--\r\n", "a=1&b=%ff"),
    nastyText,
  );
  const contentType = fc.constantFrom(
    undefined,
    "application/json",
    "application/json",
    "application/json",
    "application/json",
    "application/json; charset=utf-16",
    "text/plain;charset=UTF-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "multipart/form-data",
    "application/octet-stream",
    "text/x-component",
    "*/*",
    "garbage",
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 6, arbitrary: fc.record({ body: text.map((t) => ({ text: t })), contentType }) },
    { weight: 1, arbitrary: fc.record({ body: fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ bytes })), contentType }) },
  );
}

/** A header value as HTTP carries it (latin-1 bytes without CR, LF or NUL). */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
  fc.constantFrom("", "null", "undefined", "%ff", "\u00ff\u00e9", "x".repeat(6000)),
);

/** A response fails "no 5xx" (status 0: the request got no answer at all). */
export function serverError(r: Received): { code: string; detail: string }[] {
  if (r.status >= 500 || r.status === 0) return [{ code: `server error ${r.status}`, detail: r.text.slice(0, 300) }];
  return [];
}

/** Records what a judge found wrong with one request, under the kind of request it was. */
export function recordFinding(log: FindingLog, o: { operation: string; category: string; what: string; received: Received; problems: { code: string; detail: string }[]; curl: string }) {
  if (o.problems.length) log.record({ operation: o.operation, category: o.category, what: o.what, problems: o.problems, curl: o.curl, received: o.received });
}
