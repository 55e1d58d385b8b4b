import http from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll } from "vitest";

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

/**
 * With DATABASE_URL every test file shares one PostgreSQL database, and "deliver what is due"
 * claims every due row in it, so a file delivering (the sweep, the embedded runner) could attempt
 * another file's deliveries. Files that deliver take turns on the same session advisory lock as
 * the webhook test files (test/webhooks/support.ts). With PGlite each file has its own database.
 */
export const DELIVERY_TESTS_LOCK = 741852963;

export function oneDeliveringFileAtATime() {
  const url = process.env.DATABASE_URL;
  if (!url) return;
  let sql: postgres.Sql | undefined;
  beforeAll(async () => {
    sql = postgres(url, { max: 1, onnotice: () => {} });
    await sql`select pg_advisory_lock(${DELIVERY_TESTS_LOCK})`;
  }, 300_000);
  afterAll(async () => {
    if (!sql) return;
    await sql`select pg_advisory_unlock(${DELIVERY_TESTS_LOCK})`;
    await sql.end();
  });
}
