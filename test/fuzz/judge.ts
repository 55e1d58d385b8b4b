import { explainedByRules } from "./cross-field-rules";
import { credentialKind } from "./fixtures";
import type { Credential, Draft, Received } from "./fuzz-request";
import type { Mutation } from "./mutations";
import { documentProblems, errorFields, mediaType, namesField, parseBody, type Problem } from "./response-check";

/**
 * The oracles. Every response must match the document (response-check.ts); on top of that a
 * valid request must succeed, an invalid one must get the 4xx its breakage calls for naming the
 * broken field, and a request with wrong credentials must get 401 (or 403 for another
 * business's valid key).
 */

const detailOf = (r: Received) => {
  const body = parseBody(r) as { detail?: unknown } | undefined;
  return typeof body?.detail === "string" ? body.detail : r.text.slice(0, 200);
};

export function judgeValid(d: Draft, r: Received): Problem[] {
  const problems = documentProblems(d.op, r);
  const ok = r.status >= 200 && r.status < 300;
  if (!ok && r.status < 500) {
    const fields = errorFields(r).sort();
    if (!explainedByRules(d.op.id, r.status, fields)) {
      const unexplained = fields.filter((f) => !explainedByRules(d.op.id, 400, [f]));
      problems.push({ code: `valid request got ${r.status}${unexplained.length ? ` naming ${unexplained.join(", ")}` : ""}`, detail: detailOf(r) });
    }
  }
  // Content negotiation: a success is in the type the client asked for, when it named one.
  const accept = d.headers.accept;
  if (ok && accept && accept !== "*/*" && mediaType(r) !== accept) {
    problems.push({ code: "Accept not honoured", detail: `asked for ${accept}, got ${mediaType(r)}` });
  }
  return problems;
}

/** Field comparison: header names are case-insensitive, body and query names are not. */
const sameField = (m: Mutation, got: string) =>
  m.kind.startsWith("header") ? namesField(got.toLowerCase(), m.field!.toLowerCase()) : namesField(got, m.field!, m.keyChange);

export function judgeInvalid(m: Mutation, r: Received): Problem[] {
  const problems = documentProblems(m.draft.op, r);
  // A base request that broke a documented cross-field rule may be refused for that first.
  const byRule = r.status === 400 && explainedByRules(m.draft.op.id, 400, errorFields(r));
  if (!m.expect.includes(r.status) && !byRule) {
    problems.push({ code: `expected ${m.expect.join(" or ")}, got ${r.status}`, detail: detailOf(r) });
    return problems;
  }
  if (r.status === 400 && m.field) {
    const fields = errorFields(r);
    if (!fields.some((f) => sameField(m, f))) {
      problems.push({ code: "400 does not name the broken field", detail: `errors names [${fields.join(", ")}], not ${JSON.stringify(m.field)}` });
    }
    // The rest of the request was valid: other fields may only be named by a documented rule.
    const stray = fields.filter((f) => !sameField(m, f) && !explainedByRules(m.draft.op.id, 400, [f]));
    if (stray.length) problems.push({ code: "400 names fields that were valid", detail: `also names [${stray.join(", ")}]` });
  }
  return problems;
}

/** What a request with this credential must get: 403 for another business's valid key, else 401. */
export function expectedForCredential(d: Draft, c: Credential): number {
  return c === "otherBusiness" && credentialKind(d.op) === "apiKey" ? 403 : 401;
}

export function judgeCredential(d: Draft, r: Received): Problem[] {
  const problems = documentProblems(d.op, r);
  const expected = expectedForCredential(d, d.credential);
  if (r.status !== expected) problems.push({ code: `expected ${expected}, got ${r.status}`, detail: detailOf(r) });
  return problems;
}
