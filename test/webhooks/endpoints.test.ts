import { Webhook, WebhookVerificationError } from "svix";
import { describe, expect, it } from "vitest";
import { WebhookEndpointSchema } from "@/lib/openapi/admin-webhook-endpoints";
import { WebhookDeliverySchema } from "@/lib/openapi/webhooks";
import { adminToken, createPayment, expectProblem, json, newBusiness, request } from "../helpers";
import { deliveriesOf, drain, manualClock, oneWebhookFileAtATime, receivers, sim, verifyHit, type Hit } from "./support";

/**
 * Several endpoints per business: fan-out by event filter, a notifyUrl replacing them, each
 * endpoint's own secret, rotation with an overlap, the limit, and the admin API's shapes.
 */
oneWebhookFileAtATime();
const receiver = receivers();

const admin = (method: string, path: string, body?: unknown) => request(method, `/admin/v1/businesses${path}`, { key: adminToken(), body });

async function ok(res: Response, status = 200) {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body.data;
}

/** Whether one of the message's signatures is svix's for `secret` (no timestamp window: the test's clock runs ahead). */
function signedWith(secret: string, hit: Hit): boolean {
  const at = new Date(Number(hit.headers["webhook-timestamp"]) * 1000);
  const expected = new Webhook(secret).sign(hit.headers["webhook-id"], at, hit.body);
  return hit.headers["webhook-signature"].split(" ").includes(expected);
}

const types = (hits: Hit[]) => hits.map((h) => (JSON.parse(h.body) as { EventType: string }).EventType);
const PAID = ["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED", "PAYMENT_PENDING", "PAYMENT_PROCESSING", "PAYMENT_COMPLETED"];

async function pay(b: { businessId: number; apiKey: string }, body?: Record<string, unknown>) {
  const { id } = await createPayment(b, body);
  await sim(b, id, { action: "select", coin: "BITCOIN" });
  await sim(b, id, { action: "pay" });
  await sim(b, id, { action: "confirm" });
  return id;
}

describe("webhook endpoints", () => {
  it("sends each event to every endpoint whose filter takes it, signed with that endpoint's own secret", async () => {
    const [all, completedOnly] = [await receiver(), await receiver()];
    const b = await newBusiness({ webhookUrl: all.url });
    const [primary] = await ok(await admin("GET", `/${b.businessId}/webhook-endpoints`));
    expect(WebhookEndpointSchema.parse(primary)).toMatchObject({ url: all.url, eventTypes: null, enabled: true });
    const second = await ok(
      await admin("POST", `/${b.businessId}/webhook-endpoints`, { url: completedOnly.url, description: "Fulfilment", eventTypes: ["PAYMENT_COMPLETED"] }),
      201,
    );
    expect(second.secret).toMatch(/^whsec_/);
    expect(second.secret).not.toBe(b.webhookSecret);

    const id = await pay(b);
    await drain();
    expect(types(all.hits)).toEqual(PAID);
    expect(types(completedOnly.hits)).toEqual(["PAYMENT_COMPLETED"]);
    // The primary endpoint keeps the business's secret; the second has its own, and only its own verifies.
    for (const h of all.hits) verifyHit(b.webhookSecret, h);
    verifyHit(second.secret, completedOnly.hits[0]);
    expect(() => verifyHit(b.webhookSecret, completedOnly.hits[0])).toThrow(WebhookVerificationError);
    // One message per endpoint: same body, own message ids; the log names each endpoint.
    const rows = await deliveriesOf(id);
    expect(rows).toHaveLength(6);
    const completed = rows.filter((r) => r.eventType === "PAYMENT_COMPLETED");
    expect(completed.map((r) => r.endpointId).sort()).toEqual([primary.endpointId, second.endpointId].sort());
    expect(completed[0].body).toBe(completed[1].body);
    expect(completed[0].messageId).not.toBe(completed[1].messageId);
    const log = await ok(await admin("GET", `/${b.businessId}/webhook-deliveries?endpointId=${second.endpointId}`));
    expect(log.items.map((d: { eventType: string }) => d.eventType)).toEqual(["PAYMENT_COMPLETED"]);
    expect(WebhookDeliverySchema.parse(log.items[0])).toMatchObject({ endpointId: second.endpointId, url: completedOnly.url });
  });

  it("a payment's notifyUrl replaces the endpoints and is signed with the business's secret", async () => {
    const [endpoint, own] = [await receiver(), await receiver()];
    const b = await newBusiness({ webhookUrl: endpoint.url });
    await ok(await admin("POST", `/${b.businessId}/webhook-endpoints`, { url: endpoint.url.replace("/hook", "/second") }), 201);
    // The primary endpoint moves to its own secret: the notifyUrl delivery is still the business's.
    const [primary] = await ok(await admin("GET", `/${b.businessId}/webhook-endpoints`));
    await ok(await admin("POST", `/${b.businessId}/webhook-endpoints/${primary.endpointId}/secret/rotate`, { overlapSeconds: 0 }));
    const { id } = await createPayment(b, { currency: "USD", amount: 5, notifyUrl: own.url });
    await drain();
    expect(endpoint.hits).toHaveLength(0);
    expect(types(own.hits)).toEqual(["PAYMENT_CREATED"]);
    verifyHit(b.webhookSecret, own.hits[0]);
    expect((await deliveriesOf(id))[0].endpointId).toBeNull();
  });

  it("during a rotation's overlap both secrets sign; after it, only the new one", async () => {
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url });
    const [primary] = await ok(await admin("GET", `/${b.businessId}/webhook-endpoints`));
    const rotated = await ok(await admin("POST", `/${b.businessId}/webhook-endpoints/${primary.endpointId}/secret/rotate`, { overlapSeconds: 3600 }));
    expect(rotated.secret).not.toBe(b.webhookSecret);
    expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(3500_000);
    await createPayment(b);
    const clock = manualClock();
    await drain(clock.clock);
    const during = r.hits[0];
    expect(during.headers["webhook-signature"].split(" ")).toHaveLength(2);
    verifyHit(rotated.secret, during);
    verifyHit(b.webhookSecret, during);
    expect(signedWith(rotated.secret, during) && signedWith(b.webhookSecret, during)).toBe(true);

    clock.advance(3601_000);
    await createPayment(b);
    // The row is due now; the clock an hour on sends it after the overlap.
    await drain(clock.clock);
    const after = r.hits[1];
    expect(after.headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(signedWith(rotated.secret, after)).toBe(true);
    expect(signedWith(b.webhookSecret, after)).toBe(false);
    expect(await ok(await admin("GET", `/${b.businessId}/webhook-endpoints/${primary.endpointId}/secret`))).toMatchObject({ secret: rotated.secret });
  });

  it("a business has at most 10 endpoints; a URL is checked under its mode; another business's endpoint is a 404", async () => {
    const b = await newBusiness();
    for (let i = 0; i < 10; i++) await ok(await admin("POST", `/${b.businessId}/webhook-endpoints`, { url: `http://127.0.0.1:9/h${i}` }), 201);
    await expectProblem(await admin("POST", `/${b.businessId}/webhook-endpoints`, { url: "http://127.0.0.1:9/h10" }), 409);
    const live = await newBusiness({ mode: "live" });
    await expectProblem(await admin("POST", `/${live.businessId}/webhook-endpoints`, { url: "http://shop.example/hook" }), 400, ["url"]);
    await expectProblem(await admin("POST", `/${b.businessId}/webhook-endpoints`, { url: "http://x.example/", eventTypes: ["NOPE"] }), 400, ["eventTypes[0]"]);
    const [mine] = await ok(await admin("GET", `/${b.businessId}/webhook-endpoints`));
    await expectProblem(await admin("GET", `/${live.businessId}/webhook-endpoints/${mine.endpointId}`), 404);
    await expectProblem(await admin("DELETE", `/${live.businessId}/webhook-endpoints/${mine.endpointId}`), 404);
  });

  it("webhookUrl reads and writes the primary endpoint; null removes it and the next one becomes primary", async () => {
    const b = await newBusiness();
    expect(await ok(await admin("GET", `/${b.businessId}/webhook-endpoints`))).toEqual([]);
    const set = await ok(await admin("PATCH", `/${b.businessId}`, { webhookUrl: "http://127.0.0.1:9/first" }));
    expect(set.webhookUrl).toBe("http://127.0.0.1:9/first");
    await ok(await admin("POST", `/${b.businessId}/webhook-endpoints`, { url: "http://127.0.0.1:9/second" }), 201);
    const [primary] = await ok(await admin("GET", `/${b.businessId}/webhook-endpoints`));
    expect((await ok(await admin("GET", `/${b.businessId}/webhook-endpoints/${primary.endpointId}/secret`))).secret).toBe(b.webhookSecret);
    await ok(await admin("PATCH", `/${b.businessId}`, { webhookUrl: "http://127.0.0.1:9/moved" }));
    expect((await ok(await admin("GET", `/${b.businessId}/webhook-endpoints/${primary.endpointId}`))).url).toBe("http://127.0.0.1:9/moved");
    expect((await ok(await admin("PATCH", `/${b.businessId}`, { webhookUrl: null }))).webhookUrl).toBe("http://127.0.0.1:9/second");
  });

  it("deleting an endpoint stops its pending deliveries and keeps them in the log", async () => {
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url });
    const [primary] = await ok(await admin("GET", `/${b.businessId}/webhook-endpoints`));
    const { id } = await createPayment(b);
    expect(await ok(await admin("DELETE", `/${b.businessId}/webhook-endpoints/${primary.endpointId}`))).toEqual({ endpointId: primary.endpointId, deleted: true });
    await drain();
    expect(r.hits).toHaveLength(0);
    const [row] = await deliveriesOf(id);
    expect(row).toMatchObject({ status: "failed", endpointId: null, attempts: 0 });
  });

  it("a new endpoint's secret verifies with an unmodified svix verifier over the raw body", async () => {
    const r = await receiver();
    const b = await newBusiness();
    const e = await ok(await admin("POST", `/${b.businessId}/webhook-endpoints`, { url: r.url, eventTypes: ["PAYMENT_CREATED", "PAYMENT_CREATED"] }), 201);
    expect(e.eventTypes).toEqual(["PAYMENT_CREATED"]);
    await createPayment(b);
    await drain();
    expect(new Webhook(e.secret).verify(r.hits[0].body, r.hits[0].headers)).toMatchObject({ EventType: "PAYMENT_CREATED" });
  });
});
