import { createHmac } from "node:crypto";
import { Webhook, WebhookVerificationError } from "svix";
import { describe, expect, it } from "vitest";
import { adminToken, createPayment, json, newBusiness, request } from "../helpers";
import { deliveriesOf, drain, manualClock, oneWebhookFileAtATime, receivers, sim, verifyHit, type Hit } from "./support";

/**
 * D5 signing: svix's scheme, verified here by the unmodified svix library the spec tells
 * merchants to use, over what a real HTTP receiver got.
 */
oneWebhookFileAtATime();
const receiver = receivers();

const HEADER_PARTS = ["id", "timestamp", "signature"] as const;

function renamed(hit: Hit, prefix: "hook" | "webhook", to: "svix" | "webhook") {
  return Object.fromEntries(HEADER_PARTS.map((p) => [`${to}-${p}`, hit.headers[`${prefix}-${p}`]]));
}

/** One byte of the body changed (a digit of an amount, or a letter). */
function tamper(body: string): string {
  const i = body.indexOf('"EndAmount":') + '"EndAmount":'.length;
  const c = body[i];
  return body.slice(0, i) + (c === "9" ? "8" : String.fromCharCode(c.charCodeAt(0) + 1)) + body.slice(i + 1);
}

describe("webhook signatures", () => {
  it("an unmodified svix Webhook.verify accepts a delivery with webhook-* headers, and with hook-* renamed to svix-*", async () => {
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url });
    const { id } = await createPayment(b, { currency: "USD", amount: 19.99, name: "Mug" });
    await drain();
    expect(r.hits).toHaveLength(1);
    const hit = r.hits[0];
    const [delivery] = await deliveriesOf(id);

    expect(hit.method).toBe("POST");
    expect(hit.path).toBe("/hook");
    expect(hit.headers["content-type"]).toBe("application/json");
    // The raw body is the stored body, byte for byte.
    expect(hit.body).toBe(delivery.body);

    // The spec's hook-* headers and the webhook-* copies carry the same three values.
    for (const p of HEADER_PARTS) expect(hit.headers[`hook-${p}`], p).toBe(hit.headers[`webhook-${p}`]);
    expect(hit.headers["hook-id"]).toBe(delivery.messageId);
    const ts = Number(hit.headers["hook-timestamp"]);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(60);
    expect(hit.headers["hook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

    const wh = new Webhook(b.webhookSecret);
    // 1. The headers as received (webhook-* is what svix reads; hook-* alongside is ignored).
    expect(wh.verify(hit.body, hit.headers)).toEqual(JSON.parse(hit.body));
    // 2. Only the webhook-* headers.
    expect(wh.verify(hit.body, renamed(hit, "webhook", "webhook"))).toMatchObject({ EventType: "PAYMENT_CREATED" });
    // 3. The spec's hook-* headers under svix's own names.
    expect(wh.verify(hit.body, renamed(hit, "hook", "svix"))).toMatchObject({ ForPaymentEvents: { Id: id, Name: "Mug" } });
    // A Buffer of the raw bytes verifies too.
    expect(wh.verify(Buffer.from(hit.body), renamed(hit, "hook", "svix"))).toBeTruthy();
  });

  it("the signature is base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` under the decoded secret", async () => {
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url });
    await createPayment(b);
    await drain();
    const h = r.hits[0].headers;
    const key = Buffer.from(b.webhookSecret.slice("whsec_".length), "base64");
    const mac = createHmac("sha256", key).update(`${h["hook-id"]}.${h["hook-timestamp"]}.${r.hits[0].body}`).digest("base64");
    expect(h["hook-signature"]).toBe(`v1,${mac}`);
  });

  it("rejects the delivery after one byte of the body changed, a re-serialized body, or another secret", async () => {
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url });
    const other = await newBusiness();
    await createPayment(b, { currency: "USD", amount: 10, metadata: { a: "1" } });
    await drain();
    const hit = r.hits[0];
    const wh = new Webhook(b.webhookSecret);
    const tampered = tamper(hit.body);
    expect(tampered).not.toBe(hit.body);
    expect(tampered.length).toBe(hit.body.length);
    expect(() => wh.verify(tampered, hit.headers)).toThrow(WebhookVerificationError);
    expect(() => wh.verify(tampered, renamed(hit, "hook", "svix"))).toThrow(WebhookVerificationError);
    // Re-serializing the parsed JSON with other whitespace breaks it too: verify the raw body.
    expect(() => wh.verify(JSON.stringify(JSON.parse(hit.body), null, 2), hit.headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(other.webhookSecret).verify(hit.body, hit.headers)).toThrow(WebhookVerificationError);
    // Another message id with the same signature does not verify.
    expect(() => wh.verify(hit.body, { ...renamed(hit, "webhook", "webhook"), "webhook-id": "msg_other" })).toThrow(
      WebhookVerificationError,
    );
  });

  it("svix's 5-minute tolerance: an attempt signed far from now does not verify now", async () => {
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url });
    await createPayment(b);
    await drain(() => new Date(Date.now() + 10 * 60_000));
    const hit = r.hits[0];
    expect(() => verifyHit(b.webhookSecret, hit)).toThrow(/too new/);
  });

  it("keeps one message id across retries, re-signing each attempt with its own timestamp", async () => {
    const r = await receiver({ answer: (_hit, n) => (n < 3 ? "fail" : "ok") });
    const b = await newBusiness({ webhookUrl: r.url });
    const { id } = await createPayment(b);
    const t = manualClock();
    await drain(t.clock);
    t.advance(5_000);
    await drain(t.clock);
    t.advance(5 * 60_000);
    await drain(t.clock);
    const [d] = await deliveriesOf(id);
    expect(d.status).toBe("succeeded");
    expect(r.hits).toHaveLength(3);
    expect(new Set(r.hits.map((h) => h.headers["hook-id"]))).toEqual(new Set([d.messageId]));
    expect(new Set(r.hits.map((h) => h.headers["webhook-id"]))).toEqual(new Set([d.messageId]));
    expect(new Set(r.hits.map((h) => h.body)).size).toBe(1);
    const stamps = r.hits.map((h) => Number(h.headers["hook-timestamp"]));
    expect(stamps[1] - stamps[0]).toBe(5);
    expect(stamps[2] - stamps[1]).toBe(300);
    // Each attempt's signature is its own, and each is valid for its timestamp.
    expect(new Set(r.hits.map((h) => h.headers["hook-signature"])).size).toBe(3);
    const wh = new Webhook(b.webhookSecret);
    for (const h of r.hits) {
      expect(wh.sign(h.headers["hook-id"], new Date(Number(h.headers["hook-timestamp"]) * 1000), h.body)).toBe(
        h.headers["hook-signature"],
      );
    }
  });

  it("after the secret is rotated (admin route), new attempts verify with the new secret only", async () => {
    const r = await receiver({ answer: "fail" });
    const b = await newBusiness({ webhookUrl: r.url });
    await createPayment(b);
    const t = manualClock();
    await drain(t.clock);
    expect(verifyHit(b.webhookSecret, r.hits[0])).toMatchObject({ EventType: "PAYMENT_CREATED" });

    const res = await request("POST", `/admin/v1/businesses/${b.businessId}/webhook-secret/rotate`, { key: adminToken() });
    expect(res.status).toBe(200);
    const { webhookSecret } = (await json(res)).data;
    expect(webhookSecret).toMatch(/^whsec_/);
    expect(webhookSecret).not.toBe(b.webhookSecret);

    r.setAnswer("ok");
    t.advance(5_000);
    await drain(t.clock);
    expect(r.hits).toHaveLength(2);
    const retry = r.hits[1];
    expect(retry.headers["hook-id"]).toBe(r.hits[0].headers["hook-id"]);
    expect(verifyHit(webhookSecret, retry)).toMatchObject({ EventType: "PAYMENT_CREATED" });
    expect(() => verifyHit(b.webhookSecret, retry)).toThrow(WebhookVerificationError);

    // Events after the rotation are signed with the new secret too.
    const { id } = await createPayment(b);
    await sim(b, id, { action: "select", coin: "BITCOIN" });
    await drain();
    const fresh = r.hits.slice(2);
    expect(fresh.map((h) => JSON.parse(h.body).EventType)).toEqual(["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED"]);
    for (const h of fresh) {
      expect(() => verifyHit(webhookSecret, h)).not.toThrow();
      expect(() => verifyHit(b.webhookSecret, h)).toThrow(WebhookVerificationError);
    }
  });
});
