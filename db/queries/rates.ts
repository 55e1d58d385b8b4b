import { and, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Tx } from "../client";
import { exchangeRates, rateProviderRuns, rateRefresh, type ExchangeRateRow, type RateProviderRunRow } from "../schema";

const REFRESH = "rates";

/**
 * Claims the next rate refresh for `owner` when it is due and nobody holds a live lease: a
 * conditional UPDATE moves `due_at` one period on, so of N instances asking at once exactly
 * one fetches this period. A missing row (first start) is due at once.
 */
export async function claimRateRefresh(tx: Tx, owner: string, now: Date, periodMs: number, leaseMs: number): Promise<boolean> {
  await tx.insert(rateRefresh).values({ name: REFRESH, dueAt: now }).onConflictDoNothing();
  const rows = await tx
    .update(rateRefresh)
    .set({ dueAt: new Date(now.getTime() + periodMs), leaseOwner: owner, leaseUntil: new Date(now.getTime() + leaseMs) })
    .where(
      and(
        eq(rateRefresh.name, REFRESH),
        lte(rateRefresh.dueAt, now),
        or(isNull(rateRefresh.leaseUntil), lt(rateRefresh.leaseUntil, now)),
      ),
    )
    .returning({ name: rateRefresh.name });
  return rows.length === 1;
}

/** Ends `owner`'s refresh; the next one starts when `due_at` comes. */
export async function releaseRateRefresh(tx: Tx, owner: string): Promise<void> {
  await tx
    .update(rateRefresh)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(and(eq(rateRefresh.name, REFRESH), eq(rateRefresh.leaseOwner, owner)));
}

/** Makes the next refresh due now (an operator's or a test's "fetch again"). */
export async function makeRateRefreshDue(tx: Tx, now: Date): Promise<void> {
  await tx.insert(rateRefresh).values({ name: REFRESH, dueAt: now }).onConflictDoUpdate({ target: rateRefresh.name, set: { dueAt: now } });
}

export type RateKind = ExchangeRateRow["kind"];

/** The stored rates of one provider (the refresher compares new answers with them). */
export async function ratesOfProvider(tx: Tx, provider: string): Promise<ExchangeRateRow[]> {
  return tx.select().from(exchangeRates).where(eq(exchangeRates.provider, provider));
}

/** Every provider's stored rate for one coin and one currency: the two legs of a quote. */
export async function ratesForQuote(tx: Tx, coins: readonly string[], currency: string): Promise<ExchangeRateRow[]> {
  return tx
    .select()
    .from(exchangeRates)
    .where(
      or(
        and(eq(exchangeRates.kind, "coin"), inArray(exchangeRates.key, [...coins])),
        and(eq(exchangeRates.kind, "fiat"), eq(exchangeRates.key, currency)),
      ),
    );
}

/** Every stored rate (the operator's view). */
export async function allRates(tx: Tx): Promise<ExchangeRateRow[]> {
  return tx.select().from(exchangeRates);
}

export type GoodRate = { provider: string; kind: RateKind; key: string; value: string; fetchedAt: Date };

/** Stores accepted values as their keys' last good ones, clearing any earlier refusal. */
export async function storeRates(tx: Tx, rows: readonly GoodRate[]): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insert(exchangeRates)
    .values(rows.map((r) => ({ ...r })))
    .onConflictDoUpdate({
      target: [exchangeRates.provider, exchangeRates.kind, exchangeRates.key],
      set: {
        value: sql`excluded.value`,
        fetchedAt: sql`excluded.fetched_at`,
        rejectedValue: null,
        rejectedAt: null,
        rejectedWhy: null,
      },
    });
}

/** Notes a value the refresher refused beside the last good one, which stays (and ages). */
export async function recordRejectedRate(
  tx: Tx,
  r: { provider: string; kind: RateKind; key: string; value: string; at: Date; why: string },
): Promise<void> {
  await tx
    .update(exchangeRates)
    .set({ rejectedValue: r.value, rejectedAt: r.at, rejectedWhy: r.why })
    .where(and(eq(exchangeRates.provider, r.provider), eq(exchangeRates.kind, r.kind), eq(exchangeRates.key, r.key)));
}

/**
 * Records one attempt at a provider: a success (which lifts any backoff), or its error, with
 * the time before which it must not be asked again when it rate-limited us.
 */
export async function recordProviderRun(
  tx: Tx,
  provider: string,
  at: Date,
  outcome: { error: null } | { error: string; backoffUntil: Date | null },
): Promise<void> {
  const set =
    outcome.error === null
      ? { lastAttemptAt: at, lastSuccessAt: at, backoffUntil: null }
      : { lastAttemptAt: at, lastError: outcome.error, lastErrorAt: at, backoffUntil: outcome.backoffUntil };
  await tx.insert(rateProviderRuns).values({ provider, ...set }).onConflictDoUpdate({ target: rateProviderRuns.provider, set });
}

export async function providerRuns(tx: Tx): Promise<RateProviderRunRow[]> {
  return tx.select().from(rateProviderRuns);
}
