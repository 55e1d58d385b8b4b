import type { Tx } from "@/db/client";
import { afterCommit, type AfterCommit } from "@/db/transaction";
import type { EventType } from "@/domain/events";
import type { PaymentStatus } from "@/domain/statuses";

/**
 * What the service announces as it writes, inside the writing transaction: a payment event
 * (creation, coin selection, a status change) and a webhook delivery put in the outbox. The
 * producers (the state machine, the outbox) publish without knowing who listens; the background
 * driver subscribes (lib/background/driver.ts) and registers its after-commit work on `tx`.
 */
/** `coin` is the coin the customer chose, null until then. */
export type PaymentNotice = { kind: "payment"; type: EventType; paymentId: string; status: PaymentStatus; coin: string | null; expiresAt: Date };
/** `paymentId` is null for a test event, which tells of no payment (lib/webhooks/test-event.ts). */
export type DeliveryNotice = { kind: "delivery"; deliveryId: number; messageId: string; paymentId: string | null };
export type Notice = PaymentNotice | DeliveryNotice;

/**
 * Hears a notice inside the publishing transaction. Work that must wait for the commit goes to
 * `afterCommit`, never to db/transaction's `afterCommit` of the listener's own module instance:
 * a listener subscribed from another Next.js bundle has its own instance of db/transaction.ts,
 * which knows nothing of the transactions the publisher's instance began, and would refuse `tx`.
 */
export type Listener = (tx: Tx, notice: Notice, afterCommit: (fn: AfterCommit) => void) => void;

/*
 * One registry per process, kept on globalThis under a registered symbol. Next.js bundles
 * instrumentation, route handlers and server actions apart, and each bundle evaluates its own
 * instance of this module; globalThis is the process's, so every instance finds the same set:
 * the driver subscribed once, from instrumentation, hears what any bundle publishes.
 */
const LISTENERS: unique symbol = Symbol.for("cryptopay.events.listeners");
const processWide = globalThis as typeof globalThis & { [LISTENERS]?: Set<Listener> };
const listeners = (processWide[LISTENERS] ??= new Set<Listener>());

/** Adds a listener to the process's registry; returns the function that removes it. */
export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Tells every listener of the process, synchronously, inside the caller's transaction. Their
 * after-commit work is registered through the db/transaction.ts of the publisher's own bundle,
 * the instance that began the transaction and runs that work once it commits.
 */
export function publish(tx: Tx, notice: Notice): void {
  const later = (fn: AfterCommit) => afterCommit(tx, fn);
  for (const listener of listeners) listener(tx, notice, later);
}
