import type { Counter, Gauge, Histogram, Registry } from "prom-client";

export type ServiceMetrics = {
  registry: Registry;
  httpRequestDuration: Histogram<"method" | "route" | "status">;
  paymentsCreated: Counter<"coin">;
  paymentStatusChanges: Counter<"coin" | "status">;
  webhookAttempts: Counter<"outcome">;
  emailAttempts: Counter<"outcome">;
  webhookBacklog: Gauge;
  webhookOldestAge: Gauge;
  emailBacklog: Gauge;
  emailOldestAge: Gauge;
  chainUp: Gauge<"chain">;
  chainTip: Gauge<"chain">;
  chainCursor: Gauge<"chain">;
  chainLag: Gauge<"chain">;
  chainLastTick: Gauge<"chain">;
  chainTipChanged: Gauge<"chain">;
  rateLastSuccess: Gauge<"provider">;
  rateOldestAge: Gauge<"provider">;
  ratesUnusable: Gauge<"kind">;
  dbPoolMax: Gauge;
  dbConnections: Gauge<"state">;
  ready: Gauge;
};

export declare function metrics(): ServiceMetrics;
