import type { Db } from "@/db/client";
import { startTimestampingReceiver } from "./receiver";
import { query } from "./db";
import { createBenchBusiness, seedPayments, type Business } from "./seed";
import { inTransaction } from "@/db/transaction";

export type BackgroundFigures = {
  /** Where the service functions ran. */
  driver: string;
  expiry: { payments: number; withWebhookMs: number; withoutWebhookMs: number };
  deliveries: { count: number; seconds: number; perSecond: number };
  lag: { count: number; ratePerSecond: number; p50Ms: number; p99Ms: number; maxMs: number };
};

/** The receiver's arrivals as this bench reads them: the event and the time of its status change (its timeline's last entry). */
async function startReceiver() {
  const r = await startTimestampingReceiver();
  return {
    ...r,
    get arrivals() {
      return r.arrivals.map(({ at, body }) => {
        const timeline = body.ForPaymentEvents.Timeline;
        return { at, eventType: body.EventType, eventTime: Date.parse(timeline[timeline.length - 1].Time) };
      });
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function timeExpiry(db: Db, b: Business, n: number, customerBase: number): Promise<number> {
  const { expireDuePayments } = await import("@/lib/payments/expiry");
  await seedPayments(db, { businessId: b.businessId, from: 1, to: n, anchor: new Date(), customerBase, expiring: true });
  await query(db, "analyze payments");
  const t0 = performance.now();
  const expired = await expireDuePayments(db);
  const ms = performance.now() - t0;
  // (a seeded payment of the newest hour may fall due meanwhile and expire along)
  if (expired < n) throw new Error(`expected ${n} payments to expire, ${expired} did`);
  return ms;
}

/**
 * Background work, measured by calling the service functions from this process against the
 * run's database while the HTTP server is stopped (PGlite admits one process):
 * expireDuePayments on 10 000 payments due together (for a business without and with a webhook
 * URL: with one, each expiry also writes its outbox row), deliverDue draining that backlog to a
 * local receiver, and the lag from a status change (a cancellation through the state machine)
 * to its arrival with the embedded runner (the server's own background loop) running here.
 */
export async function measureBackground(db: Db, plain: Business, opts: { expiring: number; lagEvents: number; lagRate: number }) {
  const receiver = await startReceiver();
  try {
    const hooked = await createBenchBusiness(db, "Bench webhook shop", receiver.url);
    console.log(`expiry: ${opts.expiring} payments due together, business without webhook URL…`);
    const withoutWebhookMs = await timeExpiry(db, plain, opts.expiring, 50_000_000);
    console.log(`expiry: ${opts.expiring} payments due together, business with webhook URL…`);
    const withWebhookMs = await timeExpiry(db, hooked, opts.expiring, 60_000_000);

    // Payments to cancel later (their PAYMENT_CREATED deliveries join the backlog).
    const { createPayment } = await import("@/lib/payments/create");
    const { findBusiness } = await import("@/db/queries/businesses");
    const business = (await findBusiness(db, hooked.businessId))!;
    const toCancel: string[] = [];
    for (let i = 0; i < opts.lagEvents; i++) {
      const { id } = await createPayment(db, business, { currency: "USD", amount: 20, name: `Lag ${i}` } as never);
      toCancel.push(id);
    }

    const { deliverDue } = await import("@/lib/webhooks/deliver");
    const [{ n }] = await query<{ n: number }>(db, "select count(*)::int as n from webhook_deliveries where status = 'pending'");
    console.log(`webhooks: draining ${n} pending deliveries with deliverDue…`);
    const t0 = performance.now();
    while ((await deliverDue(db)) > 0);
    const seconds = (performance.now() - t0) / 1000;
    if (receiver.arrivals.length !== n) throw new Error(`receiver got ${receiver.arrivals.length} of ${n} deliveries`);

    console.log(`webhooks: lag of ${opts.lagEvents} cancellations at ${opts.lagRate}/s with the embedded runner…`);
    const { startEmbeddedRunner } = await import("@/lib/background/runner");
    const { transition } = await import("@/lib/payments/state-machine");
    const { getDb } = await import("@/db/client");
    const stop = startEmbeddedRunner(getDb);
    const startAt = performance.now();
    for (let i = 0; i < toCancel.length; i++) {
      const due = startAt + (i * 1000) / opts.lagRate;
      if (due > performance.now()) await sleep(due - performance.now());
      await inTransaction(db, (tx) => transition(tx, { id: toCancel[i], status: "AWAITING_PAYMENT" }, "CANCELLED"));
    }
    const deadline = Date.now() + 30_000;
    const cancelled = () => receiver.arrivals.filter((a) => a.eventType === "PAYMENT_CANCELLED");
    while (cancelled().length < toCancel.length && Date.now() < deadline) await sleep(50);
    stop();
    await sleep(300); // let a tick in flight finish
    const lags = cancelled().map((a) => a.at - a.eventTime).sort((a, b) => a - b);
    if (lags.length < toCancel.length) throw new Error(`only ${lags.length} of ${toCancel.length} cancellations arrived`);

    return {
      driver: "service functions called from the bench process (server stopped); lag with the embedded runner (250 ms tick) in the bench process",
      expiry: { payments: opts.expiring, withWebhookMs, withoutWebhookMs },
      deliveries: { count: n, seconds, perSecond: n / seconds },
      lag: { count: lags.length, ratePerSecond: opts.lagRate, p50Ms: pct(lags, 50), p99Ms: pct(lags, 99), maxMs: lags[lags.length - 1] },
    } satisfies BackgroundFigures;
  } finally {
    await receiver.close();
  }
}
