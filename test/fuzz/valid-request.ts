import Big from "big.js";
import fc from "fast-check";
import { applyCrossFieldRules } from "./cross-field-rules";
import type { Fixtures } from "./fixtures";
import { EXISTING, type Draft } from "./fuzz-request";
import type { Operation, Parameter } from "./openapi";
import { valueArb } from "./schema-arbitrary";

/**
 * Valid requests for an operation, from its document entry: existing path ids, generated
 * query and header parameters (examples first), an Accept the operation can answer, a body of
 * one of its media types. Most of them are then nudged to meet the documented cross-field
 * rules (cross-field-rules.ts); the rest test that the service names the rule it enforces.
 */

/**
 * A parameter value as it goes on the wire: strings as they are, numbers in plain decimal
 * digits (the shortest that round-trip, never an exponent: docs/api.md, "values are read as sent").
 */
export function queryScalar(v: unknown): string {
  if (typeof v === "number" && Number.isFinite(v)) return new Big(v).toFixed();
  return typeof v === "string" ? v : JSON.stringify(v);
}

export function queryEntries(p: Parameter, value: unknown): [string, string][] {
  if (!Array.isArray(value)) return [[p.name, queryScalar(value)]];
  return p.explode ? value.map((v) => [p.name, queryScalar(v)]) : [[p.name, value.map(queryScalar).join(",")]];
}

/** What HTTP itself lets a header carry (no NUL/CR/LF, Latin-1, no edge whitespace). */
export const sendableHeader = (v: string) => /^[\x21-\x7e\x80-\xff]([\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?$/.test(v);

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

function queryArb(op: Operation): fc.Arbitrary<[string, string][]> {
  const params = op.parameters.filter((p) => p.in === "query");
  const parts = params.map((p) => {
    const value = valueArb(p.schema, p.examples).map((v) => queryEntries(p, v));
    return p.required ? value : optional(value).map((v) => v ?? []);
  });
  // Parameters in any order: the order must not matter.
  return fc.tuple(...parts).chain((lists) => fc.shuffledSubarray(lists.flat(), { minLength: lists.flat().length }));
}

function headersArb(op: Operation): fc.Arbitrary<Record<string, string>> {
  const fields: Record<string, fc.Arbitrary<string | undefined>> = {};
  for (const p of op.parameters.filter((p) => p.in === "header")) {
    const value = valueArb(p.schema, p.examples)
      .map(queryScalar)
      .filter(sendableHeader);
    fields[p.name] = p.required ? value : optional(value);
  }
  const success = Object.entries(op.responses)
    .filter(([status]) => status.startsWith("2"))
    .flatMap(([, r]) => Object.keys(r.content));
  fields.accept = fc.constantFrom(undefined, "*/*", ...new Set(success));
  return fc.record(fields).map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);
}

type BodyPart = Pick<Draft, "body"> & { contentType?: string };

function bodyArb(op: Operation): fc.Arbitrary<BodyPart> {
  const spec = op.body;
  if (!spec) return fc.constant({});
  const present = fc
    .record({
      json: valueArb(spec.schema, spec.examples),
      // Each listed type is sent as it is written: a client takes the document at its word.
      type: fc.constantFrom(...spec.mediaTypes),
      charset: fc.boolean(),
    })
    .map(({ json, type, charset }): BodyPart => ({ body: { json }, contentType: charset ? `${type}; charset=utf-8` : type }));
  // An optional body may be left out entirely: no bytes, no Content-Type.
  return spec.required ? present : fc.oneof(present, fc.constant({}));
}

/**
 * Valid drafts of `op`, most of them (or, with `alwaysRepair`, all: the bases of mutations)
 * made to meet the cross-field rules.
 */
export function validDraftArb(op: Operation, fx: Fixtures, alwaysRepair = false): fc.Arbitrary<Draft> {
  const path = Object.fromEntries(op.parameters.filter((p) => p.in === "path").map((p) => [p.name, EXISTING] as const));
  return fc
    .record({
      query: queryArb(op),
      headers: headersArb(op),
      body: bodyArb(op),
      repair: alwaysRepair ? fc.constant(true) : fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    })
    .map(({ query, headers, body, repair }) => {
      const draft: Draft = {
        op,
        method: op.method,
        path: { ...path },
        query,
        headers: body.contentType ? { ...headers, "content-type": body.contentType } : headers,
        body: body.body,
        credential: "valid",
      };
      return repair ? applyCrossFieldRules(draft, fx) : draft;
    });
}
