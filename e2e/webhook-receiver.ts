import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "@playwright/test";
import { Webhook } from "svix";

/**
 * A merchant's webhook endpoint on 127.0.0.1 inside the test: it
 * answers 200 and keeps every request's raw body and headers for svix verification.
 */

export type Received = { headers: Record<string, string>; body: string; event: { EventType: string; ForPaymentEvents: any } };

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ headers, body, event: JSON.parse(body) });
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    forPayment: (id: string) => received.filter((r) => r.event.ForPaymentEvents?.Id === id),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** svix over the raw body with the webhook-* headers, and with the spec's hook-* renamed to svix-*. */
export function expectVerified(secret: string, r: Received) {
  const wh = new Webhook(secret);
  expect(wh.verify(r.body, r.headers)).toEqual(r.event);
  const svixNames = {
    "svix-id": r.headers["hook-id"],
    "svix-timestamp": r.headers["hook-timestamp"],
    "svix-signature": r.headers["hook-signature"],
  };
  expect(wh.verify(r.body, svixNames)).toEqual(r.event);
  expect(r.headers["hook-id"]).toBe(r.headers["webhook-id"]);
  expect(r.headers["hook-id"]).toMatch(/^msg_/);
}

/**
 * A payment paid on a chain, as its merchant's endpoint sees it: the five events in order
 * (created, coin selected, pending, processing, completed), each verified with svix, for the
 * business, carrying the payment's metadata, each with its own hook id. Returns them.
 */
export async function expectPaidOnChainWebhooks(
  receiver: Receiver,
  business: { webhookSecret: string; businessId: number },
  paymentId: string,
  metadata: Record<string, string>,
): Promise<Received[]> {
  const sequence = ["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED", "PAYMENT_PENDING", "PAYMENT_PROCESSING", "PAYMENT_COMPLETED"];
  await expect
    .poll(() => receiver.forPayment(paymentId).map((r) => r.event.EventType), { timeout: 10_000, intervals: [250] })
    .toEqual(sequence);
  const got = receiver.forPayment(paymentId);
  for (const r of got) {
    expectVerified(business.webhookSecret, r);
    expect(r.event.ForPaymentEvents.BusinessId).toBe(business.businessId);
    expect(r.event.ForPaymentEvents.Metadata).toEqual(metadata);
  }
  expect(new Set(got.map((r) => r.headers["hook-id"])).size).toBe(5);
  expect(got.map((r) => r.event.ForPaymentEvents.Status)).toEqual(["AWAITING_PAYMENT", "AWAITING_PAYMENT", "PENDING", "PROCESSING", "COMPLETED"]);
  return got;
}
