import { spawn } from "node:child_process";
import path from "node:path";
import { expect } from "vitest";
import { adminToken, createPayment, json, newBusiness, request } from "../helpers";
import { drain, sim, startReceiver } from "../webhooks/support";

/*
 * What the backup tests (backup-embedded.test.ts, backup-postgres.test.ts) put in a database and
 * look for after the restore: a business with settings of its own, two payments (one with a coin
 * chosen), their webhook deliveries with attempts (one failed, then retried), and
 * the business's API key — read back through the API with that key, so the key must still
 * authenticate.
 */

export type Seeded = {
  business: { businessId: number; apiKey: string };
  paymentIds: string[];
  /** The views the API gave before the backup, compared whole after the restore. */
  views: { settings: unknown; payments: unknown[]; deliveries: unknown; keys: unknown };
};

const admin = (method: string, p: string) => request(method, `/admin/v1/businesses${p}`, { key: adminToken() });

async function ok(res: Response) {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.data;
}

/** The API's views of a seeded business, as they are in the database the process now uses. */
export async function viewsOf(s: Pick<Seeded, "business" | "paymentIds">): Promise<Seeded["views"]> {
  const { businessId, apiKey } = s.business;
  const payments = [];
  for (const id of s.paymentIds) payments.push(await ok(await request("GET", `/v1/businesses/${businessId}/payments/${id}`, { key: apiKey })));
  return {
    settings: await ok(await admin("GET", `/${businessId}`)),
    payments,
    deliveries: await ok(await admin("GET", `/${businessId}/webhook-deliveries`)),
    // lastUsedAt moves with every authenticated request: the keys are compared without it.
    keys: ((await ok(await admin("GET", `/${businessId}/api-keys`))) as Record<string, unknown>[]).map(({ lastUsedAt: _, ...k }) => k),
  };
}

export async function seed(): Promise<Seeded> {
  // The first PAYMENT_METHOD_SELECTED attempt fails, its retry succeeds: nothing is left due for a
  // running service to attempt again while the test compares.
  let failed = false;
  const receiver = await startReceiver({
    answer: (hit) => (JSON.parse(hit.body).EventType === "PAYMENT_METHOD_SELECTED" && !failed ? ((failed = true), "fail") : "ok"),
  });
  try {
    const business = await newBusiness({
      name: "Backed-up shop",
      webhookUrl: receiver.url,
      paymentLifetimeSeconds: 900,
      feePercent: 1.5,
      underpaymentTolerancePercent: 2,
      enabledCoins: ["BITCOIN", "LITECOIN"],
    });
    const one = await createPayment(business, { currency: "USD", amount: 10, description: "First order" });
    const two = await createPayment(business, { currency: "EUR", amount: 25.5 });
    await sim(business, two.id, { action: "select", coin: "BITCOIN" });
    await drain();
    await drain(() => new Date(Date.now() + 60_000)); // the retry, a minute on
    const seeded = { business, paymentIds: [one.id, two.id] };
    const views = await viewsOf(seeded);
    const deliveries = (views.deliveries as { items: { status: string; attempts: { succeeded: boolean }[] }[] }).items;
    expect(deliveries.map((d) => d.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(deliveries.map((d) => d.attempts.map((a) => a.succeeded))).toEqual([[false, true], [true], [true]]);
    return { ...seeded, views };
  } finally {
    await receiver.close();
  }
}

/** `npm run admin -- <args>` as an operator runs it: its own process, with `env` on top of ours. */
export function adminCli(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; out: string; err: string }> {
  const merged = { ...process.env, ...env };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  const child = spawn(path.resolve("node_modules/.bin/tsx"), ["scripts/admin.ts", ...args], { env: merged, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d));
  child.stderr.on("data", (d: Buffer) => (err += d));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, out, err })));
}
