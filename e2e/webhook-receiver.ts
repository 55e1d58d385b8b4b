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
