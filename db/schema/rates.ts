import { index, numeric, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * The last good value of every rate each market provider gave, written by the one refresher
 * (lib/rates/refresh.ts) and read by every instance when it quotes. `kind`
 * "coin": USD per one whole coin (key: the coin, e.g. LITECOIN); "fiat": units of the
 * currency per one USD (key: the ISO code). Values are exact decimals (numeric without scale).
 * A value the refresher refused (a jump) is kept beside the last good one, for operators.
 */
export const exchangeRates = pgTable(
  "exchange_rates",
  {
    provider: text("provider").notNull(),
    kind: text("kind", { enum: ["coin", "fiat"] }).notNull(),
    key: text("key").notNull(),
    value: numeric("value").notNull(),
    fetchedAt: at("fetched_at").notNull(),
    rejectedValue: numeric("rejected_value"),
    rejectedAt: at("rejected_at"),
    rejectedWhy: text("rejected_why"),
  },
  (t) => [primaryKey({ columns: [t.provider, t.kind, t.key] }), index("exchange_rates_key_idx").on(t.kind, t.key)],
);

/**
 * One row per market provider: when the refresher last asked it, when it last answered, and
 * why it last failed — the operator's view of a provider gone silent.
 */
export const rateProviderRuns = pgTable("rate_provider_runs", {
  provider: text("provider").primaryKey(),
  lastAttemptAt: at("last_attempt_at"),
  lastSuccessAt: at("last_success_at"),
  lastError: text("last_error"),
  lastErrorAt: at("last_error_at"),
  /** A provider that rate-limited us (429, Retry-After) is not asked again before this. */
  backoffUntil: at("backoff_until"),
});

/**
 * The refresher's schedule, shared by every instance: the instance that moves `due_at`
 * forward by a conditional UPDATE fetches; the others see it is not due. So N instances cost
 * the providers one fetch per period. `lease_until` bounds a fetch in progress.
 */
export const rateRefresh = pgTable("rate_refresh", {
  name: text("name").primaryKey(),
  dueAt: at("due_at").notNull(),
  leaseOwner: text("lease_owner"),
  leaseUntil: at("lease_until"),
});

export type ExchangeRateRow = typeof exchangeRates.$inferSelect;
export type RateProviderRunRow = typeof rateProviderRuns.$inferSelect;
