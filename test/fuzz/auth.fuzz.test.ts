import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Every fuzzed request would otherwise soon meet the sign-in limits (test/accounts covers them):
// the fuzzer wants the code behind them. Set before any config is read.
vi.hoisted(() => {
  process.env.SIGN_IN_ATTEMPTS_PER_MINUTE = "10000";
  process.env.SIGN_IN_LOCKOUT_FAILURES = "10000";
});

import fc from "fast-check";
import * as authRoute from "@/app/api/auth/[...all]/route";
import { getDb } from "@/db/client";
import { EXPOSED_AUTH_PATHS } from "@/lib/accounts/auth-handler";
import { createUser } from "@/lib/accounts/users";
import { config } from "@/lib/config";
import { cookieOf, fromPeer, newIp, signIn, unique } from "../accounts/support";
import { newBusiness } from "../helpers";
import { curlCommand } from "./curl";
import { FindingLog } from "./findings";
import { send, type Sent } from "./fuzz-request";
import { bodyArb, headerValue, nastyText, queryString, recordFinding, segment, serverError } from "./raw-requests";

/**
 * Better Auth's endpoints under /api/auth, which the OpenAPI document does not describe, fuzzed
 * through the route module the server runs (in-process, real database): the endpoints the
 * dashboard uses and those it does not, paths that are no endpoint, malformed bodies and hostile
 * headers, signed in or not. Every answer must be below 500. Paths that cannot be decoded never
 * reach this route (the proxy answers them, test/page-guard.test.ts; the page fuzzer sends them to
 * a running server, pages.fuzz.test.ts).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);
const REPLAY = `npm run fuzz -- --runs ${RUNS} --seed ${SEED}`;

/** Endpoints Better Auth has with the plugins the service configures (served or refused), and the fields their bodies take. */
const ENDPOINTS = [
  "/sign-in/email", "/sign-out", "/two-factor/enable", "/two-factor/disable", "/two-factor/verify-totp",
  "/two-factor/verify-backup-code", "/two-factor/get-totp-uri", "/two-factor/generate-backup-codes", "/two-factor/send-otp",
  "/sign-up/email", "/get-session", "/update-user", "/change-password", "/change-email", "/delete-user", "/list-sessions",
  "/revoke-session", "/revoke-sessions", "/revoke-other-sessions", "/request-password-reset", "/reset-password", "/verify-email",
  "/send-verification-email", "/ok", "/error", "/list-accounts", "/link-social", "/sign-in/social", "/refresh-token",
];
const FIELDS = [
  "email", "password", "rememberMe", "callbackURL", "name", "image", "code", "trustDevice", "currentPassword",
  "newPassword", "revokeOtherSessions", "token", "newEmail", "issuer", "provider",
];

let cookie = "";
const vars: Record<string, string> = {};

beforeAll(async () => {
  const b = await newBusiness();
  const email = unique("fuzz-auth");
  const { password } = await createUser(await getDb(), { email, businessId: b.businessId, role: "owner" });
  const res = await signIn(email, password!);
  expect(res.status, await res.clone().text()).toBe(200);
  cookie = cookieOf(res);
});

// FUZZ_STATS=1: how many requests of each kind were sent and what they got, to see coverage.
const stats = new Map<string, number>();
afterAll(() => {
  if (!process.env.FUZZ_STATS) return;
  const lines = [...stats].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${String(n).padStart(6)}  ${k}`);
  console.log(`/api/auth requests sent, by method, endpoint and status:\n${lines.join("\n")}`);
});

const pathArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...EXPOSED_AUTH_PATHS) },
  { weight: 3, arbitrary: fc.constantFrom(...ENDPOINTS) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...ENDPOINTS), fc.constantFrom("/", "//", "/x", ".json", "/..", "%2F")).map(([e, tail]) => e + tail) },
  { weight: 2, arbitrary: fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join("/")}`).filter((p) => { try { decodeURI(p); return true; } catch { return false; } }) },
);

const headersArb = fc.record(
  {
    origin: fc.oneof({ weight: 6, arbitrary: fc.constant(config().publicBaseUrl) }, fc.constantFrom("https://evil.example", "null", ""), headerValue),
    cookie: fc.oneof({ weight: 4, arbitrary: fc.constant("session") }, fc.constant("tampered"), headerValue),
    accept: fc.constantFrom("application/json", "text/html", "*/*", ""),
    "user-agent": headerValue,
  },
  { requiredKeys: [] },
);

const requestArb = fc.record({
  method: fc.constantFrom("GET", "POST", "POST", "POST"),
  path: pathArb,
  query: queryString,
  headers: headersArb,
  body: bodyArb(FIELDS),
});

type Drawn = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

function materialize(d: Drawn): Sent {
  const headers: Record<string, string> = { ...fromPeer(newIp()) };
  for (const [name, value] of Object.entries(d.headers)) {
    if (name === "cookie" && value === "session") headers.cookie = cookie;
    else if (name === "cookie" && value === "tampered") headers.cookie = cookie.replace(/.$/, (c) => (c === "a" ? "b" : "a"));
    else headers[name] = value;
  }
  const withBody = d.method === "POST" && d.body.body !== undefined;
  if (withBody && d.body.contentType) headers["content-type"] = d.body.contentType;
  const body = withBody ? ("text" in d.body.body! ? d.body.body.text : d.body.body!.bytes) : undefined;
  return { method: d.method, pathAndQuery: `/api/auth${d.path}${d.query}`, headers, body, vars };
}

/** Through the route module, as Next.js calls it: a real Request, the catch-all's params. */
async function dispatch(s: Sent) {
  const url = new URL(s.pathAndQuery, config().publicBaseUrl);
  const handler = authRoute[s.method as "GET" | "POST"];
  const req = new Request(url, { method: s.method, headers: s.headers, body: s.body as BodyInit | undefined });
  return handler(req);
}

describe("/api/auth", () => {
  it("answers malformed paths, bodies and headers without a server error", { timeout: Math.max(120_000, RUNS * 3_000) }, async () => {
    const log = new FindingLog();
    await fc.assert(
      fc.asyncProperty(requestArb, async (d) => {
        const sent = materialize(d);
        const received = await send(sent, dispatch);
        const what = `${d.method} ${d.path}`;
        const key = `${d.method} ${ENDPOINTS.includes(d.path) ? d.path : "(other path)"} → ${received.status}`;
        stats.set(key, (stats.get(key) ?? 0) + 1);
        recordFinding(log, { operation: "auth", category: d.method, what, received, problems: serverError(received), curl: curlCommand(sent, vars) });
      }),
      { seed: SEED, numRuns: RUNS * 3 },
    );
    if (log.size) expect.fail(log.report(REPLAY));
  });

  it("keeps to what it is given for the endpoints it serves: a nasty e-mail or password is a 4xx", { timeout: 120_000 }, async () => {
    const log = new FindingLog();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("/sign-in/email", "/two-factor/enable", "/two-factor/disable", "/two-factor/verify-totp"), nastyText, nastyText, async (path, a, b) => {
        const body = JSON.stringify({ email: a, password: b, code: a });
        const sent: Sent = { method: "POST", pathAndQuery: `/api/auth${path}`, headers: { origin: config().publicBaseUrl, cookie, "content-type": "application/json", ...fromPeer(newIp()) }, body, vars };
        const received = await send(sent, dispatch);
        const problems = serverError(received);
        if (received.status < 400) problems.push({ code: `expected a 4xx, got ${received.status}`, detail: received.text.slice(0, 200) });
        recordFinding(log, { operation: "auth", category: "fields", what: `POST ${path}`, received, problems, curl: curlCommand(sent, vars) });
      }),
      { seed: SEED + 1, numRuns: RUNS },
    );
    if (log.size) expect.fail(log.report(REPLAY));
  });
});
