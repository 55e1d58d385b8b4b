import type { Received } from "./fuzz-request";
import type { Operation, ResponseSpec, Schema } from "./openapi";
import { schemaErrors } from "./schema-validator";

/**
 * Does a response match the document? Its status is listed for the operation (or covered by
 * `4XX`/`default`), its media type is one listed for that status, its body validates against
 * that media type's schema, its required headers are there, and a problem's `status` is the
 * HTTP status. Each mismatch is a Problem: a stable `code` (to tell failures apart) and a detail.
 */
export type Problem = { code: string; detail: string };

export const PROBLEM_DETAILS: Schema = { $ref: "#/components/schemas/ProblemDetails" };

export const mediaType = (r: Received) => (r.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();

export function parseBody(r: Received): unknown {
  try {
    return JSON.parse(r.text);
  } catch {
    return undefined;
  }
}

/** The documented response for a status: exact, then `4XX`, then `default`. */
export function responseFor(op: Operation, status: number): ResponseSpec | undefined {
  return op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
}

function typeMatches(listed: string, actual: string): boolean {
  const [type, sub] = listed.toLowerCase().split("/");
  const [aType, aSub] = actual.split("/");
  return (type === "*" || type === aType) && (sub === "*" || sub === aSub || (sub.startsWith("*+") && aSub?.endsWith(sub.slice(1))));
}

/** Checks a response against a documented response object (or a bare schema for undocumented ones). */
export function checkAgainst(spec: ResponseSpec, r: Received): Problem[] {
  const problems: Problem[] = [];
  for (const h of spec.requiredHeaders) {
    if (!r.headers.has(h)) problems.push({ code: `missing header ${h}`, detail: `the document requires header ${h} on ${r.status}` });
  }
  const listed = Object.keys(spec.content);
  if (listed.length === 0) {
    if (r.text !== "") problems.push({ code: "unexpected body", detail: `${r.status} has no documented body, got ${r.text.length} bytes` });
    return problems;
  }
  const type = mediaType(r);
  const match = listed.find((l) => typeMatches(l, type));
  if (!match) {
    problems.push({ code: "undocumented media type", detail: `Content-Type ${JSON.stringify(type)} is not among ${listed.join(", ")}` });
    return problems;
  }
  const body = parseBody(r);
  if (body === undefined) return [...problems, { code: "body not JSON", detail: `the ${type} body is not JSON: ${r.text.slice(0, 80)}` }];
  const errors = schemaErrors(spec.content[match], body);
  if (errors.length) problems.push({ code: "body does not match schema", detail: errors.join("; ") });
  const problem = body as { status?: unknown };
  if (r.status >= 400 && typeof problem === "object" && problem && "status" in problem && problem.status !== r.status) {
    problems.push({ code: "problem status differs", detail: `body.status ${String(problem.status)} on HTTP ${r.status}` });
  }
  return problems;
}

/** Every way the response breaks the document, for an operation. */
export function documentProblems(op: Operation, r: Received): Problem[] {
  const problems: Problem[] = [];
  if (r.status >= 500) {
    // The innermost cause the service logged: the database's own message for a failed query.
    const cause = r.serverLog.join(" | ").split(" ← caused by ").pop()!.slice(0, 300);
    problems.push({ code: `server error ${r.status}`, detail: cause || "(nothing logged)" });
  }
  const spec = responseFor(op, r.status);
  if (!spec) return [...problems, { code: `undocumented status ${r.status}`, detail: `${op.id} documents ${Object.keys(op.responses).join(", ")}` }];
  return [...problems, ...checkAgainst(spec, r)];
}

/** The `errors` field names of a problem response (empty when there are none). */
export function errorFields(r: Received): string[] {
  const body = parseBody(r) as { errors?: unknown } | undefined;
  return body && typeof body.errors === "object" && body.errors ? Object.keys(body.errors) : [];
}

/** Whether `got` names `field`: the field itself or a part of it (`feeTransfers[0].percent` for `feeTransfers`). */
export function namesField(got: string, field: string, keyChange = false): boolean {
  // The body as a whole: any field in it is a part of it.
  if (field === "body" || got === field || got.startsWith(`${field}.`) || got.startsWith(`${field}[`)) return true;
  // A bad key may be reported on the object that holds it.
  const parent = field.replace(/(\.[^.[\]]*|\[\d+\])$/, "");
  return keyChange && (parent || "body") === got;
}
