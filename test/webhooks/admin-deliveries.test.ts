import { describe, expect, it } from "vitest";
import { adminToken, createPayment, expectProblem, json, newBusiness, request } from "../helpers";
import { deliveriesOf, drain, manualClock, oneWebhookFileAtATime, receivers, sim, verifyHit } from "./support";

/**
 * Design §4: the delivery log (every delivery with its attempts) and "redeliver" (one attempt
 * now, same message id) in the admin API.
 */
oneWebhookFileAtATime();
const receiver = receivers();

const S = 1000;
const SCHEDULE = [5 * S, 300 * S, 1800 * S, 7200 * S, 18000 * S, 36000 * S, 36000 * S];

const admin = (method: string, path: string, key: string | null = adminToken()) =>
  request(method, `/admin/v1/businesses${path}`, { key });

async function list(businessId: number, query = "") {
  const res = await admin("GET", `/${businessId}/webhook-deliveries${query}`);
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.data as { items: any[]; totalCount: number; pageNumber: number; pageSize: number; totalPages: number };
}

describe("admin: webhook delivery log", () => {
  it("lists deliveries with their attempts, newest first, filtered by paymentId and status", async () => {
    const r = await receiver({ answer: (h) => (JSON.parse(h.body).EventType === "PAYMENT_METHOD_SELECTED" ? "fail" : "ok") });
    const b = await newBusiness({ webhookUrl: r.url });
    const one = await createPayment(b);
    const two = await createPayment(b);
    await sim(b, two.id, { action: "select", coin: "BITCOIN" });
    await drain();

    const all = await list(b.businessId);
    expect(all.totalCount).toBe(3);
    expect(all.items.map((d) => [d.paymentId, d.eventType])).toEqual([
      [two.id, "PAYMENT_METHOD_SELECTED"],
      [two.id, "PAYMENT_CREATED"],
      [one.id, "PAYMENT_CREATED"],
    ]);
    const [selected, created] = all.items;
    const rows = await deliveriesOf(two.id);
    expect(created).toMatchObject({
      deliveryId: rows[0].id,
      messageId: rows[0].messageId,
      url: r.url,
      status: "succeeded",
      attemptCount: 1,
      nextAttemptAt: null,
      lastStatusCode: 200,
      payload: JSON.parse(rows[0].body),
    });
    expect(created.attempts).toHaveLength(1);
    expect(created.attempts[0]).toMatchObject({ succeeded: true, statusCode: 200, error: null, responseBody: "thanks" });
    expect(typeof created.attempts[0].latencyMs).toBe("number");
    expect(new Date(created.attempts[0].attemptedAt).toISOString()).toBe(created.attempts[0].attemptedAt);
    expect(selected).toMatchObject({ status: "pending", attemptCount: 1, lastStatusCode: 500 });
    expect(selected.attempts[0]).toMatchObject({ succeeded: false, statusCode: 500, error: "HTTP 500" });
    expect(selected.attempts[0].responseBody).toHaveLength(2048);
    expect(new Date(selected.nextAttemptAt).getTime() - new Date(selected.lastAttemptAt).getTime()).toBe(5000);

    const forOne = await list(b.businessId, `?paymentId=${one.id}`);
    expect(forOne.items.map((d) => d.paymentId)).toEqual([one.id]);
    expect((await list(b.businessId, "?status=pending")).items.map((d) => d.eventType)).toEqual(["PAYMENT_METHOD_SELECTED"]);
    expect((await list(b.businessId, "?status=succeeded")).totalCount).toBe(2);
    expect((await list(b.businessId, "?status=failed")).items).toEqual([]);
    expect((await list(b.businessId, `?paymentId=${two.id}&status=succeeded`)).items.map((d) => d.eventType)).toEqual([
      "PAYMENT_CREATED",
    ]);
    const paged = await list(b.businessId, "?PageSize=2&PageNumber=2");
    expect(paged).toMatchObject({ pageNumber: 2, pageSize: 2, totalCount: 3, totalPages: 2 });
    expect(paged.items).toHaveLength(1);

    // Another business's log does not show these.
    const other = await newBusiness();
    expect((await list(other.businessId)).items).toEqual([]);
  });

  it("400 for a bad status or paymentId, 404 for an unknown business, 401 without the admin token", async () => {
    const b = await newBusiness();
    await expectProblem(await admin("GET", `/${b.businessId}/webhook-deliveries?status=delivered`), 400, ["status"]);
    await expectProblem(await admin("GET", `/${b.businessId}/webhook-deliveries?paymentId=nope`), 400, ["paymentId"]);
    await expectProblem(await admin("GET", `/${b.businessId}/webhook-deliveries?colour=red`), 400);
    await expectProblem(await admin("GET", "/987654321/webhook-deliveries"), 404);
    await expectProblem(await admin("GET", `/${b.businessId}/webhook-deliveries`, null), 401);
    await expectProblem(await admin("GET", `/${b.businessId}/webhook-deliveries`, b.apiKey), 401);
  });
});

describe("admin: redeliver", () => {
  it("a failed delivery redelivered to an endpoint that now works becomes succeeded, with the same message id", async () => {
    const r = await receiver({ answer: "fail" });
    const b = await newBusiness({ webhookUrl: r.url });
    const { id } = await createPayment(b);
    const [d] = await deliveriesOf(id);
    const t = manualClock(d.nextAttemptAt!.getTime());
    await drain(t.clock);
    for (const delay of SCHEDULE) {
      t.advance(delay);
      await drain(t.clock);
    }
    const [failed] = (await list(b.businessId, `?paymentId=${id}`)).items;
    expect(failed).toMatchObject({ status: "failed", attemptCount: 8, nextAttemptAt: null });
    expect((await list(b.businessId, "?status=failed")).items.map((x) => x.deliveryId)).toEqual([d.id]);

    // Still failing: the attempt is recorded, the delivery stays failed.
    let res = await admin("POST", `/${b.businessId}/webhook-deliveries/${d.id}/redeliver`);
    let out = (await json(res)).data;
    expect(res.status).toBe(200);
    expect(out).toMatchObject({ deliveryId: d.id, status: "failed", attemptCount: 9 });
    expect(out.attempts).toHaveLength(9);

    r.setAnswer("ok");
    const before = r.hits.length;
    res = await admin("POST", `/${b.businessId}/webhook-deliveries/${d.id}/redeliver`);
    out = (await json(res)).data;
    expect(res.status).toBe(200);
    expect(out).toMatchObject({ deliveryId: d.id, messageId: d.messageId, status: "succeeded", attemptCount: 10, lastStatusCode: 200 });
    expect(out.attempts.at(-1)).toMatchObject({ succeeded: true, statusCode: 200 });
    // One immediate attempt, same message id and body, signed now (it verifies against the wall clock).
    const fresh = r.hits.slice(before);
    expect(fresh).toHaveLength(1);
    expect(fresh[0].headers["hook-id"]).toBe(d.messageId);
    expect(fresh[0].body).toBe(d.body);
    expect(verifyHit(b.webhookSecret, fresh[0])).toMatchObject({ EventType: "PAYMENT_CREATED" });
    expect((await list(b.businessId, "?status=succeeded")).items.map((x) => x.deliveryId)).toEqual([d.id]);

    // Redelivering a delivered message sends it again (the receiver dedupes on hook-id).
    res = await admin("POST", `/${b.businessId}/webhook-deliveries/${d.id}/redeliver`);
    expect((await json(res)).data).toMatchObject({ status: "succeeded", attemptCount: 11 });
    expect(r.hitsFor(d.messageId)).toHaveLength(11);
  });

  it("a failed manual attempt leaves a pending delivery's schedule as it was", async () => {
    const r = await receiver({ answer: "fail" });
    const b = await newBusiness({ webhookUrl: r.url });
    const { id } = await createPayment(b);
    await drain();
    const [d] = await deliveriesOf(id);
    const res = await admin("POST", `/${b.businessId}/webhook-deliveries/${d.id}/redeliver`);
    const out = (await json(res)).data;
    expect(out).toMatchObject({ status: "pending", attemptCount: 2, nextAttemptAt: d.nextAttemptAt!.toISOString() });
  });

  it("404 for an unknown delivery or another business's delivery, 400 for a malformed id", async () => {
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url });
    const other = await newBusiness();
    const { id } = await createPayment(b);
    const [d] = await deliveriesOf(id);
    await expectProblem(await admin("POST", `/${b.businessId}/webhook-deliveries/999999999/redeliver`), 404);
    await expectProblem(await admin("POST", `/${other.businessId}/webhook-deliveries/${d.id}/redeliver`), 404);
    await expectProblem(await admin("POST", `/987654321/webhook-deliveries/${d.id}/redeliver`), 404);
    await expectProblem(await admin("POST", `/${b.businessId}/webhook-deliveries/abc/redeliver`), 400);
    await expectProblem(await admin("POST", `/${b.businessId}/webhook-deliveries/${d.id}/redeliver`, null), 401);
    expect(r.hits).toHaveLength(0);
  });
});
