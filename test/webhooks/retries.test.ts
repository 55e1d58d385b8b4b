import { describe, expect, it } from "vitest";
import { DELIVERY_TIMEOUT_MS, postWebhook } from "@/lib/webhooks/send";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "@/lib/webhooks/deliver";
import { createPayment, newBusiness } from "../helpers";
import {
  attemptsOf,
  deliveriesOf,
  deliveryById,
  drain,
  FAIL_BODY,
  manualClock,
  oneWebhookFileAtATime,
  receivers,
  sim,
} from "./support";

/**
 * D5 retries: success is a 2xx within 15 s, redirects are not followed, every attempt is
 * recorded, and failed attempts are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
 * Time is the `clock` argument of deliverDue, moved by hand: nothing sleeps for hours.
 */
oneWebhookFileAtATime();
const receiver = receivers();

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const SCHEDULE = [5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H];

describe("webhook retries", () => {
  it("uses Svix's schedule: 8 attempts in all", () => {
    expect(RETRY_DELAYS_MS).toEqual(SCHEDULE);
    expect(MAX_ATTEMPTS).toBe(8);
    expect(DELIVERY_TIMEOUT_MS).toBe(15_000);
  });

  it("a 500 is recorded and retried on schedule; after 8 attempts the delivery is failed", async () => {
    const r = await receiver({ answer: "fail" });
    const b = await newBusiness({ webhookUrl: r.url });
    const { id } = await createPayment(b);
    const [created] = await deliveriesOf(id);
    const t = manualClock(created.nextAttemptAt!.getTime());

    await drain(t.clock);
    let d = await deliveryById(created.id);
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lockedUntil: null });
    expect(d.lastAttemptAt!.getTime()).toBe(t.now());
    expect(d.nextAttemptAt!.getTime()).toBe(t.now() + 5 * S);
    const [first] = await attemptsOf(created.id);
    expect(first).toMatchObject({ succeeded: false, statusCode: 500, error: "HTTP 500" });
    expect(first.attemptedAt.getTime()).toBe(t.now());
    expect(Number.isInteger(first.latencyMs) && first.latencyMs >= 0 && first.latencyMs < 15_000).toBe(true);
    // The first 2 KB of the answer are kept.
    expect(first.responseBody).toBe(FAIL_BODY.slice(0, 2048));

    for (const [i, delay] of SCHEDULE.entries()) {
      // Not a moment early…
      t.advance(delay - 1);
      await drain(t.clock);
      expect((await deliveryById(created.id)).attempts).toBe(i + 1);
      // …and on time.
      t.advance(1);
      await drain(t.clock);
      d = await deliveryById(created.id);
      expect(d.attempts).toBe(i + 2);
      expect(d.lastAttemptAt!.getTime()).toBe(t.now());
      const next = SCHEDULE[i + 1];
      if (next !== undefined) {
        expect(d.status).toBe("pending");
        expect(d.nextAttemptAt!.getTime()).toBe(t.now() + next);
      }
    }
    expect(d).toMatchObject({ status: "failed", attempts: 8, nextAttemptAt: null, lastStatusCode: 500 });
    const attempts = await attemptsOf(created.id);
    expect(attempts).toHaveLength(8);
    const gaps = attempts.slice(1).map((a, i) => a.attemptedAt.getTime() - attempts[i].attemptedAt.getTime());
    expect(gaps).toEqual(SCHEDULE);
    expect(attempts.every((a) => !a.succeeded && a.statusCode === 500)).toBe(true);

    // Given up: no more attempts, however late it gets.
    t.advance(1000 * H);
    await drain(t.clock);
    expect((await attemptsOf(created.id)).length).toBe(8);
    expect(r.hitsFor(created.messageId)).toHaveLength(8);
  });

  it("a success at a retry stops the schedule", async () => {
    const r = await receiver({ answer: (_h, n) => (n <= 3 ? "fail" : "ok") });
    const b = await newBusiness({ webhookUrl: r.url });
    const { id } = await createPayment(b);
    const [created] = await deliveriesOf(id);
    const t = manualClock(created.nextAttemptAt!.getTime());
    await drain(t.clock);
    for (const delay of SCHEDULE.slice(0, 3)) {
      t.advance(delay);
      await drain(t.clock);
    }
    const d = await deliveryById(created.id);
    expect(d).toMatchObject({ status: "succeeded", attempts: 4, nextAttemptAt: null, lastStatusCode: 200 });
    const attempts = await attemptsOf(created.id);
    expect(attempts.map((a) => a.succeeded)).toEqual([false, false, false, true]);
    expect(attempts[3]).toMatchObject({ statusCode: 200, error: null, responseBody: "thanks" });
    t.advance(100 * H);
    await drain(t.clock);
    expect(r.hitsFor(created.messageId)).toHaveLength(4);
  });

  it("a 302 is a failure and is not followed: the redirect target receives nothing", async () => {
    const target = await receiver();
    const r = await receiver({ answer: "redirect", redirectTo: target.url });
    const b = await newBusiness({ webhookUrl: r.url });
    const { id } = await createPayment(b);
    const [created] = await deliveriesOf(id);
    const t = manualClock(created.nextAttemptAt!.getTime());
    await drain(t.clock);
    t.advance(5 * S);
    await drain(t.clock);
    expect(r.hitsFor(created.messageId)).toHaveLength(2);
    expect(target.hits).toHaveLength(0);
    expect(target.connections()).toBe(0);
    const d = await deliveryById(created.id);
    expect(d).toMatchObject({ status: "pending", attempts: 2, lastStatusCode: 302 });
    const [a] = await attemptsOf(created.id);
    expect(a).toMatchObject({ succeeded: false, statusCode: 302 });
    expect(a.error).toMatch(/redirect/);
  });

  it("postWebhook gives up on a receiver that does not answer, or stops mid-answer", async () => {
    const hang = await receiver({ answer: "hang" });
    const res = await postWebhook(hang.url, '{"x":1}', { "hook-id": "msg_1" }, "test", 300);
    expect(res).toMatchObject({ ok: false, statusCode: null, responseBody: null });
    expect(res.error).toMatch(/no answer within 0.3 s/);
    expect(res.latencyMs).toBeGreaterThanOrEqual(290);
    expect(res.latencyMs).toBeLessThan(5000);
    expect(hang.hits).toHaveLength(1);
    expect(hang.hits[0].body).toBe('{"x":1}');

    // Headers sent, body never finished: still a timeout, never a hang of the worker.
    const http = await import("node:http");
    const slow = http.createServer((_req, res2) => {
      res2.writeHead(200);
      res2.write("partial");
    });
    await new Promise<void>((ok) => slow.listen(0, "127.0.0.1", ok));
    const port = (slow.address() as { port: number }).port;
    try {
      const partial = await postWebhook(`http://127.0.0.1:${port}/`, "{}", {}, "test", 300);
      expect(partial.ok).toBe(false);
      expect(partial.error).toMatch(/no answer within/);
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });

  it("connection refused and an unknown host are recorded failures, retried", async () => {
    const b = await newBusiness({ webhookUrl: "http://127.0.0.1:9/nothing-listens" });
    const { id } = await createPayment(b);
    const [created] = await deliveriesOf(id);
    const t = manualClock(created.nextAttemptAt!.getTime());
    await drain(t.clock);
    const d = await deliveryById(created.id);
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
    const [a] = await attemptsOf(created.id);
    expect(a).toMatchObject({ succeeded: false, statusCode: null, responseBody: null });
    expect(a.error).toMatch(/ECONNREFUSED/);

    const res = await postWebhook("http://no-such-host.invalid/hook", "{}", {}, "test");
    expect(res.ok).toBe(false);
    expect(res.error).toMatch(/ENOTFOUND|EAI_AGAIN/);
  });

  it("events of one payment due together arrive in order; a failing one does not hold back the next", async () => {
    const r = await receiver();
    const b = await newBusiness({ webhookUrl: r.url });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { id } = await createPayment(b);
      await sim(b, id, { action: "select", coin: "BITCOIN" });
      await sim(b, id, { action: "pay" });
      await sim(b, id, { action: "confirm" });
      ids.push(id);
    }
    await drain();
    for (const id of ids) {
      const got = r.hits.filter((h) => JSON.parse(h.body).ForPaymentEvents.Id === id).map((h) => JSON.parse(h.body).EventType);
      expect(got).toEqual(["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED", "PAYMENT_PENDING", "PAYMENT_PROCESSING", "PAYMENT_COMPLETED"]);
    }

    // PROCESSING refused by the endpoint: COMPLETED still goes out in the same pass.
    r.setAnswer((h) => (JSON.parse(h.body).EventType === "PAYMENT_PROCESSING" ? "fail" : "ok"));
    const { id } = await createPayment(b);
    await sim(b, id, { action: "select", coin: "BITCOIN" });
    await sim(b, id, { action: "pay", confirmations: 6 });
    await drain();
    const states = Object.fromEntries((await deliveriesOf(id)).map((d) => [d.eventType, d.status]));
    expect(states).toEqual({
      PAYMENT_CREATED: "succeeded",
      PAYMENT_METHOD_SELECTED: "succeeded",
      PAYMENT_PROCESSING: "pending",
      PAYMENT_COMPLETED: "succeeded",
    });
  });
});
