import type { Received } from "./fuzz-request";
import type { Problem } from "./response-check";

/**
 * The failures of one property run, kept instead of stopping at the first: each distinct
 * failure once (by operation, kind of request, field and what went wrong), with the shortest
 * reproduction seen. The test fails with all of them, each with its curl line.
 */

export type Finding = {
  operation: string;
  /** `valid`, `invalid/<kind>` or `credential/<kind>`. */
  category: string;
  field?: string;
  what: string;
  problems: Problem[];
  curl: string;
  received: Received;
};

/** Digits, ids and quoted values vary from run to run; the kind of failure does not. */
const normalize = (s: string) =>
  s
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<id>")
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/\d+/g, "#");

/** A server error's cause as logged, without the reference and the request line. */
export function serverCause(r: Received): string {
  return r.serverLog
    .map((l) => l.replace(/^\[[^\]]*\] unhandled error on \S+ \S+\s*/, ""))
    .filter(Boolean)
    .join(" | ");
}

/** The innermost cause only (a failed query's SQL text is the same whatever went wrong). */
const rootCause = (r: Received) => serverCause(r).split(" ← caused by ").pop()!.slice(0, 200);

const STRAY = "400 names fields that were valid";

function signature(f: Finding): string {
  // Fields named besides the broken one are the base request's fault, whatever was broken:
  // one finding per such field, not one per mutation.
  if (f.problems.every((p) => p.code === STRAY)) return normalize([f.operation, STRAY, ...f.problems.map((p) => p.detail)].join(" | "));
  const field = f.field?.replace(/\[\d+\]/g, "[i]");
  const codes = f.problems.map((p) => p.code).join("; ");
  return normalize([f.operation, f.category, field ?? "", codes, rootCause(f.received)].join(" | "));
}

const indent = (s: string, by = "     ") => s.replace(/^/gm, by);

export class FindingLog {
  private readonly found = new Map<string, Finding>();
  private seen = 0;

  record(f: Finding): void {
    this.seen++;
    const key = signature(f);
    const prev = this.found.get(key);
    if (!prev || f.curl.length < prev.curl.length) this.found.set(key, f);
  }

  get size(): number {
    return this.found.size;
  }

  report(replay: string): string {
    const items = [...this.found.values()].map((f, i) => {
      const r = f.received;
      const lines = [
        `#${i + 1} ${f.operation} — ${f.category}: ${f.what}`,
        ...f.problems.map((p) => `   - ${p.code}: ${p.detail}`),
        `   Reproduce (with BASE, API_KEY, ADMIN_TOKEN, BUSINESS_ID, PAYMENT_ID, KEY_ID, OTHER_API_KEY set as in the README):`,
        indent(f.curl),
        `   Received: HTTP ${r.status} ${r.headers.get("content-type") ?? "(no content type)"}`,
        indent(r.text.length > 1500 ? `${r.text.slice(0, 1500)}…` : r.text || "(empty body)"),
      ];
      const cause = serverCause(r);
      if (cause) lines.push(`   Server log: ${cause.length > 600 ? `${cause.slice(0, 300)} … ${cause.slice(-300)}` : cause}`);
      return lines.join("\n");
    });
    return [`${this.size} distinct failure(s) in ${this.seen} failing request(s). Replay: ${replay}`, ...items].join("\n\n");
  }
}
