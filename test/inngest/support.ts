import http from "node:http";
import type { AddressInfo } from "node:net";
import { DELIVERY_TESTS_LOCK, oneFileAtATime } from "../serial";

/** What the receiver got: every header (lower-case names) and the raw body. */
export type Hit = { headers: http.IncomingHttpHeaders; body: string };

/** A real webhook endpoint on 127.0.0.1 (random port) answering 200 ("ok") or 500 ("fail"). */
export async function startReceiver(initial: "ok" | "fail" = "ok") {
  const hits: Hit[] = [];
  let answer = initial;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(answer === "ok" ? 200 : 500, { "content-type": "text/plain" }).end(answer === "ok" ? "thanks" : "boom");
    });
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    hits,
    setAnswer: (a: "ok" | "fail") => void (answer = a),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** The Inngest files that deliver take turns with the webhook test files (test/serial.ts). */
export function oneDeliveringFileAtATime() {
  oneFileAtATime(DELIVERY_TESTS_LOCK);
}
