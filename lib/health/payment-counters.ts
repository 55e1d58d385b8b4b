import { subscribe } from "@/lib/events/bus";
import { metrics } from "@/lib/metrics/registry.mjs";

/*
 * The payment counters move when a payment event commits: the state machine announces every
 * event on the bus inside its transaction (creation, coin selection, each status change, expiry's
 * batches too), and this listener counts it after the commit, so a rolled-back change counts
 * nothing. Counting in the process rather than from the database at scrape time keeps a scrape
 * cheap at any table size; each instance counts its own writes and Prometheus sums them.
 */

const SUBSCRIBED = Symbol.for("cryptopay.metrics.payment-counters");
const processWide = globalThis as typeof globalThis & { [SUBSCRIBED]?: true };

/** Subscribes the counters once per process (instrumentation, and any bundle that scrapes). */
export function countPaymentEvents(): void {
  if (processWide[SUBSCRIBED]) return;
  processWide[SUBSCRIBED] = true;
  const m = metrics();
  subscribe((_tx, notice, afterCommit) => {
    if (notice.kind !== "payment" || notice.type === "PAYMENT_METHOD_SELECTED") return;
    const coin = notice.coin ?? "none";
    if (notice.type === "PAYMENT_CREATED") afterCommit(() => m.paymentsCreated.inc({ coin }));
    else afterCommit(() => m.paymentStatusChanges.inc({ coin, status: notice.status }));
  });
}
