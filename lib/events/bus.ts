import type { Tx } from "@/db/client";
import type { EventType } from "@/domain/events";
import type { PaymentStatus } from "@/domain/statuses";

/**
 * What the service announces as it writes, inside the writing transaction: a payment event
 * (creation, coin selection, a status change) and a webhook delivery put in the outbox. The
 * producers (the state machine, the outbox) publish without knowing who listens; the background
 * driver subscribes (lib/background/driver.ts) and registers its after-commit work on `tx`.
 */
export type PaymentNotice = { kind: "payment"; type: EventType; paymentId: string; status: PaymentStatus; expiresAt: Date };
/** `paymentId` is null for a test event, which tells of no payment (lib/webhooks/test-event.ts). */
export type DeliveryNotice = { kind: "delivery"; deliveryId: number; messageId: string; paymentId: string | null };
export type Notice = PaymentNotice | DeliveryNotice;

export type Listener = (tx: Tx, notice: Notice) => void;

/*
 * Module state, not process state: Next.js bundles instrumentation, route handlers and server
 * actions apart, so each bundle has its own bus, and each entry point wires the driver into the
 * bus of its own bundle (`wireBackground`).
 */
const listeners = new Set<Listener>();

/** Adds a listener; returns the function that removes it. */
export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells every listener, synchronously, inside the caller's transaction. */
export function publish(tx: Tx, notice: Notice): void {
  for (const listener of listeners) listener(tx, notice);
}
