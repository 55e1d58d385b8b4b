import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startSecondServer, type SecondServer } from "./second-server";

/**
 * A clean stop of the production server (scripts/server.mjs, scripts/graceful-stop.mjs) on the
 * embedded database, on a second server process of the e2e build with a DATA_DIR of its own that
 * outlives it: SIGTERM under load answers every request it took (no 5xx; a request after the
 * listening socket closed is refused, never taken and dropped), the process exits 0 within
 * SHUTDOWN_TIMEOUT_SECONDS, and the next start finds everything it acknowledged, with ids going on
 * from where they were (PGlite closed with a checkpoint; after a crash they jump by 32).
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const ADMIN_TOKEN = "adm_e2e_shutdown_token_for_playwright_only";
const TIMEOUT_SECONDS = 10;
const env = {
  ADMIN_TOKEN,
  RATES_FILE: path.join(ROOT, "test/fixtures/pinned-rates.json"),
  SHUTDOWN_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
};
const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };

let dataDir: string;
let server: SecondServer | undefined;

test.beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "cryptopay-shutdown-"));
});

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus && server) await testInfo.attach("server-log", { body: server.log(), contentType: "text/plain" });
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function newBusiness(base: string): Promise<{ businessId: number; apiKey: string }> {
  const res = await fetch(`${base}/admin/v1/businesses`, { method: "POST", headers: admin, body: JSON.stringify({ name: "Shutdown shop" }) });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).data;
}

/** What one request came to: its status, or the error code of a request that got no answer (and when, from the signal). */
type Outcome = { status: number } | { error: string; what: string; at: number };

function errorCode(e: unknown): string {
  const cause = (e as { cause?: { code?: string } }).cause;
  return cause?.code ?? (e as Error).message;
}

/**
 * `workers` clients, each creating a payment and reading it back, over and over, until its
 * request is refused (the server stopped listening) or `until` passes.
 */
function load(base: string, shop: { businessId: number; apiKey: string }, workers: number, until: number) {
  const outcomes: Outcome[] = [];
  const clock = { signalledAt: 0 };
  const acknowledged: string[] = [];
  const headers = { authorization: `Bearer ${shop.apiKey}`, "content-type": "application/json" };
  const payments = `${base}/v1/businesses/${shop.businessId}/payments`;
  const one = async (url: string, init: RequestInit): Promise<Response | null> => {
    try {
      const res = await fetch(url, init);
      outcomes.push({ status: res.status });
      return res;
    } catch (e) {
      outcomes.push({ error: errorCode(e), what: `${init.method ?? "GET"} ${new URL(url).pathname}`, at: Date.now() - clock.signalledAt });
      return null;
    }
  };
  const worker = async (w: number) => {
    for (let i = 0; Date.now() < until; i++) {
      const created = await one(payments, { method: "POST", headers, body: JSON.stringify({ currency: "USD", amount: 10 + w, name: `Load ${w}-${i}` }) });
      if (!created) return;
      if (created.status !== 200) continue;
      const id = ((await created.json()) as { data: { id: string } }).data.id;
      acknowledged.push(id);
      if (!(await one(`${payments}/${id}`, { headers }))) return;
    }
  };
  const done = Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return { outcomes, acknowledged, done, clock };
}

test("SIGTERM under load: every request answered or refused, exit 0 in time, nothing lost, ids contiguous", async () => {
  test.setTimeout(180_000);

  server = await startSecondServer(env, { dataDir });
  const before = await newBusiness(server.base);

  const traffic = load(server.base, before, 8, Date.now() + 30_000);
  await expect.poll(() => traffic.acknowledged.length, { timeout: 20_000 }).toBeGreaterThan(20);
  const signalledAt = (traffic.clock.signalledAt = Date.now());
  server.kill("SIGTERM");
  const exit = await server.exited;
  const stoppedIn = Date.now() - signalledAt;
  await traffic.done;

  expect(exit, server.log()).toEqual({ code: 0, signal: null });
  expect(stoppedIn).toBeLessThan(TIMEOUT_SECONDS * 1000);
  expect(server.log()).toMatch(/\[server\] SIGTERM: stopping/);
  expect(server.log()).toMatch(/\[server\] stopped cleanly/);
  expect(server.log()).not.toMatch(/embedded database: its thread stopped/);

  const answered = traffic.outcomes.filter((o): o is { status: number } => "status" in o);
  const failed = traffic.outcomes.filter((o) => "error" in o);
  expect(answered.filter((o) => o.status < 200 || o.status >= 300), "every request taken is answered with 2xx").toEqual([]);
  expect(failed.filter((o) => o.error !== "ECONNREFUSED"), "a request not taken is refused").toEqual([]);
  expect(failed.length, "every client ends on a refusal").toBe(8);

  // The next start: everything acknowledged is there, and ids go on from where they were.
  server = await startSecondServer(env, { dataDir });
  const auth = { authorization: `Bearer ${before.apiKey}` };
  const payments = `${server.base}/v1/businesses/${before.businessId}/payments`;
  const last = traffic.acknowledged.slice(-8);
  for (const id of last) expect((await fetch(`${payments}/${id}`, { headers: auth })).status, `payment ${id}, acknowledged before SIGTERM`).toBe(200);
  const missing: string[] = [];
  for (const id of traffic.acknowledged) if ((await fetch(`${payments}/${id}`, { headers: auth })).status !== 200) missing.push(id);
  expect(missing, `of ${traffic.acknowledged.length} acknowledged payments`).toEqual([]);
  const after = await newBusiness(server.base);
  expect(after.businessId).toBe(before.businessId + 1);

  const second = Date.now();
  server.kill("SIGINT");
  expect(await server.exited).toEqual({ code: 0, signal: null });
  expect(Date.now() - second).toBeLessThan(TIMEOUT_SECONDS * 1000);
  server = undefined;
});
