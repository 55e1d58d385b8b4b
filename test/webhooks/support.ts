import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { asc, eq, inArray } from "drizzle-orm";
import { afterAll } from "vitest";
import { Webhook } from "svix";
import { getDb } from "@/db/client";
import { webhookAttempts, webhookDeliveries } from "@/db/schema";
import { deliverDue, type Clock } from "@/lib/webhooks/deliver";
import { json, request } from "../helpers";
import { DELIVERY_TESTS_LOCK, oneFileAtATime } from "../serial";

/** What a receiver got: the raw body exactly as it arrived, and every header (lower-case names). */
export type Hit = { method: string; path: string; headers: Record<string, string>; body: string; at: number };

/** How the receiver answers one request. */
export type Answer = "ok" | "fail" | "redirect" | "hang";

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** The 500 answer's body: longer than the 2 KB the service keeps of a response. */
export const FAIL_BODY = `boom ${"x".repeat(3000)}`;

/**
 * A real webhook endpoint on 127.0.0.1 (random port) that records every request and answers as
 * told: 200, 500, a 302 to `redirectTo`, or never (hangs until closed). `answer` may be a
 * function of the hit, so a test can fail the first attempts and accept a later one.
 */
export async function startReceiver(opts: { answer?: Answer | ((hit: Hit, n: number) => Answer); redirectTo?: string } = {}) {
  const hits: Hit[] = [];
  let answer = opts.answer ?? "ok";
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
      const hit: Hit = { method: req.method ?? "", path: req.url ?? "", headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      hits.push(hit);
      const a = typeof answer === "function" ? answer(hit, hits.length) : answer;
      if (a === "ok") res.writeHead(200, { "content-type": "text/plain" }).end("thanks");
      else if (a === "fail") res.writeHead(500, { "content-type": "text/plain" }).end(FAIL_BODY);
      else if (a === "redirect") res.writeHead(302, { location: opts.redirectTo ?? "/elsewhere" }).end();
      // "hang": no answer at all; the socket stays open until the sender gives up or we close.
    });
  });
  server.on("connection", (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    hits,
    /** TCP connections accepted, whether or not a request followed. */
    connections: () => connections,
    hitsFor: (messageId: string) => hits.filter((h) => h.headers["hook-id"] === messageId),
    setAnswer(a: Answer | ((hit: Hit, n: number) => Answer)) {
      answer = a;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Closes every receiver a test file started, after the file. */
export function receivers() {
  const open: Receiver[] = [];
  afterAll(async () => {
    await Promise.all(open.map((r) => r.close()));
  });
  return async (opts?: Parameters<typeof startReceiver>[0]) => {
    const r = await startReceiver(opts);
    open.push(r);
    return r;
  };
}

/** A clock the test moves by hand: delivery code reads it, nothing sleeps. */
export function manualClock(start = Date.now()) {
  let now = start;
  const clock: Clock = () => new Date(now);
  return {
    clock,
    now: () => now,
    set: (ms: number) => void (now = ms),
    advance: (ms: number) => void (now += ms),
  };
}

/**
 * Runs "deliver what is due" until nothing is left to claim at the clock's time. Attempts that
 * fail are rescheduled after the clock, so the loop ends.
 */
export async function drain(clock?: Clock): Promise<number> {
  const db = await getDb();
  let total = 0;
  for (;;) {
    const n = await deliverDue(db, clock);
    total += n;
    if (n === 0) return total;
  }
}

export async function deliveriesOf(paymentId: string) {
  const db = await getDb();
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.paymentId, paymentId)).orderBy(asc(webhookDeliveries.id));
}

export async function deliveryById(id: number) {
  const db = await getDb();
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
}

export async function attemptsOf(...deliveryIds: number[]) {
  const db = await getDb();
  return db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveryIds)).orderBy(asc(webhookAttempts.id));
}

/** The payment as the REST API returns it now. */
export async function restPayment(b: { businessId: number; apiKey: string }, id: string) {
  const res = await request("GET", `/v1/businesses/${b.businessId}/payments/${id}`, { key: b.apiKey });
  if (res.status !== 200) throw new Error(`fetch failed: ${res.status}`);
  return (await json(res)).data;
}

/** The test-mode chain through the /v1 simulate route. */
export async function sim(b: { businessId: number; apiKey: string }, id: string, body: Record<string, unknown>) {
  const res = await request("POST", `/v1/businesses/${b.businessId}/payments/${id}/simulate`, { key: b.apiKey, body });
  const out = await json(res);
  if (res.status !== 200) throw new Error(`simulate ${JSON.stringify(body)} failed: ${res.status} ${JSON.stringify(out)}`);
  return out.data;
}

/** An unmodified svix verifier over what the receiver got; throws when the signature does not match. */
export function verifyHit(secret: string, hit: Hit, body = hit.body) {
  return new Webhook(secret).verify(body, {
    "webhook-id": hit.headers["webhook-id"],
    "webhook-timestamp": hit.headers["webhook-timestamp"],
    "webhook-signature": hit.headers["webhook-signature"],
  }) as { EventType: string; ForPaymentEvents: Record<string, any> };
}

/**
 * With DATABASE_URL every test file shares one PostgreSQL database, and "deliver what is due"
 * claims every due row in it — so one file moving its clock hours ahead would attempt another
 * file's deliveries. The webhook test files therefore take turns on a session advisory lock
 * (each file is one worker process). With PGlite each file has its own database: no lock.
 */
export function oneWebhookFileAtATime() {
  oneFileAtATime(DELIVERY_TESTS_LOCK);
}
