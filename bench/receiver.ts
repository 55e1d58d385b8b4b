import http from "node:http";
import type { AddressInfo } from "node:net";

/** A webhook as the bench's receiver got it: when (ms since the epoch) and its parsed body. */
export type Received = { at: number; body: { EventType: string; ForPaymentEvents: { Id: string; Timeline: { Time: string; PaymentStatus: string }[] } } };

/**
 * A webhook receiver for the benches: answers 200 at once and keeps each arrival's time and body
 * (timestamped before parsing, so the figures hold the delivery, not the bench's own work).
 */
export async function startTimestampingReceiver() {
  const arrivals: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = Date.now();
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      arrivals.push({ at, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, arrivals, close: () => new Promise((r) => server.close(r)) };
}
