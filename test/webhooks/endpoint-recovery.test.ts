import { describe, expect, it } from "vitest";
import { adminToken, createPayment, expectProblem, json, newBusiness, request } from "../helpers";
import { deliveriesOf, drain, manualClock, oneWebhookFileAtATime, receivers, verifyHit } from "./support";

/**
 * An endpoint failing without a break for 5 days is disabled (Svix's rule); what it misses is
 * logged, not sent, and "recover since" sends it once the endpoint is enabled again. A manual
 * disable holds its pending deliveries the same way.
 */
oneWebhookFileAtATime();
const receiver = receivers();

const DAY = 24 * 3600 * 1000;
const admin = (method: string, path: string, body?: unknown) => request(method, `/admin/v1/businesses${path}`, { key: adminToken(), body });

async function ok(res: Response, status = 200) {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body.data;
}

describe("endpoint auto-disable and recovery", () => {
  it("disables an endpoint after 5 days of failures, logs what it misses, and recovers it since a time", async () => {
    const r = await receiver({ answer: "fail" });
    const b = await newBusiness({ webhookUrl: r.url });
    const [endpoint] = await ok(await admin("GET", `/${b.businessId}/webhook-endpoints`));
    const endpointPath = `/${b.businessId}/webhook-endpoints/${endpoint.endpointId}`;
    const since = new Date(Date.now() - 1000).toISOString();
    const first = await createPayment(b);
    const clock = manualClock();
    await drain(clock.clock);
    const failing = await ok(await admin("GET", endpointPath));
    expect(failing).toMatchObject({ enabled: true, disabledReason: null });
    expect(Date.parse(failing.failingSince)).toBe(clock.now());

    // Just short of 5 days: still enabled.
    clock.advance(5 * DAY - 60_000);
    const second = await createPayment(b);
    await drain(clock.clock);
    expect(await ok(await admin("GET", endpointPath))).toMatchObject({ enabled: true });

    // Past 5 days of failures: disabled, and what was still pending is held.
    clock.advance(2 * 60_000);
    const third = await createPayment(b);
    await drain(clock.clock);
    const disabled = await ok(await admin("GET", endpointPath));
    expect(disabled).toMatchObject({ enabled: false, disabledReason: "failing", disabledAt: new Date(clock.now()).toISOString() });
    const held = [...(await deliveriesOf(first.id)), ...(await deliveriesOf(second.id)), ...(await deliveriesOf(third.id))];
    expect(held.map((d) => d.status)).toEqual(["failed", "failed", "failed"]);
    expect(held.every((d) => d.nextAttemptAt === null)).toBe(true);

    // An event while disabled is logged as failed without an attempt; nothing is sent.
    const hitsBefore = r.hits.length;
    const missed = await createPayment(b);
    await drain(clock.clock);
    expect(r.hits).toHaveLength(hitsBefore);
    expect(await deliveriesOf(missed.id)).toMatchObject([{ status: "failed", attempts: 0, endpointId: endpoint.endpointId }]);

    // Recovery needs the endpoint enabled; enabling ends the streak and sends nothing by itself.
    await expectProblem(await admin("POST", `${endpointPath}/recover`, { since }), 409);
    expect(await ok(await admin("PATCH", endpointPath, { enabled: true }))).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    await drain(clock.clock);
    expect(r.hits).toHaveLength(hitsBefore);

    r.setAnswer("ok");
    await expectProblem(await admin("POST", `${endpointPath}/recover`, { since: new Date(Date.now() + 60_000).toISOString() }), 400, ["since"]);
    expect(await ok(await admin("POST", `${endpointPath}/recover`, { since }))).toEqual({ endpointId: endpoint.endpointId, queued: 4 });
    // Due at once, now: sent on the real clock, so svix's timestamp window holds.
    await drain();
    const resent = r.hits.slice(hitsBefore);
    const expectedIds = [...held, ...(await deliveriesOf(missed.id))].map((d) => d.messageId).sort();
    expect(resent.map((h) => h.headers["webhook-id"]).sort()).toEqual(expectedIds);
    for (const h of resent) verifyHit(b.webhookSecret, h, h.body);
    const after = [first, second, third, missed].map((p) => deliveriesOf(p.id));
    for (const rows of await Promise.all(after)) expect(rows.map((d) => d.status)).toEqual(["succeeded"]);
  });

  it("a success ends the failing streak, so failures days apart never add up to 5 days", async () => {
    const r = await receiver({ answer: "fail" });
    const b = await newBusiness({ webhookUrl: r.url });
    const [endpoint] = await ok(await admin("GET", `/${b.businessId}/webhook-endpoints`));
    await createPayment(b);
    const clock = manualClock();
    await drain(clock.clock);
    clock.advance(3 * DAY);
    r.setAnswer("ok");
    await createPayment(b);
    await drain(clock.clock);
    expect((await ok(await admin("GET", `/${b.businessId}/webhook-endpoints/${endpoint.endpointId}`))).failingSince).toBeNull();
    r.setAnswer("fail");
    clock.advance(3 * DAY);
    await createPayment(b);
    await drain(clock.clock);
    expect(await ok(await admin("GET", `/${b.businessId}/webhook-endpoints/${endpoint.endpointId}`))).toMatchObject({ enabled: true });
  });

  it("disabling by hand holds pending deliveries; its filter still decides what is logged for it", async () => {
    const r = await receiver();
    const b = await newBusiness();
    const e = await ok(await admin("POST", `/${b.businessId}/webhook-endpoints`, { url: r.url, eventTypes: ["PAYMENT_CANCELLED"], enabled: false }), 201);
    expect(e).toMatchObject({ enabled: false, disabledReason: "manual" });
    const { id } = await createPayment(b);
    expect(await deliveriesOf(id)).toEqual([]);
    await ok(await admin("PATCH", `/${b.businessId}/webhook-endpoints/${e.endpointId}`, { eventTypes: null, enabled: true }));
    const pending = await createPayment(b);
    await ok(await admin("PATCH", `/${b.businessId}/webhook-endpoints/${e.endpointId}`, { enabled: false }));
    await drain();
    expect(r.hits).toHaveLength(0);
    expect(await deliveriesOf(pending.id)).toMatchObject([{ status: "failed", attempts: 0 }]);
  });
});
