import fc from "fast-check";
import { bodyChanges, deeplyNested, malformedJson } from "./body-mutations";
import type { Draft } from "./fuzz-request";
import { invalidArb, withControlChar } from "./invalid-values";
import { resolve, type Parameter, type Schema } from "./openapi";
import { typesOf, valueArb } from "./schema-arbitrary";
import { isValid } from "./schema-validator";
import { queryScalar, sendableHeader } from "./valid-request";
import { MAX_BUSINESS_BODY_BYTES } from "@/lib/businesses/schemas";
import { MAX_BODY_BYTES } from "@/lib/http/body";

/**
 * Invalid requests: a valid draft with ONE thing broken, and what the service must answer.
 * A 400 must name `field` in its `errors`; 404/413/415 need name no field.
 */
export type Mutation = {
  draft: Draft;
  /** Human-readable: what was broken. */
  what: string;
  /** A stable name for the kind of breakage, to tell failures apart. */
  kind: string;
  /** The statuses the service may answer. */
  expect: number[];
  field?: string;
  /** The field is a key (unknown field, bad key): naming its parent object is fine too. */
  keyChange?: boolean;
};

const copy = (d: Draft, patch: Partial<Draft>): Draft => ({ ...d, query: [...d.query], headers: { ...d.headers }, path: { ...d.path }, ...patch });

/**
 * How a client writes a parameter value in a URL (docs/api.md: "values are read as sent"): integers
 * and numbers as plain decimals, no exponent, no edge spaces; booleans as true/false; strings
 * as they are.
 */
export function parseParam(schema: Schema, text: string): { ok: boolean; value?: unknown } {
  const s = resolve(schema);
  const types = typesOf(s);
  if (types.includes("integer") && /^-?(0|[1-9][0-9]*)$/.test(text)) return { ok: true, value: Number(text) };
  if (types.includes("number") && /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(text)) return { ok: true, value: Number(text) };
  if (types.includes("boolean") && (text === "true" || text === "false")) return { ok: true, value: text === "true" };
  if (types.includes("string") || (types.length === 0 && Array.isArray(s.enum))) return { ok: true, value: text };
  return { ok: false };
}

const paramValid = (schema: Schema, text: string) => {
  const parsed = parseParam(schema, text);
  return parsed.ok && isValid(resolve(schema), parsed.value);
};

/** Whether some text is not a valid value of the schema (beyond control characters). */
function hasInvalidText(s: Schema): boolean {
  const types = typesOf(s);
  if (Array.isArray(s.enum) || types.some((t) => t !== "string")) return true;
  return s.maxLength !== undefined || s.minLength > 0 || s.pattern !== undefined || s.format !== undefined;
}

/** Texts that are not a valid value of a scalar parameter schema (control characters aside). */
function invalidParamText(schema: Schema): fc.Arbitrary<string> {
  const s = resolve(schema);
  if (!hasInvalidText(s)) return withControlChar("fuzz", true);
  const fromSchema = invalidArb(s)?.map((inv) => queryScalar(inv.value)) ?? fc.constant("{}");
  const numberish = fc.constantFrom("abc", "1.5", "0x10", "1e3", "12abc", "NaN", "Infinity", "--1", "1,2", "0", "-1", " 1", "1 ", "+1", "99999999999999999999", "１");
  const numeric = typesOf(s).some((t) => t === "integer" || t === "number");
  return fc
    .oneof({ weight: 1, arbitrary: fromSchema }, { weight: numeric ? 3 : 1, arbitrary: numberish })
    // An empty value is left out: for an optional parameter it reads as absent.
    .filter((t) => t !== "" && !paramValid(s, t));
}

function pathMutations(d: Draft): fc.Arbitrary<Mutation>[] {
  return d.op.parameters
    .filter((p) => p.in === "path")
    .flatMap((p) => [
      invalidParamText(p.schema)
        .filter((t) => t !== "." && t !== "..")
        .map((t) => ({ draft: copy(d, { path: { ...d.path, [p.name]: t } }), what: `path ${p.name} = ${JSON.stringify(t)}`, kind: "path-invalid", expect: [400], field: p.name })),
      // Well-formed ids that do not exist (integers from the top of the range, random strings).
      valueArb(typesOf(resolve(p.schema)).includes("integer") ? { ...resolve(p.schema), minimum: 1e12 } : p.schema)
        .map(queryScalar)
        .map((t) => ({ draft: copy(d, { path: { ...d.path, [p.name]: t } }), what: `path ${p.name} = ${t}, which does not exist`, kind: "path-missing", expect: [403, 404] })),
    ]);
}

function queryMutations(d: Draft): fc.Arbitrary<Mutation>[] {
  const params = d.op.parameters.filter((p) => p.in === "query");
  if (!params.length) return [];
  const without = (name: string) => d.query.filter(([n]) => n !== name);
  const out: fc.Arbitrary<Mutation>[] = params.map((p) => {
    const itemSchema = resolve(p.schema).type === "array" ? resolve(p.schema).items : p.schema;
    const bad = fc.oneof(invalidParamText(itemSchema), withControlChar("fuzz", true));
    return bad.map((t) => ({
      draft: copy(d, { query: [...without(p.name), [p.name, t]] }),
      what: `query ${p.name} = ${JSON.stringify(t)}`,
      kind: "query-invalid",
      expect: [400],
      field: p.name,
    }));
  });
  const known = params.map((p) => p.name.toLowerCase());
  out.push(
    fc
      .stringMatching(/^[a-zA-Z][a-zA-Z0-9_]{0,12}$/)
      .filter((n) => !known.includes(n.toLowerCase()))
      .map((n) => ({ draft: copy(d, { query: [...d.query, [n, "1"]] }), what: `unknown query parameter ${n}`, kind: "query-unknown", expect: [400], field: n })),
  );
  const single = d.query.filter(([n]) => params.some((p) => p.name === n && resolve(p.schema).type !== "array"));
  if (single.length) {
    out.push(
      fc.constantFrom(...single).map(([n, v]) => ({
        draft: copy(d, { query: [...d.query, [n, v]] }),
        what: `query ${n} given twice`,
        kind: "query-duplicate",
        expect: [400],
        field: n,
      })),
    );
  }
  return out;
}

function headerMutations(d: Draft): fc.Arbitrary<Mutation>[] {
  return d.op.parameters
    .filter((p: Parameter) => p.in === "header")
    .flatMap((p) => {
      const inv = invalidArb(p.schema);
      if (!inv) return [];
      const text = inv.map((x) => queryScalar(x.value)).filter((t) => sendableHeader(t) && !isValid(resolve(p.schema), t));
      return [text.map((t) => ({ draft: copy(d, { headers: { ...d.headers, [p.name]: t } }), what: `header ${p.name}: ${JSON.stringify(t)}`, kind: "header-invalid", expect: [400], field: p.name }))];
    });
}

/** An operation's body limit: 64 KB, or 512 KB for a business's create and update, whose body may carry a logo. */
const bodyLimit = (id: string) => (id === "adminCreateBusiness" || id === "adminPatchBusiness" ? MAX_BUSINESS_BODY_BYTES : MAX_BODY_BYTES);

const WRONG_TYPES = ["text/plain", "application/x-www-form-urlencoded", "application/xml", "multipart/form-data; boundary=x", "application/jsonx", "json"];

function bodyMutations(d: Draft): fc.Arbitrary<Mutation>[] {
  const spec = d.op.body;
  if (!spec) return [];
  const json = d.body && "json" in d.body ? d.body.json : {};
  const jsonType = { ...d.headers, "content-type": d.headers["content-type"] ?? "application/json" };
  const withBody = (body: Draft["body"], what: string, kind: string, expect: number[], field?: string, keyChange?: boolean): Mutation => ({
    draft: copy(d, { body, headers: jsonType }),
    what,
    kind,
    expect,
    field,
    keyChange,
  });
  const text = JSON.stringify(json);
  const out: fc.Arbitrary<Mutation>[] = bodyChanges(spec.schema, json).map((arb) =>
    arb.map((c) => withBody({ json: c.apply(json) }, `body ${c.what}`, c.keyChange ? "body-key" : "body-field", [400], c.field, c.keyChange)),
  );
  out.push(malformedJson(text).map((t) => withBody({ text: t }, `malformed JSON: ${JSON.stringify(t.slice(0, 60))}`, "body-malformed", [400], "body")));
  out.push(fc.constant(withBody({ text: deeplyNested(40) }, "JSON nested 40 levels deep", "body-deep", [400], "body")));
  const bytes = new TextEncoder().encode(text);
  out.push(fc.constant(withBody({ bytes: Uint8Array.from([...bytes.slice(0, 1), 0xff, 0xfe, ...bytes.slice(1)]) }, "body is not UTF-8", "body-utf8", [400], "body")));
  const limit = bodyLimit(d.op.id);
  out.push(fc.constant(withBody({ text: JSON.stringify({ ...(json as object), zzz: "x".repeat(limit + 4_000) }) }, `body over ${limit / 1024} KB`, "body-large", [413])));
  out.push(
    fc.constantFrom(...WRONG_TYPES, undefined).map((type) => {
      const headers = { ...d.headers };
      delete headers["content-type"];
      if (type) headers["content-type"] = type;
      return { draft: copy(d, { body: { text }, headers }), what: `body sent as ${type ?? "no Content-Type"}`, kind: "body-media-type", expect: [415] };
    }),
  );
  if (spec.required) {
    out.push(fc.constant(withBody({ text: "" }, "empty body", "body-empty", [400], "body")));
    const headers = { ...d.headers };
    delete headers["content-type"];
    out.push(fc.constant({ draft: copy(d, { body: undefined, headers }), what: "no body at all", kind: "body-missing", expect: [400, 415] }));
  }
  return out;
}

/** Invalid variants of a valid draft: one thing broken in the path, query, headers or body. */
export function mutationArb(d: Draft): fc.Arbitrary<Mutation> {
  // Bodies have the most to break, then queries; each group gets a share even when small.
  const groups: [number, fc.Arbitrary<Mutation>[]][] = [
    [1, pathMutations(d)],
    [2, queryMutations(d)],
    [1, headerMutations(d)],
    [4, bodyMutations(d)],
  ];
  return fc.oneof(...groups.filter(([, g]) => g.length > 0).map(([weight, g]) => ({ weight, arbitrary: fc.oneof(...g) })));
}
