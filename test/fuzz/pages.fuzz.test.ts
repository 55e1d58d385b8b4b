import { readFileSync, statSync } from "node:fs";
import http from "node:http";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { curlCommand } from "./curl";
import { FindingLog } from "./findings";
import type { Received, Sent } from "./fuzz-request";
import { bodyArb, headerValue, queryString, recordFinding, segment, serverError } from "./raw-requests";

/**
 * The pages — the dashboard, the checkout, /docs, / — and /api/auth, fuzzed over HTTP against a
 * running production server (scripts/server.mjs in front of Next.js, the proxy included): what
 * only the framework's router, rendering and server actions meet. `npm run fuzz` starts one
 * (scripts/fuzz-server.mjs) and sets FUZZ_BASE_URL and FUZZ_ADMIN_TOKEN; without them (as in
 * `npm test`) this file is skipped. Every answer must be below 500, every body come with nosniff,
 * and every HTML answer with its Content-Security-Policy naming `frame-ancestors`.
 */
const BASE = process.env.FUZZ_BASE_URL;
const ADMIN_TOKEN = process.env.FUZZ_ADMIN_TOKEN ?? "";
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);
const REPLAY = `npm run fuzz -- --runs ${RUNS} --seed ${SEED}`;

/** The routes, with `{b}` a business id, `{p}` a payment id and `{t}` an invitation token. */
const TEMPLATES = [
  "/", "/docs", "/dashboard", "/dashboard/sign-in", "/dashboard/security", "/dashboard/{b}", "/dashboard/{b}/payments",
  "/dashboard/{b}/payments/{p}", "/dashboard/{b}/payments/export", "/dashboard/{b}/developers", "/dashboard/{b}/members",
  "/dashboard/{b}/settings", "/dashboard/invite/{t}", "/pay/{p}", "/pay/{p}/state", "/api/auth/sign-in/email",
  "/api/auth/two-factor/{t}", "/api/auth/{t}", "/{t}",
];
/** Headers Next.js reads from a browser's navigation, prefetch and server-action requests. */
const NEXT_HEADERS = ["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-action", "next-url", "next-hmr-refresh"];

type Fixture = { b: string; p: string; t: string; cookie: string };
let fx: Fixture;
const vars: Record<string, string> = {};

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json", origin: BASE!, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res;
}

beforeAll(async () => {
  if (!BASE) return;
  const business = (await (await call("POST", "/admin/v1/businesses", { name: "Page fuzz" })).json()).data;
  const payment = (await (await call("POST", `/v1/businesses/${business.businessId}/payments`, { currency: "USD", amount: 10 }, { authorization: `Bearer ${business.apiKey}` })).json()).data;
  const user = (await (await call("POST", "/admin/v1/users", { email: `fuzz-${Date.now()}@shop.example`, businessId: business.businessId, role: "owner" })).json()).data;
  const signedIn = await call("POST", "/api/auth/sign-in/email", { email: user.email, password: user.password }, { authorization: "" });
  const cookie = signedIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  fx = { b: String(business.businessId), p: payment.id, t: "invitation-token", cookie };
  Object.assign(vars, { [fx.b]: "$BUSINESS_ID", [fx.p]: "$PAYMENT_ID" });
}, 60_000);

const place = (name: "b" | "p" | "t") => fc.oneof({ weight: 3, arbitrary: fc.constant(`{${name}}`) }, { weight: 2, arbitrary: segment });

const pathArb = fc
  .tuple(
    fc.constantFrom(...TEMPLATES),
    place("b"),
    place("p"),
    place("t"),
    fc.oneof({ weight: 4, arbitrary: fc.constant("") }, fc.constant("/"), fc.array(segment, { minLength: 1, maxLength: 2 }).map((s) => `/${s.join("/")}`)),
    queryString,
  )
  .map(([template, b, p, t, tail, query]) => ({ template, path: template.replace("{b}", b).replace("{p}", p).replace("{t}", t) + tail + query }));

const nextHeaderValue = fc.oneof(
  headerValue,
  fc.constantFrom("1", "0", "7f" + "0".repeat(40), encodeURIComponent('["",{"children":["__PAGE__",{}]},null,null,true]'), '["",{}]', "[", "%5B%22%22"),
);

const requestArb = fc.record({
  method: fc.constantFrom("GET", "GET", "GET", "HEAD", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"),
  target: pathArb,
  signedIn: fc.boolean(),
  origin: fc.oneof(fc.constant("own"), fc.constantFrom("https://evil.example", "null", "::"), fc.constant(undefined)),
  next: fc.dictionary(fc.constantFrom(...NEXT_HEADERS), nextHeaderValue, { maxKeys: 3 }),
  accept: fc.constantFrom(undefined, "text/html", "text/x-component", "application/json", "*/*"),
  body: bodyArb(["email", "password", "code", "name", "role", "$ACTION_ID_0", "1_$ACTION_REF_1", "0"]),
});

type Drawn = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

function materialize(d: Drawn): Sent {
  const path = d.target.path.replace("{b}", fx.b).replace("{p}", fx.p).replace("{t}", fx.t);
  const headers: Record<string, string> = { ...d.next };
  // Signing out would end the session the other requests use.
  if (d.signedIn && !path.startsWith("/api/auth/sign-out")) headers.cookie = fx.cookie;
  if (d.origin) headers.origin = d.origin === "own" ? BASE! : d.origin;
  if (d.accept) headers.accept = d.accept;
  const withBody = !["GET", "HEAD"].includes(d.method) && d.body.body !== undefined;
  if (withBody && d.body.contentType) headers["content-type"] = d.body.contentType;
  const body = withBody ? ("text" in d.body.body! ? d.body.body.text : d.body.body!.bytes) : undefined;
  return { method: d.method, pathAndQuery: path, headers, body, vars };
}

/** Sends the path exactly as written (no dot-segment removal, no re-encoding), as curl --path-as-is does. */
function sendRaw(s: Sent): Promise<Received> {
  const logStart = process.env.FUZZ_SERVER_LOG ? statSync(process.env.FUZZ_SERVER_LOG).size : 0;
  return new Promise((resolve) => {
    const url = new URL(BASE!);
    const finish = (status: number, headers: Headers, text: string) => {
      const log = process.env.FUZZ_SERVER_LOG && status >= 500 ? readFileSync(process.env.FUZZ_SERVER_LOG).subarray(logStart).toString("utf8") : "";
      resolve({ status, headers, text, serverLog: log ? [log.slice(-2000)] : [] });
    };
    let req: http.ClientRequest;
    try {
      // A redirect repeats a long query in its Location: more than Node's default 16 KB of headers.
      const options = { host: url.hostname, port: url.port, method: s.method, path: s.pathAndQuery, headers: s.headers, agent: false, maxHeaderSize: 1 << 20 };
      req = http.request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
        finish(res.statusCode ?? 0, headers, Buffer.concat(chunks).toString("utf8"));
      });
      res.on("error", (e) => finish(0, new Headers(), String(e)));
      });
    } catch (e) {
      throw new Error(`the fuzzer drew a request Node cannot send: ${String(e)}`);
    }
    req.setTimeout(30_000, () => req.destroy(new Error("no answer within 30 s")));
    req.on("error", (e) => finish(0, new Headers(), String(e)));
    req.end(s.body);
  });
}

function judge(r: Received): { code: string; detail: string }[] {
  const problems = serverError(r);
  if (r.status === 0) return problems;
  // A body without nosniff could be sniffed into something else (redirects and Node's own 4xx have none).
  if (r.headers.has("content-type") && r.headers.get("x-content-type-options") !== "nosniff") problems.push({ code: "no X-Content-Type-Options: nosniff", detail: "" });
  if ((r.headers.get("content-type") ?? "").startsWith("text/html") && !/frame-ancestors/.test(r.headers.get("content-security-policy") ?? "")) {
    problems.push({ code: "an HTML answer without a Content-Security-Policy naming frame-ancestors", detail: r.headers.get("content-security-policy") ?? "(none)" });
  }
  return problems;
}

const stats = new Map<string, number>();

describe.runIf(BASE)("the pages and /api/auth over HTTP", () => {
  it("answer malformed paths, headers and bodies below 500, with their security headers", { timeout: Math.max(300_000, RUNS * 10_000) }, async () => {
    const log = new FindingLog();
    await fc.assert(
      fc.asyncProperty(requestArb, async (d) => {
        const sent = materialize(d);
        const received = await sendRaw(sent);
        const key = `${d.method} ${d.target.template} → ${received.status}`;
        stats.set(key, (stats.get(key) ?? 0) + 1);
        const curl = curlCommand(sent, vars).replace("curl -sS -i --globoff", "curl -sS -i --globoff --path-as-is");
        recordFinding(log, { operation: "pages", category: d.method, what: `${d.method} ${d.target.path}`, received, problems: judge(received), curl });
      }),
      { seed: SEED, numRuns: RUNS * 5 },
    );
    if (process.env.FUZZ_STATS) console.log([...stats].sort().map(([k, n]) => `${String(n).padStart(6)}  ${k}`).join("\n"));
    if (log.size) expect.fail(log.report(REPLAY));
  });
});
