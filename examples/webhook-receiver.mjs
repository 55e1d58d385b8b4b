#!/usr/bin/env node
/**
 * A minimal webhook receiver for the payment service: plain Node `http` and `svix`, no framework.
 *
 *   WEBHOOK_SECRET=whsec_... PORT=4000 node examples/webhook-receiver.mjs
 *
 * What it shows (see docs/webhooks.md):
 *   1. Verify the signature over the exact raw body with svix; a bad signature → 400, nothing done.
 *   2. Deduplicate deliveries on the message id (`webhook-id` / `hook-id`): a retry or a manual
 *      redelivery of a message already handled is answered 200 and otherwise ignored.
 *   3. Answer 2xx at once and do the work afterwards (the service waits at most 15 s).
 *   4. Business logic keyed on payment Id + Status: fulfil the order on PAYMENT_COMPLETED only,
 *      and only once; release it on PAYMENT_EXPIRED / PAYMENT_CANCELLED.
 *
 * State lives in memory to keep the example short. A real shop keeps the handled message ids
 * and order states in its database (a unique index on the message id makes the dedupe atomic)
 * and does the work from a durable job queue.
 */
import http from "node:http";
import { fileURLToPath } from "node:url";
import { Webhook } from "svix";

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The three signature headers, read from the `webhook-*` names the service sends (the same
 * values also arrive as the spec's `hook-*`, used when `webhook-*` is absent).
 */
function signatureHeaders(headers) {
  const pick = (part) => headers[`webhook-${part}`] ?? headers[`hook-${part}`];
  return { "webhook-id": pick("id"), "webhook-timestamp": pick("timestamp"), "webhook-signature": pick("signature") };
}

function readRawBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(Object.assign(new Error("body too large"), { status: 413 }));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function reply(res, status, body) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/**
 * A receiver: `handler(req, res)` for `http.createServer`, plus what it did (for logs and tests).
 *
 * @param {object} options
 * @param {string} options.secret   the business's webhook signing secret (`whsec_...`)
 * @param {(payment: object) => unknown} [options.fulfil]   ship the order (called once per payment)
 * @param {(payment: object) => unknown} [options.release]  release reserved stock (once per payment)
 * @param {{ info: Function, error: Function }} [options.log]
 */
export function createReceiver({ secret, fulfil = defaultFulfil, release = defaultRelease, log = console }) {
  if (!secret) throw new Error("createReceiver: a webhook secret (whsec_...) is required");
  const webhook = new Webhook(secret);
  /** Message ids already accepted: a delivery is handled once, however often it arrives. */
  const seenMessages = new Set();
  /** Payment Id → "fulfilled" | "released": the order's state, changed at most once each way. */
  const orders = new Map();
  /** Payment Id + Status pairs already processed (a second message for the same change is a no-op). */
  const seenChanges = new Set();
  const stats = { accepted: 0, duplicates: 0, rejected: 0, fulfilled: 0, released: 0 };
  let work = Promise.resolve();

  async function handleEvent(event) {
    const payment = event.ForPaymentEvents;
    if (!payment) return;
    const change = `${payment.Id}:${payment.Status}`;
    if (seenChanges.has(change)) return;
    seenChanges.add(change);
    switch (event.EventType) {
      case "PAYMENT_COMPLETED":
        // The only event on which an order ships. PENDING / PROCESSING are not final.
        if (orders.get(payment.Id) === "fulfilled") return;
        orders.set(payment.Id, "fulfilled");
        stats.fulfilled++;
        await fulfil(payment);
        return;
      case "PAYMENT_EXPIRED":
      case "PAYMENT_CANCELLED":
        if (orders.has(payment.Id)) return;
        orders.set(payment.Id, "released");
        stats.released++;
        await release(payment);
        return;
      default:
        // PAYMENT_CREATED, _METHOD_SELECTED, _PENDING, _PROCESSING, _UNDERPAID, _FAILED:
        // show progress to the customer if you like; nothing to ship or release.
        log.info(`payment ${payment.Id}: ${event.EventType}`);
    }
  }

  async function handler(req, res) {
    if (req.method !== "POST") return reply(res, 405, { error: "POST only" });
    let raw;
    try {
      raw = await readRawBody(req);
    } catch (e) {
      return reply(res, e.status ?? 400, { error: e.message });
    }
    const headers = signatureHeaders(req.headers);
    let event;
    try {
      // The exact bytes received: never JSON.parse + JSON.stringify before verifying.
      event = webhook.verify(raw, headers);
    } catch (e) {
      stats.rejected++;
      log.error(`rejected a delivery: ${e.message}`);
      return reply(res, 400, { error: "invalid signature" });
    }
    const messageId = headers["webhook-id"];
    if (seenMessages.has(messageId)) {
      stats.duplicates++;
      return reply(res, 200, { received: true, duplicate: true });
    }
    seenMessages.add(messageId);
    stats.accepted++;
    // Answer first, work afterwards: slow work must not turn into a timeout and a retry.
    reply(res, 200, { received: true });
    work = work
      .then(() => handleEvent(event))
      .catch((e) => log.error(`processing ${messageId} failed: ${e.message}`));
  }

  return {
    handler,
    stats,
    orders,
    /** Resolves when everything accepted so far has been processed. */
    idle: () => work,
  };
}

function defaultFulfil(payment) {
  const order = payment.Metadata?.orderId ?? payment.Id;
  console.info(`fulfilling order ${order}: ${payment.EndAmount} ${payment.Currency} received`);
}

function defaultRelease(payment) {
  const order = payment.Metadata?.orderId ?? payment.Id;
  console.info(`releasing order ${order}: payment ${payment.Status}`);
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) {
    console.error("Set WEBHOOK_SECRET to the business's webhook signing secret (whsec_...).");
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 4000);
  const host = process.env.HOST ?? "0.0.0.0";
  const receiver = createReceiver({ secret });
  http.createServer(receiver.handler).listen(port, host, () => {
    console.info(`webhook receiver listening on http://${host}:${port}/`);
  });
}
