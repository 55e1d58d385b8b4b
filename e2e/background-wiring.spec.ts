import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { OutgoingEvent } from "../lib/background/driver";
import { runAdminCli, startInngestMock, startRecordingProxy, startSecondServer, type SecondServer } from "./second-server";

/**
 * Background work is wired once, in instrumentation, whatever bundle Next.js builds: an event
 * raised from each entry point reaches the driver. Next.js bundles instrumentation, route
 * handlers, server actions and the Inngest route apart, each with its own instance of our
 * modules, so only the production build shows whether they share the event bus.
 *
 * A second server process of the e2e build (the webServer's) runs with the Inngest driver
 * (INNGEST_DEV=<a stand-in of the test's own>, which records the events the server sends) and a
 * fresh embedded database. Nothing runs the Inngest functions, so every event the stand-in gets
 * was sent by the event sender `instrumentation.ts` subscribed, and nothing else changes the
 * payments behind the test's back.
 *
 * - instrumentation: the one place that starts background work (checked in the sources); the
 *   server says it started the Inngest driver once, and every event below arrives exactly once,
 *   so one sender listens in the whole process. The route bundles never wire anything.
 *   (Instrumentation's own first-run bootstrap makes a business and a user: no event.)
 * - route handler: POST /v1/businesses/{id}/payments → payment/created and the delivery's
 *   webhook/delivery.created.
 * - server actions: the checkout page chooses a coin and cancels (lib/checkout/actions.ts) →
 *   webhook/delivery.created, then payment/settled; the dashboard's Developers page sends a test
 *   event (app/dashboard/.../developers/actions.ts) → webhook/delivery.created.
 * - Inngest function: /api/inngest is called as the Dev Server calls it (dev mode: unsigned) to
 *   run the sweep's first step, which expires a due payment inside the Inngest route's bundle →
 *   payment/settled and its delivery.
 * - CLI: `npm run admin` (scripts/admin.ts, scripts/admin-cli.ts) imports none of the service's
 *   runtime modules but the logger and opens no database: it sends one HTTP request to the admin API, so whatever
 *   it changes is changed by an /admin/v1 route handler (withAdmin) in the server. The recording
 *   proxy in front of the server shows its requests. None of its commands raises an event (the
 *   admin API's redeliver attempts a delivery inline and writes no outbox row), so its proof is
 *   that path: route handlers' events reach the driver, as the route-handler step shows.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const ADMIN_TOKEN = "adm_e2e_wiring_token_for_playwright_only";
const UNREACHABLE_HOOK = "http://127.0.0.1:9/hooks"; // deliveries are Inngest's to run, and nothing runs them here

let inngest: Awaited<ReturnType<typeof startInngestMock>>;
let server: SecondServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  inngest = await startInngestMock();
  server = await startSecondServer({
    ADMIN_TOKEN,
    INNGEST_DEV: inngest.url,
    RATES_FILE: path.join(ROOT, "test/fixtures/pinned-rates.json"),
    SIGN_IN_ATTEMPTS_PER_MINUTE: "1000",
  });
});

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus && server) {
    await testInfo.attach("second-server-log", { body: server.log(), contentType: "text/plain" });
    await testInfo.attach("inngest-events", { body: JSON.stringify(inngest.events, null, 2), contentType: "application/json" });
  }
});

test.afterAll(async () => {
  await server?.stop();
  await inngest?.close();
});

const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };

async function call(method: string, url: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  expect(res.ok, `${method} ${url}: ${res.status} ${text}`).toBe(true);
  return JSON.parse(text);
}

/**
 * Waits until the Inngest stand-in holds an event for which `match` is true. Soft: a failing run
 * goes on, so its report names every entry point whose events were lost.
 */
async function received(what: string, match: (e: OutgoingEvent) => boolean): Promise<void> {
  await expect.soft.poll(() => inngest.events.some(match), { message: `the driver sent ${what}`, timeout: 10_000 }).toBe(true);
}

/** The ids of the deliveries the admin API lists for a business (payments' events). */
async function deliveryIds(businessId: number): Promise<number[]> {
  const page = await call("GET", `${server.base}/admin/v1/businesses/${businessId}/webhook-deliveries?PageSize=100`, admin);
  return page.data.items.map((d: { deliveryId: number }) => d.deliveryId);
}

const deliveryEvent = (id: number) => (e: OutgoingEvent) => e.name === "webhook/delivery.created" && e.data.deliveryId === id;

/** Our source files under `dir` (recursively). */
function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return sources(rel);
    return /\.(ts|tsx|mjs)$/.test(name) ? [rel] : [];
  });
}

test("an event raised from every entry point reaches the driver instrumentation started", async ({ page }) => {
  test.setTimeout(180_000); // a passing run takes ~10 s; a failing one waits out each soft check

  await test.step("instrumentation is the one place that starts background work", () => {
    const starters = ["app", "components", "inngest", "lib"].flatMap(sources).concat("instrumentation.ts", "proxy.ts");
    const calling = starters.filter((f) => /\bstartBackground\(/.test(readFileSync(path.join(ROOT, f), "utf8")));
    expect(calling.sort()).toEqual(["instrumentation.ts", "lib/background/driver.ts"]);
    expect(server.log().match(/Inngest drives background work/g)).toHaveLength(1);
  });

  // CLI → admin API route handler. The business: test mode, a webhook URL (every event gets a delivery).
  const proxy = await startRecordingProxy(server.base);
  let shop: { businessId: number; apiKey: string };
  let owner: { email: string; password: string };
  try {
    shop = await test.step("CLI: business and user through the admin API", async () => {
      for (const file of ["scripts/admin.ts", "scripts/admin-cli.ts", "scripts/admin-tables.ts"]) {
        const imports = [...readFileSync(path.join(ROOT, file), "utf8").matchAll(/^import (type )?[^;]*? from "([^"]+)";/gm)];
        const runtime = imports.filter((m) => !m[1]).map((m) => m[2]);
        // The logger (log/) is the one module of ours it may load: it writes lines to stderr and holds no state of the service.
        const service = runtime.filter((m) => /^(@\/(?!log\/)|\.\.?\/(?!admin-))|^(postgres|drizzle-orm|@electric-sql\/)/.test(m));
        expect(service, `${file}: modules of the service or a database driver`).toEqual([]);
      }
      const env = { BASE_URL: proxy.url, ADMIN_TOKEN };
      const created = await runAdminCli(["business", "create", "--name", "Wiring shop", "--webhook-url", UNREACHABLE_HOOK], env);
      owner = { email: `owner-${Date.now()}@shop.example`, password: "correct horse battery staple 42" };
      await runAdminCli(["user", "create", "--email", owner.email, "--business", String(created.businessId), "--password", owner.password], env);
      expect(proxy.seen).toEqual(["POST /admin/v1/businesses", "POST /admin/v1/users"]);
      expect(inngest.events).toEqual([]); // the admin API's changes raise no event
      return created;
    });
  } finally {
    await proxy.close();
  }

  const [checkoutPayment, duePayment] = await test.step("route handler: POST /v1/businesses/{id}/payments", async () => {
    const apiAuth = { authorization: `Bearer ${shop.apiKey}`, "content-type": "application/json" };
    const p = (await call("POST", `${server.base}/v1/businesses/${shop.businessId}/payments`, apiAuth, { currency: "USD", amount: 12 })).data;
    // A payment due in 5 s for the Inngest step: nothing expires it until the sweep runs.
    const short = (await call("POST", `${server.base}/admin/v1/businesses`, admin, { name: "Due shop", webhookUrl: UNREACHABLE_HOOK, paymentLifetimeSeconds: 5 })).data;
    const shortAuth = { ...apiAuth, authorization: `Bearer ${short.apiKey}` };
    const created = (await call("POST", `${server.base}/v1/businesses/${short.businessId}/payments`, shortAuth, { currency: "USD", amount: 3 })).data;
    const due = (await call("GET", `${server.base}/v1/businesses/${short.businessId}/payments/${created.id}`, shortAuth)).data;
    for (const id of [p.id, due.id]) await received(`payment/created for ${id}`, (e) => e.id === `payment-created-${id}`);
    for (const d of [...(await deliveryIds(shop.businessId)), ...(await deliveryIds(short.businessId))]) await received(`delivery ${d}`, deliveryEvent(d));
    return [p as { id: string }, { id: due.id as string, expiresAt: due.expiresAt as string, businessId: short.businessId as number }];
  });

  await test.step("server actions: the checkout chooses a coin and cancels", async () => {
    const before = new Set(await deliveryIds(shop.businessId));
    await page.goto(`${server.base}/pay/${checkoutPayment.id}`);
    await page.getByRole("button", { name: /^Bitcoin BTC/ }).click();
    await expect(page.getByTestId("deposit-address")).toBeVisible();
    await expect.poll(async () => (await deliveryIds(shop.businessId)).length).toBe(before.size + 1);
    const selected = (await deliveryIds(shop.businessId)).find((d) => !before.has(d))!;
    await received("the coin selection's delivery", deliveryEvent(selected));

    await page.getByRole("button", { name: "Cancel payment" }).click();
    await page.getByRole("button", { name: "Yes, cancel payment" }).click();
    await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "CANCELLED");
    await received("payment/settled for the cancelled payment", (e) => e.id === `payment-settled-${checkoutPayment.id}`);
  });

  await test.step("server action: the dashboard sends a test event", async () => {
    // The test event's delivery is the dashboard's alone: the admin API lists payments' deliveries only.
    const listed = new Set([...(await deliveryIds(shop.businessId)), ...(await deliveryIds(duePayment.businessId))]);
    const unlisted = () => inngest.events.filter((e) => e.name === "webhook/delivery.created" && !listed.has(e.data.deliveryId)).length;
    expect(unlisted()).toBe(0);
    await page.goto(`${server.base}/dashboard/sign-in`);
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/dashboard/sign-in"));
    await page.goto(`${server.base}/dashboard/${shop.businessId}/developers`);
    await page.getByRole("button", { name: "Send a test event" }).click();
    await expect.soft.poll(unlisted, { message: "the driver sent the test event's delivery", timeout: 10_000 }).toBe(1);
  });

  await test.step("Inngest function: the sweep run through /api/inngest", async () => {
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(duePayment.expiresAt) - Date.now() + 500)));
    const timer = { name: "inngest/scheduled.timer", data: { cron: "* * * * *" } };
    const res = await fetch(`${server.base}/api/inngest?fnId=cryptopay-sweep-due-work&stepId=step`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ version: 2, event: timer, events: [timer], steps: {}, ctx: { run_id: `wiring-${Date.now()}`, attempt: 0, stack: { stack: [], current: 0 } } }),
    });
    const answer = await res.text();
    expect(res.status, answer).toBe(206); // the step ran; Inngest would call again for the next one
    expect(JSON.parse(answer)).toEqual([expect.objectContaining({ data: 1 })]); // expireDuePayments: one payment expired
    await received("payment/settled for the expired payment", (e) => e.id === `payment-settled-${duePayment.id}`);
    const expired = (await deliveryIds(duePayment.businessId)).sort((a, b) => a - b).at(-1)!;
    await received("the expiry's delivery", deliveryEvent(expired));
  });

  await test.step("instrumentation's sender, alone: every event exactly once, nothing failed", async () => {
    await new Promise((r) => setTimeout(r, 500)); // a second sender's copies would arrive by now
    const ids = inngest.events.map((e) => e.id);
    expect(ids.length).toBe(new Set(ids).size);
    const payments = [checkoutPayment.id, duePayment.id];
    expect(ids.filter((id) => id.startsWith("payment-")).sort()).toEqual(payments.flatMap((p) => [`payment-created-${p}`, `payment-settled-${p}`]).sort());
    const listed = [...(await deliveryIds(shop.businessId)), ...(await deliveryIds(duePayment.businessId))];
    const sent = inngest.events.filter((e) => e.name === "webhook/delivery.created").map((e) => e.data.deliveryId as number);
    expect(sent.length).toBe(listed.length + 1); // every outbox row of a payment, and the test event
    expect(sent).toEqual(expect.arrayContaining(listed));
    expect(server.log()).not.toMatch(/work after a commit failed|gave up sending/);
  });
});
