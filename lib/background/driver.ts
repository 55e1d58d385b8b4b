import type { Db } from "@/db/client";
import { afterCommit } from "@/db/transaction";
import { config, type Config } from "@/lib/config";
import { subscribe, type Listener, type Notice } from "@/lib/events/bus";
import type { PaymentStatus } from "@/domain/statuses";
import { TRANSITIONS } from "@/domain/transitions";

/*
 * The background driver (design §2), decided from configuration:
 * - embedded (default): the in-process runner polls the idempotent service functions;
 * - inngest (INNGEST_EVENT_KEY or INNGEST_DEV set): events start Inngest functions
 *   (`inngest/functions`), and Inngest's cron sweep is the safety net.
 * The driver hears what the service writes through the event bus (lib/events/bus.ts); nothing
 * here sends to Inngest unless the driver is Inngest (without a key or dev mode `inngest.send()`
 * throws).
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

export type OutgoingEvent =
  | { name: "webhook/delivery.created"; id: string; data: { deliveryId: number } }
  | { name: "payment/created"; id: string; data: { paymentId: string; expiresAt: string } }
  | { name: "payment/settled"; id: string; data: { paymentId: string } };

/**
 * The Inngest events a notice stands for: a delivery starts its delivery run; a creation starts
 * the payment's expiry run; a status that never leads back to an expirable one cancels it. Event
 * ids make a repeat a no-op in Inngest.
 */
export function eventsFor(notice: Notice): OutgoingEvent[] {
  if (notice.kind === "delivery") {
    const { deliveryId, messageId } = notice;
    return [{ name: "webhook/delivery.created", id: `delivery-${deliveryId}-${messageId}`, data: { deliveryId } }];
  }
  const { paymentId } = notice;
  if (notice.type === "PAYMENT_CREATED") {
    return [{ name: "payment/created", id: `payment-created-${paymentId}`, data: { paymentId, expiresAt: notice.expiresAt.toISOString() } }];
  }
  return isSettled(notice.status) ? [{ name: "payment/settled", id: `payment-settled-${paymentId}`, data: { paymentId } }] : [];
}

export type EventSender = {
  /** The bus listener: collects a transaction's events and sends them in one batch once it has committed. */
  listener: Listener;
  /** Resolves once every event collected so far was sent or given up (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops retrying; what is still unsent is left to the cron sweep. */
  close(): void;
};

/** After a failed send, try again after… (then the cron sweep covers it). */
const RETRY_DELAYS_MS = [100, 1_000, 5_000, 15_000];

/**
 * Sends the events of committed changes only: each transaction's events are registered on it
 * (`afterCommit`) and go out in one `send` once it has committed; a rolled-back transaction
 * sends nothing. A failed send is retried with backoff, then left to the sweep.
 */
export function createEventSender(opts: {
  send: (events: OutgoingEvent[]) => Promise<unknown>;
  retryDelaysMs?: number[];
  log?: Pick<Console, "warn">;
}): EventSender {
  const delays = opts.retryDelaysMs ?? RETRY_DELAYS_MS;
  const log = opts.log ?? console;
  const pending = new WeakMap<object, OutgoingEvent[]>();
  const inFlight = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  async function deliver(events: OutgoingEvent[]) {
    for (let attempt = 0; ; attempt++) {
      try {
        await opts.send(events);
        return;
      } catch (e) {
        const delay = delays[attempt];
        const why = e instanceof Error ? e.message : String(e);
        if (delay === undefined || closed) {
          log.warn(`[background] gave up sending ${events.map((x) => x.id).join(", ")} (${why}); the Inngest sweep covers them`);
          return;
        }
        await new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            timers.delete(t);
            resolve();
          }, delay);
          t.unref();
          timers.add(t);
        });
      }
    }
  }

  const listener: Listener = (tx, notice) => {
    const events = eventsFor(notice);
    if (closed || events.length === 0) return;
    const batch = pending.get(tx);
    if (batch) return void batch.push(...events);
    const collected = [...events];
    pending.set(tx, collected);
    afterCommit(tx, () => {
      pending.delete(tx);
      const sending = deliver(collected).finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    });
  };

  return {
    listener,
    async idle() {
      // A change committed just now may register its send on the next microtask.
      await new Promise((resolve) => setImmediate(resolve));
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
    close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

/*
 * Module state: each Next.js bundle (instrumentation, route handlers, server actions) has its own
 * copy of this module and of the event bus, so each entry point wires its own (`wireBackground`).
 */
let wired: { driver: BackgroundDriver; unsubscribe: () => void; sender?: EventSender } | undefined;
let stopRunner: (() => void) | undefined;

/**
 * Subscribes the background driver chosen by configuration to this bundle's event bus, once:
 * with Inngest, the event sender; with the embedded runner, nothing (it finds due work in the
 * database every 250 ms). Every entry point that can change a payment calls it: the API route
 * wrappers, the checkout's server actions, the Inngest route and instrumentation.
 */
export function wireBackground(cfg: Pick<Config, "inngest"> = config()): BackgroundDriver {
  if (wired) return wired.driver;
  const driver = backgroundDriverOf(cfg);
  if (driver === "embedded") {
    wired = { driver, unsubscribe: () => {} };
    return driver;
  }
  const sender = createEventSender({ send: async (events) => (await import("./inngest-client")).inngest.send(events) });
  wired = { driver, sender, unsubscribe: subscribe(sender.listener) };
  return driver;
}

/**
 * Starts background work once per process (from `instrumentation.ts`): wires the driver, and
 * with the embedded driver starts the runner. Returns the driver chosen.
 */
export async function startBackground(getDb: () => Promise<Db>, cfg: Pick<Config, "inngest"> = config()): Promise<BackgroundDriver> {
  const driver = wireBackground(cfg);
  if (driver === "embedded" && !stopRunner) {
    const { startEmbeddedRunner } = await import("./runner");
    stopRunner = startEmbeddedRunner(getDb);
  }
  if (driver === "inngest") console.info("[background] Inngest drives background work; functions are served at /api/inngest");
  return driver;
}

/** Undoes `wireBackground` and `startBackground` (tests); the next call decides again. */
export function stopBackground(): void {
  wired?.unsubscribe();
  wired?.sender?.close();
  wired = undefined;
  stopRunner?.();
  stopRunner = undefined;
}

/** Resolves once every event collected so far was sent or given up (tests, graceful shutdown). */
export function whenBackgroundIdle(): Promise<void> {
  return wired?.sender?.idle() ?? Promise.resolve();
}
