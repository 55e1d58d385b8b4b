import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "svix";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { cancelPayment } from "@/lib/checkout/cancel";
import { createReceiver, type Receiver, type WebhookPayment } from "../../examples/webhook-receiver.mjs";
import { adminToken, createPayment, json, newBusiness, request } from "../helpers";
import { deliveriesOf, drain, oneWebhookFileAtATime, sim } from "./support";

/**
 * examples/webhook-receiver.mjs, the merchant's starting point, fed real deliveries by the
 * service: it verifies, fulfils once on PAYMENT_COMPLETED, rejects a tampered body, ignores a
 * duplicate, and answers before its (slow) work is done.
 */
oneWebhookFileAtATime();

type Tap = { headers: http.IncomingHttpHeaders; body: string; status: number };

let server: http.Server;
let url: string;
let rx: Receiver;
let b: Awaited<ReturnType<typeof newBusiness>>;
const taps: Tap[] = [];
const fulfilled: WebhookPayment[] = [];
const released: WebhookPayment[] = [];
let gate: Promise<void> = Promise.resolve();

beforeAll(async () => {
  // The example's handler behind a tap that records what arrived and what it answered.
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    res.on("finish", () => taps.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), status: res.statusCode }));
    void rx.handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/cryptopay`;
  b = await newBusiness({ webhookUrl: url });
  rx = createReceiver({
    secret: b.webhookSecret,
    fulfil: async (p) => {
      await gate;
      fulfilled.push(p);
    },
    release: (p) => void released.push(p),
    log: { info: () => {}, error: () => {} },
  });
});

afterAll(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function post(body: string, headers: Record<string, string>) {
  const res = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  return { status: res.status, body: await res.json() };
}

function signed(tap: Tap): Record<string, string> {
  return Object.fromEntries(
    ["webhook-id", "webhook-timestamp", "webhook-signature"].map((h) => [h, String(tap.headers[h])]),
  );
}

describe("examples/webhook-receiver.mjs", () => {
  it("accepts the real deliveries of a paid payment and fulfils it once, after answering", async () => {
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const { id } = await createPayment(b, { currency: "USD", amount: 30, metadata: { orderId: "A-42" } });
    await sim(b, id, { action: "select", coin: "BITCOIN" });
    await sim(b, id, { action: "pay" });
    await sim(b, id, { action: "confirm" });
    await drain();

    // Every delivery was answered 2xx while fulfilment was still blocked: the answer came first.
    const deliveries = await deliveriesOf(id);
    expect(deliveries.map((d) => [d.eventType, d.status])).toEqual([
      ["PAYMENT_CREATED", "succeeded"],
      ["PAYMENT_METHOD_SELECTED", "succeeded"],
      ["PAYMENT_PENDING", "succeeded"],
      ["PAYMENT_PROCESSING", "succeeded"],
      ["PAYMENT_COMPLETED", "succeeded"],
    ]);
    expect(fulfilled).toHaveLength(0);
    open();
    await rx.idle();
    expect(fulfilled.map((p) => [p.Id, p.Status, p.Metadata.orderId])).toEqual([[id, "COMPLETED", "A-42"]]);
    expect(rx.orders.get(id)).toBe("fulfilled");
    expect(rx.stats).toMatchObject({ accepted: 5, duplicates: 0, rejected: 0, fulfilled: 1 });
  });

  it("ignores a duplicate: a redelivery of the same message is answered 200 and changes nothing", async () => {
    const [completed] = (await deliveriesOf(fulfilled[0].Id)).filter((d) => d.eventType === "PAYMENT_COMPLETED");
    const res = await request("POST", `/admin/v1/businesses/${b.businessId}/webhook-deliveries/${completed.id}/redeliver`, {
      key: adminToken(),
    });
    expect((await json(res)).data).toMatchObject({ status: "succeeded", attemptCount: 2, lastStatusCode: 200 });
    await rx.idle();
    expect(taps.at(-1)!.headers["webhook-id"]).toBe(completed.messageId);
    expect(rx.stats).toMatchObject({ accepted: 5, duplicates: 1, fulfilled: 1 });
    expect(fulfilled).toHaveLength(1);

    // A different message reporting the same change (Id + Status) is accepted but not acted on twice.
    const msgId = "msg_operator_replay";
    const now = new Date();
    const headers = {
      "webhook-id": msgId,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": new Webhook(b.webhookSecret).sign(msgId, now, completed.body),
    };
    expect(await post(completed.body, headers)).toEqual({ status: 200, body: { received: true } });
    await rx.idle();
    expect(rx.stats).toMatchObject({ accepted: 6, fulfilled: 1 });
    expect(fulfilled).toHaveLength(1);
  });

  it("rejects a tampered body, a missing signature and another business's secret with 400", async () => {
    const tap = taps.find((t) => JSON.parse(t.body).EventType === "PAYMENT_COMPLETED")!;
    const fresh = await (async () => {
      // A fresh delivery, so its timestamp is well inside svix's 5-minute window.
      const { id } = await createPayment(b, { currency: "USD", amount: 12 });
      await drain();
      return taps.find((t) => JSON.parse(t.body).ForPaymentEvents.Id === id)!;
    })();
    expect(fresh.status).toBe(200);
    const tampered = fresh.body.replace('"PrePaymentAmount":12', '"PrePaymentAmount":13');
    expect(tampered).not.toBe(fresh.body);
    const before = { ...rx.stats };

    expect(await post(tampered, signed(fresh))).toEqual({ status: 400, body: { error: "invalid signature" } });
    expect(await post(fresh.body, {})).toMatchObject({ status: 400 });
    const other = await newBusiness();
    const now = new Date();
    const forged = {
      "webhook-id": "msg_forged",
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": new Webhook(other.webhookSecret).sign("msg_forged", now, tap.body),
    };
    expect(await post(tap.body, forged)).toMatchObject({ status: 400 });
    // The spec's hook-* names alone are accepted too (the same values as webhook-*).
    const hookOnly = Object.fromEntries(Object.entries(signed(fresh)).map(([k, v]) => [k.replace("webhook-", "hook-"), v]));
    expect(await post(fresh.body, hookOnly)).toEqual({ status: 200, body: { received: true, duplicate: true } });

    expect(rx.stats).toMatchObject({ ...before, rejected: before.rejected + 3, duplicates: before.duplicates + 1 });
    expect(fulfilled).toHaveLength(1);
  });

  it("releases an order on PAYMENT_CANCELLED, once, and never fulfils it", async () => {
    const db = await getDb();
    const { id } = await createPayment(b, { currency: "USD", amount: 5, metadata: { orderId: "B-7" } });
    await cancelPayment(db, id);
    await drain();
    await rx.idle();
    expect(released.map((p) => [p.Id, p.Status])).toEqual([[id, "CANCELLED"]]);
    expect(rx.orders.get(id)).toBe("released");
    expect(fulfilled.map((p) => p.Id)).not.toContain(id);
  });

  it("answers 405 to anything but POST", async () => {
    const res = await fetch(url);
    expect(res.status).toBe(405);
  });
});
