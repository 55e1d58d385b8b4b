import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The fuzzer sends hundreds of requests a second with one key; the rate limit (tested in
// test/rate-limit.test.ts) would turn valid requests into 429s. Set before any config is read.
vi.hoisted(() => {
  process.env.RATE_LIMIT_PER_SECOND = "1000000";
  process.env.RATE_LIMIT_BURST = "1000000";
});

import fc from "fast-check";
import { curlCommand } from "./curl";
import { FindingLog } from "./findings";
import { createFixtures, credentialKind, shellVariables, type Fixtures } from "./fixtures";
import { EXISTING, materialize, send, type Credential, type Draft, type Received, type Sent } from "./fuzz-request";
import { judgeCredential, judgeInvalid, judgeValid } from "./judge";
import { mutationArb } from "./mutations";
import { methodsByPath, operations, resolve, type Operation } from "./openapi";
import { checkAgainst, PROBLEM_DETAILS, type Problem } from "./response-check";
import { validDraftArb } from "./valid-request";
import { documentExampleProblems } from "./document-examples";

/**
 * Property-based fuzzing of every operation of the OpenAPI document, through the real route
 * handlers and the real database. CI runs a fixed seed and a bounded number of runs;
 * `npm run fuzz -- --runs N --seed S` runs longer (scripts/fuzz.mjs sets FUZZ_RUNS/FUZZ_SEED).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);
const TIMEOUT = Math.max(60_000, RUNS * 2_000);
const REPLAY = `npm run fuzz -- --runs ${RUNS} --seed ${SEED}`;

let fx: Fixtures;
let vars: Record<string, string>;

beforeAll(async () => {
  fx = await createFixtures();
  vars = shellVariables(fx);
});

// FUZZ_STATS=1: how many requests of each kind were sent and what they got, to see coverage.
const stats = new Map<string, number>();
afterAll(() => {
  if (!process.env.FUZZ_STATS) return;
  const lines = [...stats].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${String(n).padStart(6)}  ${k}`);
  console.log(`requests sent, by operation, kind and status:\n${lines.join("\n")}`);
});

/** Sends one request, judges the response and records what is wrong. */
async function exercise(
  log: FindingLog,
  draft: Draft,
  category: string,
  what: string,
  judge: (r: Received) => Problem[],
  field?: string,
): Promise<void> {
  let sent: Sent | undefined;
  let received: Received;
  try {
    sent = await materialize(draft, fx);
    received = await send(sent);
  } catch (e) {
    // A request the fuzzer could not even send is its own bug: report it like any failure.
    received = { status: 0, headers: new Headers(), text: String(e), serverLog: [] };
    log.record({ operation: draft.op.id, category, field, what, problems: [{ code: "not sent", detail: String(e) }], curl: "(not sent)", received });
    return;
  }
  const key = `${draft.op.id} ${category} → ${received.status}`;
  stats.set(key, (stats.get(key) ?? 0) + 1);
  const problems = judge(received);
  if (problems.length) log.record({ operation: draft.op.id, category, field, what, problems, curl: curlCommand(sent, vars), received });
}

/** Runs a property over `arb` with this file's seed and run count, then fails with every finding. */
async function fuzz<T>(index: number, arb: fc.Arbitrary<T>, check: (v: T, log: FindingLog) => Promise<void>, runs = RUNS) {
  const log = new FindingLog();
  await fc.assert(
    fc.asyncProperty(arb, (v) => check(v, log)),
    { seed: SEED + index, numRuns: runs },
  );
  if (log.size) expect.fail(log.report(REPLAY));
}

const OPERATIONS = operations();

describe("the OpenAPI document", () => {
  it("lists operations to fuzz, each with a known credential", () => {
    expect(OPERATIONS.length).toBeGreaterThan(0);
    for (const op of OPERATIONS) credentialKind(op);
  });

  it("has examples that are valid against their own schemas", () => {
    expect(documentExampleProblems()).toEqual([]);
  });
});

describe.each(OPERATIONS.map((op, i) => [`${op.method} ${op.path} (${op.id})`, op, i] as const))("%s", (_name, op: Operation, i) => {
  it("valid requests succeed and match the document", { timeout: TIMEOUT }, async () => {
    await fuzz(i * 10, validDraftArb(op, fx), (d, log) => exercise(log, d, "valid", "a valid request", (r) => judgeValid(d, r)));
  });

  // An operation with no parameters and no body (the document itself) has nothing to break.
  it.runIf(op.parameters.length > 0 || op.body)("invalid requests get a documented 4xx naming the broken field", { timeout: TIMEOUT }, async () => {
    const arb = validDraftArb(op, fx, true).chain(mutationArb);
    await fuzz(i * 10 + 1, arb, (m, log) =>
      exercise(log, m.draft, `invalid/${m.kind}`, m.what, (r) => judgeInvalid(m, r), m.field),
    );
  });

  // A public operation takes no credential, so none can be wrong.
  it.runIf(op.security.length > 0)("missing or wrong credentials get 401 (403 for another business's key)", { timeout: TIMEOUT }, async () => {
    const credentials: Credential[] = ["none", "garbage", "otherBusiness", "wrongScheme", "malformed"];
    const arb = fc.tuple(validDraftArb(op, fx, true), fc.constantFrom(...credentials)).map(([d, credential]) => ({ ...d, credential }));
    await fuzz(i * 10 + 2, arb, (d, log) => exercise(log, d, `credential/${d.credential}`, `credential: ${d.credential}`, (r) => judgeCredential(d, r)), Math.ceil(RUNS / 2));
  });
});

describe("methods the document does not list for a path", () => {
  const OTHER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
  it("get 405 with an Allow header naming the documented ones", { timeout: TIMEOUT }, async () => {
    const log = new FindingLog();
    for (const [path, methods] of methodsByPath()) {
      const op = OPERATIONS.find((o) => o.path === path)!;
      for (const method of OTHER_METHODS.filter((m) => !methods.includes(m))) {
        const draft: Draft = {
          op,
          method,
          path: Object.fromEntries(op.parameters.filter((p) => p.in === "path").map((p) => [p.name, EXISTING])),
          query: [],
          headers: {},
          credential: "valid",
        };
        await exercise(log, draft, "method", `${method} ${path}`, (r) => {
          const problems = checkAgainst({ content: { "application/problem+json": resolve(PROBLEM_DETAILS) }, requiredHeaders: ["Allow"] }, r);
          if (r.status !== 405) problems.unshift({ code: `expected 405, got ${r.status}`, detail: r.text.slice(0, 200) });
          const allow = (r.headers.get("allow") ?? "").split(",").map((m) => m.trim()).filter((m) => m && m !== "OPTIONS" && m !== "HEAD");
          if (r.status === 405 && allow.sort().join() !== [...methods].sort().join()) {
            problems.push({ code: "Allow differs from the document", detail: `Allow: ${allow.join(", ")}; documented: ${methods.join(", ")}` });
          }
          return problems;
        });
      }
    }
    if (log.size) expect.fail(log.report(REPLAY));
  });
});
