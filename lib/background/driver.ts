import type { Db } from "@/db/client";
import type { PaymentState } from "@/db/queries/payments";
import type { DeliveryState } from "@/db/queries/webhooks";
import { config, type Config } from "@/lib/config";
import type { EventType } from "@/lib/payments/events";
import type { PaymentStatus } from "@/lib/payments/status";
import { TRANSITIONS } from "@/lib/payments/transitions";

/*
 * The background driver (design §2), decided once per process from configuration:
 * - embedded (default): the in-process runner polls the idempotent service functions;
 * - inngest (INNGEST_EVENT_KEY or INNGEST_DEV set): events start Inngest functions
 *   (`inngest/functions`), and Inngest's cron sweep is the safety net.
 * Nothing here sends to Inngest unless the driver is Inngest: without a key or dev mode
 * `inngest.send()` throws. Static imports stay light so services may import the notify functions.
 */

export type BackgroundDriver = "inngest" | "embedded";

export function backgroundDriverOf(cfg: Pick<Config, "inngest">): BackgroundDriver {
  return cfg.inngest.enabled ? "inngest" : "embedded";
}

const EXPIRABLE: readonly PaymentStatus[] = ["AWAITING_PAYMENT", "UNDERPAID"];

/** True when no path in the D3 table leads from `status` back to an expirable status. */
export function isSettled(status: PaymentStatus): boolean {
  const seen = new Set<PaymentStatus>();
  const stack = [status];
  while (stack.length) {
    const s = stack.pop()!;
    if (EXPIRABLE.includes(s)) return false;
    if (seen.has(s)) continue;
    seen.add(s);
    stack.push(...TRANSITIONS[s]);
  }
  return true;
}

export type Notice =
  | { kind: "delivery"; deliveryId: number }
  | { kind: "created"; paymentId: string }
  | { kind: "settled"; paymentId: string };

export type OutgoingEvent =
  | { name: "webhook/delivery.created"; id: string; data: { deliveryId: number } }
  | { name: "payment/created"; id: string; data: { paymentId: string; expiresAt: string } }
  | { name: "payment/settled"; id: string; data: { paymentId: string } };

export type AfterCommitSender = {
  /** Queue a notice; may be called inside the transaction that makes it true. Never throws. */
  notify(notice: Notice): void;
  /** Resolves once every queued notice was sent or given up (tests, shutdown). */
  idle(): Promise<void>;
  /** Stop sending; queued notices are dropped (the cron sweep covers them). */
  close(): void;
};

/** After a notice's row is still invisible (uncommitted) or a send failed, look again after… */
const RETRY_DELAYS_MS = [20, 100, 500, 2_000, 5_000, 15_000];

/**
 * Sends events only for committed state. A notice is queued (the outbox listener fires inside the
 * transaction that writes the delivery row); on the next turn of the event loop the queue is
 * checked against the database through the process's root handle — PGlite serializes it behind
 * the open transaction, PostgreSQL shows only committed rows — and only what is visible is sent,
 * in one batch. The rest is looked at again with backoff: a transaction still running commits,
 * a rolled-back one never becomes visible and is dropped. Event ids make a repeat a no-op in
 * Inngest, and the functions themselves retry a row they cannot see yet.
 */
export function createAfterCommitSender(opts: {
  getDb: () => Promise<Db>;
  send: (events: OutgoingEvent[]) => Promise<unknown>;
  retryDelaysMs?: number[];
  log?: Pick<Console, "warn">;
}): AfterCommitSender {
  const delays = opts.retryDelaysMs ?? RETRY_DELAYS_MS;
  const log = opts.log ?? console;
  type Item = { notice: Notice; tries: number };
  let ready: Item[] = [];
  let scheduled = false;
  let closed = false;
  let outstanding = 0;
  let waiters: (() => void)[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const settle = (n: number) => {
    outstanding -= n;
    if (outstanding === 0) {
      const w = waiters;
      waiters = [];
      for (const resolve of w) resolve();
    }
  };
  const schedule = () => {
    if (scheduled || closed) return;
    scheduled = true;
    setImmediate(() => void flush());
  };
  const retry = (items: Item[], why: string) => {
    for (const item of items) {
      const delay = delays[item.tries++];
      if (delay === undefined || closed) {
        log.warn(`[background] gave up on ${describe(item.notice)} (${why}); the Inngest sweep covers it`);
        settle(1);
        continue;
      }
      const t = setTimeout(() => {
        timers.delete(t);
        ready.push(item);
        schedule();
      }, delay);
      t.unref();
      timers.add(t);
    }
  };

  async function flush() {
    scheduled = false;
    const batch = ready;
    ready = [];
    if (batch.length === 0) return;
    if (closed) return settle(batch.length);
    let deliveries: Map<number, DeliveryState>;
    let payments: Map<string, PaymentState>;
    try {
      const db = await opts.getDb();
      const [{ deliveryStates }, { paymentStates }] = await Promise.all([import("@/db/queries/webhooks"), import("@/db/queries/payments")]);
      deliveries = await deliveryStates(db, batch.flatMap((i) => (i.notice.kind === "delivery" ? [i.notice.deliveryId] : [])));
      payments = await paymentStates(db, batch.flatMap((i) => (i.notice.kind === "delivery" ? [] : [i.notice.paymentId])));
    } catch (e) {
      return retry(batch, `database: ${e instanceof Error ? e.message : String(e)}`);
    }
    const toSend: { item: Item; event: OutgoingEvent }[] = [];
    const invisible: Item[] = [];
    for (const item of batch) {
      const n = item.notice;
      if (n.kind === "delivery") {
        const d = deliveries.get(n.deliveryId);
        if (!d) invisible.push(item);
        else toSend.push({ item, event: { name: "webhook/delivery.created", id: `delivery-${d.id}-${d.messageId}`, data: { deliveryId: d.id } } });
        continue;
      }
      const p = payments.get(n.paymentId);
      if (n.kind === "created") {
        if (!p) invisible.push(item);
        else if (isSettled(p.status)) settle(1); // settled before we got here: nothing will expire
        else {
          const data = { paymentId: p.id, expiresAt: p.expiresAt.toISOString() };
          toSend.push({ item, event: { name: "payment/created", id: `payment-created-${p.id}`, data } });
        }
      } else if (!p || !isSettled(p.status)) invisible.push(item);
      else toSend.push({ item, event: { name: "payment/settled", id: `payment-settled-${p.id}`, data: { paymentId: p.id } } });
    }
    retry(invisible, "its change never became visible: rolled back, or not committed in time");
    if (toSend.length === 0) return;
    try {
      await opts.send(toSend.map((e) => e.event));
      settle(toSend.length);
    } catch (e) {
      retry(
        toSend.map((e) => e.item),
        `send failed: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }

  return {
    notify(notice) {
      if (closed) return;
      outstanding++;
      ready.push({ notice, tries: 0 });
      schedule();
    },
    idle() {
      return outstanding === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
    close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      settle(outstanding);
    },
  };
}

function describe(n: Notice): string {
  return n.kind === "delivery" ? `webhook delivery ${n.deliveryId}` : `payment/${n.kind} for ${n.paymentId}`;
}

type Running = { driver: BackgroundDriver; stop: () => void; sender?: AfterCommitSender };
const g = globalThis as unknown as { __paymentsBackground?: Running };

/**
 * Starts background work once per process (from `instrumentation.ts`): the embedded runner, or
 * the Inngest event sender wired to the webhook outbox. Returns the driver chosen.
 */
export async function startBackground(getDb: () => Promise<Db>, cfg: Pick<Config, "inngest"> = config()): Promise<BackgroundDriver> {
  if (g.__paymentsBackground) return g.__paymentsBackground.driver;
  const driver = backgroundDriverOf(cfg);
  const running: Running = { driver, stop: () => {} };
  g.__paymentsBackground = running;
  if (driver === "embedded") {
    const { startEmbeddedRunner } = await import("./runner");
    running.stop = startEmbeddedRunner(getDb);
    return driver;
  }
  const [{ inngest }, { onDeliveryEnqueued }] = await Promise.all([import("@/inngest/client"), import("@/lib/webhooks/outbox")]);
  const sender = createAfterCommitSender({ getDb, send: (events) => inngest.send(events) });
  running.sender = sender;
  running.stop = () => sender.close();
  onDeliveryEnqueued((d) => sender.notify({ kind: "delivery", deliveryId: d.id }));
  console.info("[background] Inngest drives background work; functions are served at /api/inngest");
  return driver;
}

/** Stops what `startBackground` started (tests); a later `startBackground` decides again. */
export function stopBackground(): void {
  g.__paymentsBackground?.stop();
  g.__paymentsBackground = undefined;
}

/** Resolves once every event queued so far was sent or given up (tests, graceful shutdown). */
export function whenBackgroundIdle(): Promise<void> {
  return g.__paymentsBackground?.sender?.idle() ?? Promise.resolve();
}

/**
 * A payment was created. Call after its transaction commits (or inside it: the event waits for
 * the row). Sends `payment/created` when Inngest drives background work; otherwise does nothing.
 */
export function notifyPaymentCreated(paymentId: string): void {
  g.__paymentsBackground?.sender?.notify({ kind: "created", paymentId });
}

/**
 * A payment's status changed (inside the transaction is fine). When the new status can never
 * lead back to AWAITING_PAYMENT/UNDERPAID, sends `payment/settled` once the change is committed,
 * cancelling the payment's expiry run. Does nothing with the embedded runner.
 */
export function notifyPaymentStatusChanged(paymentId: string, status: PaymentStatus): void {
  if (isSettled(status)) g.__paymentsBackground?.sender?.notify({ kind: "settled", paymentId });
}

/**
 * One hook for every payment event (`recordEvent` in the state machine, inside its transaction):
 * PAYMENT_CREATED → `payment/created`; a status that never leads back to an expirable one →
 * `payment/settled`. Both wait until the change is committed; nothing is sent with the embedded runner.
 */
export function notifyPaymentEvent(paymentId: string, type: EventType, status: PaymentStatus): void {
  if (type === "PAYMENT_CREATED") notifyPaymentCreated(paymentId);
  else notifyPaymentStatusChanged(paymentId, status);
}
