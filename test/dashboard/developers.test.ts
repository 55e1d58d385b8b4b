import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "@/db/schema";
import { touchApiKeyUse } from "@/db/queries/api-key-use";
import { KEY_USE_INTERVAL_MS } from "@/lib/accounts/api-keys";
import {
  createKey,
  deliveryDetail,
  deliveryLog,
  developerOverview,
  revealWebhookSecret,
  revokeBusinessKey,
  rotateSecret,
  sendTestEvent,
  setWebhookUrl,
} from "@/lib/dashboard/developers";
import { plainFieldErrors } from "@/lib/http/errors";
import { TEST_EVENT_TYPE } from "@/lib/webhooks/test-event";
import { adminToken, createPayment, json, paymentsPath, request } from "../helpers";
import { drain, oneWebhookFileAtATime, receivers, verifyHit } from "../webhooks/support";
import { rejects, team } from "./support";

/** The Developers section's services: who may do what, other businesses' ids, and the effects through the real API. */
oneWebhookFileAtATime();
const receiver = receivers();

let t: Awaited<ReturnType<typeof team>>;
beforeAll(async () => {
  t = await team();
});

const listPayments = (businessId: number, key: string) => request("GET", paymentsPath(businessId), { key });

describe("dashboard developers: permissions", () => {
  it("every role sees the page; only developers and owners manage keys and webhooks and see the secret", async () => {
    for (const [role, userId] of Object.entries(t.roles)) {
      const o = await developerOverview(t.db, userId, t.a.businessId);
      expect(o.businessId).toBe(t.a.businessId);
      expect(o.keys.map((k) => k.keyId)).toContain(t.a.keyId);
      expect(JSON.stringify(o)).not.toContain(t.a.webhookSecret);
      const manages = role !== "viewer";
      expect(o.allowed).toEqual({ manageKeys: manages, manageWebhooks: manages, seeSecrets: manages });
      expect((await deliveryLog(t.db, userId, t.a.businessId, {})).totalCount).toBeGreaterThanOrEqual(0);
    }
    const viewer = t.viewer;
    await rejects(createKey(t.db, viewer, t.a.businessId, {}), 403);
    await rejects(revokeBusinessKey(t.db, viewer, t.a.businessId, t.a.keyId), 403);
    await rejects(setWebhookUrl(t.db, viewer, t.a.businessId, "https://x.example/hook"), 403);
    await rejects(revealWebhookSecret(t.db, viewer, t.a.businessId), 403);
    await rejects(rotateSecret(t.db, viewer, t.a.businessId), 403);
    await rejects(sendTestEvent(t.db, viewer, t.a.businessId), 403);
    for (const userId of [t.developer, t.owner]) {
      expect(await revealWebhookSecret(t.db, userId, t.a.businessId)).toEqual({ webhookSecret: t.a.webhookSecret });
      const made = await createKey(t.db, userId, t.a.businessId, { expiresInSeconds: 3600 });
      expect(made.apiKey).toMatch(/^ey/);
      expect(await revokeBusinessKey(t.db, userId, t.a.businessId, made.keyId)).toMatchObject({ keyId: made.keyId });
    }
  });

  it("answers 404 for another business's id, key id and delivery id, as for ids that do not exist", async () => {
    const r = await receiver();
    const b = t.b.businessId;
    const a = t.a.businessId;
    await setWebhookUrl(t.db, t.ownerOfB, b, r.url);
    const bDelivery = await sendTestEvent(t.db, t.ownerOfB, b);
    // A's users passing B's id.
    for (const userId of Object.values(t.roles)) {
      await rejects(developerOverview(t.db, userId, b), 404);
      await rejects(deliveryLog(t.db, userId, b, {}), 404);
      await rejects(deliveryDetail(t.db, userId, b, bDelivery.deliveryId), 404);
      await rejects(revealWebhookSecret(t.db, userId, b), 404);
      await rejects(createKey(t.db, userId, b, {}), 404);
      await rejects(rotateSecret(t.db, userId, b), 404);
      await rejects(sendTestEvent(t.db, userId, b), 404);
      await rejects(setWebhookUrl(t.db, userId, b, "https://x.example/hook"), 404);
      await rejects(revokeBusinessKey(t.db, userId, b, t.b.keyId), 404);
      await rejects(developerOverview(t.db, userId, "not-an-id"), 404);
      await rejects(developerOverview(t.db, userId, 987654321), 404);
    }
    // B's key and delivery under A's id: 404, and B's key still works.
    await rejects(revokeBusinessKey(t.db, t.owner, a, t.b.keyId), 404);
    await rejects(revokeBusinessKey(t.db, t.owner, a, "../../etc"), 404);
    await rejects(deliveryDetail(t.db, t.owner, a, bDelivery.deliveryId), 404);
    await rejects(deliveryDetail(t.db, t.owner, a, "1; drop table"), 404);
    expect((await listPayments(b, t.b.apiKey)).status).toBe(200);
    expect((await deliveryDetail(t.db, t.ownerOfB, b, bDelivery.deliveryId)).deliveryId).toBe(bDelivery.deliveryId);
  });
});

describe("dashboard developers: keys", () => {
  it("a key created here works on /v1 until it is revoked here, then gets 401; its last use is recorded", async () => {
    const made = await createKey(t.db, t.developer, t.a.businessId, {});
    const before = (await developerOverview(t.db, t.viewer, t.a.businessId)).keys.find((k) => k.keyId === made.keyId)!;
    expect(before).toMatchObject({ revokedAt: null, expiresAt: null, lastUsedAt: null });
    expect(JSON.stringify(before)).not.toContain(made.apiKey);

    expect((await listPayments(t.a.businessId, made.apiKey)).status).toBe(200);
    const used = (await developerOverview(t.db, t.viewer, t.a.businessId)).keys.find((k) => k.keyId === made.keyId)!;
    expect(used.lastUsedAt).not.toBeNull();
    expect(Date.now() - Date.parse(used.lastUsedAt!)).toBeLessThan(60_000);
    // Within the minute, further requests write nothing.
    expect((await listPayments(t.a.businessId, made.apiKey)).status).toBe(200);
    const again = (await developerOverview(t.db, t.viewer, t.a.businessId)).keys.find((k) => k.keyId === made.keyId)!;
    expect(again.lastUsedAt).toBe(used.lastUsedAt);

    await revokeBusinessKey(t.db, t.owner, t.a.businessId, made.keyId);
    const res = await listPayments(t.a.businessId, made.apiKey);
    expect(res.status).toBe(401);
    expect((await json(res)).detail).toMatch(/revoked/);
    await rejects(revokeBusinessKey(t.db, t.owner, t.a.businessId, made.keyId), 404);
    const listed = (await developerOverview(t.db, t.owner, t.a.businessId)).keys.find((k) => k.keyId === made.keyId)!;
    expect(listed.revokedAt).not.toBeNull();
    // The business's first key is untouched.
    expect((await listPayments(t.a.businessId, t.a.apiKey)).status).toBe(200);
  });

  it("writes last use at most once a minute per key, across instances (conditional UPDATE)", async () => {
    const made = await createKey(t.db, t.owner, t.a.businessId, {});
    const t0 = new Date("2030-01-01T00:00:00Z");
    expect(await touchApiKeyUse(t.db, made.keyId, t0, KEY_USE_INTERVAL_MS)).toBe(true);
    expect(await touchApiKeyUse(t.db, made.keyId, new Date(t0.getTime() + 30_000), KEY_USE_INTERVAL_MS)).toBe(false);
    expect(await touchApiKeyUse(t.db, made.keyId, new Date(t0.getTime() + KEY_USE_INTERVAL_MS), KEY_USE_INTERVAL_MS)).toBe(true);
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, made.keyId));
    expect(row.lastUsedAt?.getTime()).toBe(t0.getTime() + KEY_USE_INTERVAL_MS);
  });

  it("validates a new key's lifetime with the admin API's schema", async () => {
    await rejects(createKey(t.db, t.owner, t.a.businessId, { expiresInSeconds: 5 }), 400, ["expiresInSeconds"]);
    await rejects(createKey(t.db, t.owner, t.a.businessId, { admin: true }), 400, ["admin"]);
  });
});

describe("dashboard developers: webhooks", () => {
  it("sets the URL with field errors, removes it with an empty value, and refuses a test event without one", async () => {
    const e = await rejects(setWebhookUrl(t.db, t.developer, t.a.businessId, "not a url"), 400, ["webhookUrl"]);
    // What a server action sends back must be a plain object (React refuses a null prototype).
    expect(Object.getPrototypeOf(plainFieldErrors(e.fieldErrors))).toBe(Object.prototype);
    expect(plainFieldErrors(e.fieldErrors)).toEqual({ webhookUrl: e.fieldErrors!.webhookUrl });
    await rejects(setWebhookUrl(t.db, t.developer, t.a.businessId, "ftp://x.example/hook"), 400, ["webhookUrl"]);
    expect(await setWebhookUrl(t.db, t.developer, t.a.businessId, " https://shop.example/hook ")).toEqual({ webhookUrl: "https://shop.example/hook" });
    expect(await setWebhookUrl(t.db, t.developer, t.a.businessId, "")).toEqual({ webhookUrl: null });
    await rejects(sendTestEvent(t.db, t.developer, t.a.businessId), 409);
  });

  it("after a rotation the next webhook verifies with the new secret only; the test event shows in the dashboard's log", async () => {
    const r = await receiver();
    await setWebhookUrl(t.db, t.owner, t.a.businessId, r.url);
    const old = (await revealWebhookSecret(t.db, t.developer, t.a.businessId)).webhookSecret;
    const { webhookSecret } = await rotateSecret(t.db, t.developer, t.a.businessId);
    expect(webhookSecret).toMatch(/^whsec_/);
    expect(webhookSecret).not.toBe(old);
    expect((await revealWebhookSecret(t.db, t.owner, t.a.businessId)).webhookSecret).toBe(webhookSecret);

    const queued = await sendTestEvent(t.db, t.developer, t.a.businessId);
    expect(queued).toMatchObject({ eventType: TEST_EVENT_TYPE, paymentId: null, status: "pending", attemptCount: 0, url: r.url });
    await drain();
    const [hit] = r.hitsFor(queued.messageId);
    expect(verifyHit(webhookSecret, hit)).toEqual({ EventType: TEST_EVENT_TYPE, ForPaymentEvents: null, BusinessId: t.a.businessId, CreatedAt: expect.any(String) });
    expect(() => verifyHit(old, hit)).toThrow();

    const detail = await deliveryDetail(t.db, t.viewer, t.a.businessId, queued.deliveryId);
    expect(detail).toMatchObject({ status: "succeeded", attemptCount: 1, lastStatusCode: 200 });
    const log = await deliveryLog(t.db, t.viewer, t.a.businessId, { status: "succeeded" });
    expect(log.items.map((d) => d.deliveryId)).toContain(queued.deliveryId);
    expect((await deliveryLog(t.db, t.viewer, t.a.businessId, { status: "failed" })).items.map((d) => d.deliveryId)).not.toContain(queued.deliveryId);
    await rejects(deliveryLog(t.db, t.viewer, t.a.businessId, { status: "lost" }), 400, ["status"]);

    // A payment's event after the rotation is signed with the new secret too, and both share the log.
    const pay = await createPayment(t.a);
    await drain();
    const created = r.hits.find((h) => JSON.parse(h.body).ForPaymentEvents?.Id === pay.id)!;
    expect(verifyHit(webhookSecret, created).EventType).toBe("PAYMENT_CREATED");
    const all = await deliveryLog(t.db, t.viewer, t.a.businessId, {});
    expect(all.items.slice(0, 2).map((d) => d.eventType)).toEqual(["PAYMENT_CREATED", TEST_EVENT_TYPE]);

    // The admin API's log keeps its documented shape: payments' events only.
    const admin = await request("GET", `/admin/v1/businesses/${t.a.businessId}/webhook-deliveries?PageSize=100`, { key: adminToken() });
    const items = (await json(admin)).data.items as { eventType: string }[];
    expect(items.map((d) => d.eventType)).toContain("PAYMENT_CREATED");
    expect(items.map((d) => d.eventType)).not.toContain(TEST_EVENT_TYPE);
  });

  it("records a failed test event's attempt and keeps it scheduled, as any delivery", async () => {
    const r = await receiver({ answer: "fail" });
    await setWebhookUrl(t.db, t.owner, t.a.businessId, r.url);
    const queued = await sendTestEvent(t.db, t.owner, t.a.businessId);
    await drain();
    const detail = await deliveryDetail(t.db, t.owner, t.a.businessId, queued.deliveryId);
    expect(detail).toMatchObject({ status: "pending", attemptCount: 1, lastStatusCode: 500 });
    expect(detail.attempts[0]).toMatchObject({ succeeded: false, error: "HTTP 500" });
    expect(detail.nextAttemptAt).not.toBeNull();
    expect((await deliveryLog(t.db, t.viewer, t.a.businessId, { status: "pending" })).items.map((d) => d.deliveryId)).toContain(queued.deliveryId);
  });
});
