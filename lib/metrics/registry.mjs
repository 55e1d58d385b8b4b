// The service's Prometheus metrics (docs/monitoring.md lists them). Plain JavaScript: the
// production server (scripts/server.mjs) runs unbundled and records every request here, while
// the route handlers, server actions and instrumentation are bundled apart by Next.js, each with
// its own instance of every module. So the registry and each metric are made once per process
// and kept on globalThis under a registered symbol (as the event bus keeps its listeners,
// lib/events/bus.ts): whichever instance comes first makes them, every other finds them, and a
// scrape from any bundle reads what every bundle counted.

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

const METRICS = Symbol.for("cryptopay.metrics");

/** Seconds, for request latency: 5 ms (a cached payment read) to 10 s (a slow node behind a request). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function make() {
  const registry = new Registry();
  // Node's standard process metrics (CPU, memory, event-loop lag, GC, handles) under their usual names.
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const counter = (name, help, labelNames) => new Counter({ name, help, labelNames, registers });
  const gauge = (name, help, labelNames = []) => new Gauge({ name, help, labelNames, registers });
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: "cryptopay_http_request_duration_seconds",
      help: "Time from a request's arrival to its response's end, by method, route pattern (a bounded set, lib/metrics/routes.mjs) and status code; _count counts requests.",
      labelNames: ["method", "route", "status"],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    paymentsCreated: counter("cryptopay_payments_created_total", "Payments created (committed), by coin (none until the customer chooses one).", ["coin"]),
    paymentStatusChanges: counter("cryptopay_payment_status_changes_total", "Payment status changes (committed), by coin and new status.", ["coin", "status"]),
    webhookAttempts: counter("cryptopay_webhook_delivery_attempts_total", "Webhook delivery attempts, by outcome: succeeded, retrying (due again later) or failed (no retry left, or held).", ["outcome"]),
    emailAttempts: counter("cryptopay_customer_email_attempts_total", "Customer e-mail attempts, by outcome: sent, retrying or failed.", ["outcome"]),
    webhookBacklog: gauge("cryptopay_webhook_deliveries_pending", "Webhook deliveries waiting to be delivered (read at scrape time)."),
    webhookOldestAge: gauge("cryptopay_webhook_oldest_pending_delivery_age_seconds", "Age of the oldest pending webhook delivery; 0 when none is pending (read at scrape time)."),
    emailBacklog: gauge("cryptopay_customer_emails_pending", "Customer e-mails waiting to be sent (read at scrape time)."),
    emailOldestAge: gauge("cryptopay_customer_email_oldest_pending_age_seconds", "Age of the oldest pending customer e-mail; 0 when none is pending (read at scrape time)."),
    chainUp: gauge("cryptopay_chain_healthy", "1 when the chain's watcher is healthy (payments offered on it), else 0; configured chains only.", ["chain"]),
    chainTip: gauge("cryptopay_chain_tip_height", "The chain's tip height as its node last reported it.", ["chain"]),
    chainCursor: gauge("cryptopay_chain_cursor_height", "The last block the watcher has scanned.", ["chain"]),
    chainLag: gauge("cryptopay_chain_lag_blocks", "Blocks between the tip and the watcher's cursor.", ["chain"]),
    chainLastTick: gauge("cryptopay_chain_last_tick_timestamp_seconds", "When the chain's watcher last finished a tick (Unix time).", ["chain"]),
    chainTipChanged: gauge("cryptopay_chain_tip_changed_timestamp_seconds", "When the chain's tip last moved (Unix time).", ["chain"]),
    rateLastSuccess: gauge("cryptopay_rate_provider_last_success_timestamp_seconds", "When each configured exchange-rate provider last answered (Unix time).", ["provider"]),
    rateOldestAge: gauge("cryptopay_rate_age_seconds", "Age of the oldest rate a quote would use now, per provider; absent when the provider holds none.", ["provider"]),
    ratesUnusable: gauge("cryptopay_rates_unusable", "Coins and currencies a quote cannot price now (no fresh rate), by kind.", ["kind"]),
    dbPoolMax: gauge("cryptopay_db_pool_max_connections", "Connections this process may open to the database (DATABASE_POOL_SIZE; 1 for PGlite)."),
    dbConnections: gauge("cryptopay_db_connections", "Connections to this database by state, from pg_stat_activity (every instance's).", ["state"]),
    ready: gauge("cryptopay_ready", "1 when /readyz would answer 200 (database reachable, migrations applied), else 0."),
  };
}

/** The process's metrics, made on first use. */
export function metrics() {
  globalThis[METRICS] ??= make();
  return globalThis[METRICS];
}
