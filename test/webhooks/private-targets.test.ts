import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listEndpoints, updateEndpoint } from "@/db/queries/webhook-endpoints";
import { config } from "@/lib/config";
import { deliveryDetail } from "@/lib/dashboard/developers";
import { webhookGuard } from "@/lib/http/url-safety";
import { adminToken, createPayment, expectProblem, json, newBusiness, paymentsPath, request } from "../helpers";
import { userOf } from "../dashboard/support";
import { attemptsOf, deliveriesOf, deliveryById, drain, FAIL_BODY, oneWebhookFileAtATime, receivers } from "./support";

/**
 * D7 in production: a test business's webhooks reach public addresses only, like a live
 * business's (its delivery log would otherwise show the replies of the operator's private
 * network to anyone with an account). The check is made where the connection is made, on the
 * resolved address; WEBHOOK_ALLOW_PRIVATE_TARGETS lifts it for both modes. Outside production
 * test businesses keep delivering to their own machine.
 */
oneWebhookFileAtATime();
const receiver = receivers();

const cfg = config();
function production(allowPrivate = false) {
  cfg.production = true;
  cfg.webhookPrivateTargets = allowPrivate;
}
afterEach(() => {
  cfg.production = false;
  cfg.webhookPrivateTargets = false;
});

/** Points the business's webhook at `url` in the database: a URL saved before, or a name whose DNS changed since. */
async function repoint(businessId: number, url: string) {
  const db = await getDb();
  const [primary] = await listEndpoints(db, businessId);
  await updateEndpoint(db, businessId, primary.id, { url, updatedAt: new Date() });
}

describe("test businesses in production", () => {
  let b: Awaited<ReturnType<typeof newBusiness>>;
  let owner: string;
  beforeAll(async () => {
    b = await newBusiness({ mode: "test", webhookUrl: "https://hooks.merchant.example/cryptopay" });
    owner = await userOf(b.businessId, "owner");
  });

  for (const host of ["127.0.0.1", "localhost", "[::ffff:127.0.0.1]"]) {
    it(`a delivery to http://${host}:PORT is refused after resolving it, and the log shows no reply`, async () => {
      const r = await receiver({ answer: "fail" });
      await repoint(b.businessId, `http://${host}:${r.port}/hook`);
      production();
      const { id } = await createPayment(b);
      await drain();
      expect(r.connections()).toBe(0);
      const [d] = await deliveriesOf(id);
      const [a] = await attemptsOf(d.id);
      expect(a).toMatchObject({ succeeded: false, statusCode: null, responseBody: null });
      expect(a.error).toMatch(/^refused: .*non-public address/);
      expect(await deliveryById(d.id)).toMatchObject({ status: "pending", attempts: 1 });

      const shown = JSON.stringify(await deliveryDetail(await getDb(), owner, b.businessId, d.id));
      expect(shown).not.toContain(FAIL_BODY.slice(0, 40));
      expect(shown).toContain("non-public address");
    });
  }

  it("a private webhookUrl or notifyUrl is refused when it is given, naming the field", async () => {
    production();
    const admin = (method: string, path: string, body: unknown) => request(method, path, { key: adminToken(), body });
    const refused = await expectProblem(
      await admin("POST", "/admin/v1/businesses", { name: "Shop", mode: "test", webhookUrl: "http://10.0.0.7/hook" }),
      400,
      ["webhookUrl"],
    );
    expect(refused.errors.webhookUrl[0]).toMatch(/WEBHOOK_ALLOW_PRIVATE_TARGETS/);
    await expectProblem(await admin("PATCH", `/admin/v1/businesses/${b.businessId}`, { webhookUrl: "http://localhost:8080/" }), 400, ["webhookUrl"]);
    const create = (notifyUrl: string) => request("POST", paymentsPath(b.businessId), { key: b.apiKey, body: { currency: "USD", amount: 10, notifyUrl } });
    await expectProblem(await create("http://169.254.169.254/latest/meta-data"), 400, ["notifyUrl"]);
    expect((await create("http://hooks.merchant.example/other")).status).toBe(200);
  });

  it("a test business with a stored private URL can still change its other settings", async () => {
    const b = await newBusiness({ mode: "test", webhookUrl: "http://127.0.0.1:9/hook" });
    production();
    const res = await request("PATCH", `/admin/v1/businesses/${b.businessId}`, { key: adminToken(), body: { name: "Renamed" } });
    expect((await json(res)).data).toMatchObject({ name: "Renamed", webhookUrl: "http://127.0.0.1:9/hook" });
  });

  it("WEBHOOK_ALLOW_PRIVATE_TARGETS lets test and live businesses reach a private receiver", async () => {
    const r = await receiver();
    production(true);
    for (const mode of ["test", "live"] as const) {
      const b = await newBusiness({ mode, webhookUrl: r.url });
      const { id } = await createPayment(b);
      await drain();
      const [d] = await deliveriesOf(id);
      expect(await deliveryById(d.id), mode).toMatchObject({ status: "succeeded", attempts: 1 });
      expect(r.hitsFor(d.messageId), mode).toHaveLength(1);
    }
  });
});

describe("outside production", () => {
  it("a test business keeps delivering to http://localhost", async () => {
    const r = await receiver();
    const b = await newBusiness({ mode: "test", webhookUrl: `http://localhost:${r.port}/hook` });
    const { id } = await createPayment(b);
    await drain();
    const [d] = await deliveriesOf(id);
    expect(r.hitsFor(d.messageId)).toHaveLength(1);
  });

  it("the guard is the same in both modes only where it must be", () => {
    const at = (production: boolean, webhookPrivateTargets: boolean) => ({ production, webhookPrivateTargets });
    expect(webhookGuard("test", at(false, false))).toEqual({ httpsOnly: false, publicOnly: false });
    expect(webhookGuard("test", at(true, false))).toEqual({ httpsOnly: false, publicOnly: true });
    expect(webhookGuard("live", at(false, false))).toEqual({ httpsOnly: true, publicOnly: true });
    expect(webhookGuard("live", at(true, false))).toEqual({ httpsOnly: true, publicOnly: true });
    for (const mode of ["test", "live"] as const) {
      for (const p of [false, true]) expect(webhookGuard(mode, at(p, true))).toEqual({ httpsOnly: false, publicOnly: false });
    }
  });
});
