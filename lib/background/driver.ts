import type { Db } from "@/db/client";
import { config, type Config } from "@/lib/config";
import { subscribe, type Listener, type Notice } from "@/lib/events/bus";
import type { PaymentStatus } from "@/domain/statuses";
import { TRANSITIONS } from "@/domain/transitions";
import { log } from "@/log/logger.mjs";

/*
 * The background driver (design §2), decided from configuration:
 * - embedded (default): the in-process runner polls the idempotent service functions;
 * - inngest (INNGEST_EVENT_KEY or INNGEST_DEV set): events start Inngest functions
 *   (`inngest/functions`), and Inngest's cron sweep is the safety net.
 * `instrumentation.ts` starts it once per server process (`startBackground`); no other entry
 * point does. The driver hears what the service writes through the event bus
 * (lib/events/bus.ts), whose listeners are the process's, so a change made in any Next.js bundle
 * (a route handler, a server action, an Inngest function) reaches it. Nothing here sends to
 * Inngest unless the driver is Inngest (without a key or dev mode `inngest.send()` throws).
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
  /** Where a give-up is told (a test's list); the service's log by default. */
  log?: { warn(message: string): void };
}): EventSender {
  const delays = opts.retryDelaysMs ?? RETRY_DELAYS_MS;
  const giveUps = opts.log ?? { warn: (message: string) => log.warn({ component: "background" }, message) };
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
          giveUps.warn(`gave up sending ${events.map((x) => x.id).join(", ")} (${why}); the Inngest sweep covers them`);
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

  const listener: Listener = (tx, notice, afterCommit) => {
    const events = eventsFor(notice);
    if (closed || events.length === 0) return;
    const batch = pending.get(tx);
    if (batch) return void batch.push(...events);
    const collected = [...events];
    pending.set(tx, collected);
    afterCommit(() => {
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

/** What `startBackground` set up in this process: the driver, its bus subscription, the runner. */
type Started = { driver: BackgroundDriver; unsubscribe: () => void; sender?: EventSender; stopRunner?: () => Promise<void> };

/*
 * Kept on globalThis under a registered symbol, like the bus's listeners (lib/events/bus.ts):
 * each Next.js bundle has its own instance of this module, and the process has one globalThis,
 * so background work is started once per process whichever bundle asks and whichever asks
 * `whenBackgroundIdle` sees it.
 */
const STARTED: unique symbol = Symbol.for("cryptopay.background.started");
const processWide = globalThis as typeof globalThis & { [STARTED]?: Started };

/**
 * Starts background work once per process, from `instrumentation.ts` (the one caller outside
 * tests), before the server takes requests: with Inngest, subscribes the event sender to the
 * process's event bus, which then hears every bundle's publishes (route handlers, server
 * actions, Inngest functions); with the embedded runner, starts the runner, which finds due work
 * in the database every 250 ms and needs no events. A second call returns the driver already
 * chosen. Returns the driver.
 */
export async function startBackground(getDb: () => Promise<Db>, cfg: Pick<Config, "inngest"> = config()): Promise<BackgroundDriver> {
  const running = processWide[STARTED];
  if (running) return running.driver;
  const driver = backgroundDriverOf(cfg);
  if (driver === "inngest") {
    const sender = createEventSender({ send: async (events) => (await import("./inngest-client")).inngest.send(events) });
    processWide[STARTED] = { driver, sender, unsubscribe: subscribe(sender.listener) };
    log.info({ component: "background", driver }, "Inngest drives background work; functions are served at /api/inngest");
    return driver;
  }
  const started: Started = { driver, unsubscribe: () => {} };
  processWide[STARTED] = started; // before the await: a concurrent call must not start a second runner
  const { startEmbeddedRunner } = await import("./runner");
  if (processWide[STARTED] === started) started.stopRunner = startEmbeddedRunner(getDb);
  return driver;
}

/**
 * Undoes `startBackground` (tests, the server's stop, lib/background/shutdown.ts): unsubscribes
 * and closes the sender (what it has not sent is left to Inngest's cron sweep) and stops the
 * runner; resolves once the runner's jobs under way have returned, each at its next safe point.
 * The next start decides again.
 */
export async function stopBackground(): Promise<void> {
  const running = processWide[STARTED];
  processWide[STARTED] = undefined;
  running?.unsubscribe();
  running?.sender?.close();
  await running?.stopRunner?.();
}

/** Resolves once every event collected so far was sent or given up (tests, graceful shutdown). */
export function whenBackgroundIdle(): Promise<void> {
  return processWide[STARTED]?.sender?.idle() ?? Promise.resolve();
}
