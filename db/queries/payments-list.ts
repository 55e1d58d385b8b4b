import { sql, type SQL } from "drizzle-orm";
import { executeRows, type Tx } from "../client";
import { TERMINAL_STATUSES, type PaymentStatus } from "@/domain/statuses";
import { payments, type Business } from "../schema";
import { filterConditions, searchPattern, type PaymentFilter } from "./payment-filter";
import {
  EXACT_COUNT_LIMIT,
  cappedCountStatement,
  countedPageIdsStatement,
  firstPageShape,
  isPlainSearch,
  namedFirstPage,
  namedSearchPage,
  pageIdsStatement,
  searchPageIdsStatement,
} from "./payment-list-statements";

export { EXACT_COUNT_LIMIT };
export type { PaymentFilter };

/*
 * A list page's ids and `totalCount`: which statement runs, and when a count is taken, kept or
 * replaced by the planner's estimate.
 */

/** How long an estimate above EXACT_COUNT_LIMIT is reused for the same business and filter. */
const ESTIMATE_TTL_MS = 10_000;

/**
 * A statement run with its values written into its text, unnamed: planned for those values, and
 * sent without parameters. postgres.js sends a statement that has parameters and is not named
 * (and known) as Parse/Describe first and waits for the parameter types before it binds, holding
 * up every query queued behind it on that connection: two round trips, and with PGlite's one
 * connection, the whole server's queries waiting on each list. Values are literals escaped by
 * drizzle (quotes doubled; PostgreSQL and PGlite keep standard_conforming_strings on, so a
 * backslash is an ordinary character).
 */
async function withValuesInline<T>(tx: Tx, statement: { getSQL(): SQL }): Promise<T[]> {
  return executeRows<T>(tx, statement.getSQL().inlineParams());
}

/** The planner's row estimate of a statement (EXPLAIN without ANALYZE: nothing runs). */
async function estimatedRows(tx: Tx, statement: SQL): Promise<number> {
  // postgres.js decodes the json column: one row holding the plan.
  const [row] = await executeRows<Record<string, [{ Plan: { "Plan Rows": number } }]>>(tx, sql`explain (format json) ${statement}`.inlineParams());
  const [plan] = Object.values(row)[0];
  return Math.round(plan.Plan["Plan Rows"]);
}

/** Recent estimates of filters with more than EXACT_COUNT_LIMIT matches (bounded). */
const estimates = new Map<string, { rows: number; until: number }>();

/**
 * How long after its `toTime` a range is settled. A payment's `createdAt` is the time its create
 * request began (lib/payments/create.ts), so a payment committed later can still carry a time
 * inside a range that has just ended; an hour is far beyond any request (or lock wait) here.
 */
export const SETTLED_AFTER_MS = 3_600_000;

/**
 * Whether the set of payments a filter matches can no longer change: a range of `createdAt` that
 * ended more than SETTLED_AFTER_MS ago, narrowed only by columns written once when the payment is
 * created (account, `onBehalfOfBusinessId`, `amount`) — payments are never deleted. Status, coin
 * and the searched text change over a payment's life, so a filter on any of them is never settled.
 */
function isSettled(f: PaymentFilter, now: number): boolean {
  return f.toTime !== undefined && f.toTime.getTime() < now - SETTLED_AFTER_MS && !f.statuses?.length && !f.coins?.length && !f.search;
}

const isTerminal = (s: PaymentStatus) => (TERMINAL_STATUSES as readonly PaymentStatus[]).includes(s);

/**
 * Whether a filter's matches can only grow: it narrows by columns written once when the payment
 * is created (account, `onBehalfOfBusinessId`, `amount`, a `createdAt` range) and, if by status,
 * only by terminal ones, which a payment enters once and never leaves. Payments are never
 * deleted. Coin and searched text can change while a payment is open, and an open status is
 * left, so a filter on any of them can lose matches.
 */
function onlyGains(f: PaymentFilter): boolean {
  return !f.coins?.length && !f.search && (f.statuses ?? []).every(isTerminal);
}

/**
 * Filters that only gain matches (`onlyGains`) and were once counted above EXACT_COUNT_LIMIT:
 * they stay above it, so they are never counted again and only their estimate is refreshed.
 * Counting 10 001 index entries took 1.5-2.5 ms of PostgreSQL and 7-25 ms of PGlite's one
 * session at a million payments, every ESTIMATE_TTL_MS, holding up every query queued behind
 * it (docs/performance.md, "A filter that only gains matches is not counted again"). Bounded as `settledCounts`.
 */
const aboveLimit = new Map<string, true>();
const ABOVE_LIMIT_MAX = 10_000;

/**
 * Exact counts (at most EXACT_COUNT_LIMIT) of settled filters, kept: a closed period's report is
 * asked for again and again, and counting its ~3 000 index entries was most of such a list's
 * cost in the database (PGlite's WebAssembly above all; docs/performance.md, "A settled range's exact count is taken once"). Bounded:
 * the oldest entry goes first.
 */
const settledCounts = new Map<string, number>();
const SETTLED_COUNTS_MAX = 10_000;

/** Sets `key` in a map kept to `max` entries, the oldest going first. */
function setBounded<V>(map: Map<string, V>, max: number, key: string, value: V): void {
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/**
 * One page of a business's payments (their ids, newest first), and `total`: exact when the page is the
 * last one (fewer rows than the page size) or when at most EXACT_COUNT_LIMIT payments match;
 * above that the planner's estimate, reused for ESTIMATE_TTL_MS (counting a million rows exactly
 * costs far more than the page; see docs/performance.md). Never less than the rows up to and
 * including this page. The exact count of a settled filter (`isSettled`) is counted once and kept;
 * a filter that only gains matches (`onlyGains`) is no longer counted once it is above the limit.
 */
export async function listPayments(
  tx: Tx,
  business: Business,
  f: PaymentFilter,
  page: { number: number; size: number },
): Promise<{ ids: string[]; total: number }> {
  const before = (page.number - 1) * page.size;
  // Rows up to this page exist only if the page has any: one past the end proves nothing.
  const atLeast = (rows: number) => Math.max(EXACT_COUNT_LIMIT + 1, rows > 0 ? before + rows : 0);
  const filterKey = JSON.stringify([business.id, business.parentBusinessId !== null, f]);
  const now = Date.now();
  const recent = estimates.get(filterKey);
  const fresh = recent && recent.until > now ? recent.rows : undefined;
  const settled = isSettled(f, now);
  const known = settled ? settledCounts.get(filterKey) : undefined;
  const counted = known !== undefined || aboveLimit.has(filterKey);
  // The filter's WHERE with its values, built only when a statement of them runs.
  let whereSql: SQL | undefined;
  const where = () => (whereSql ??= filterConditions(business, f));

  // The page's ids. A plain search (`isPlainSearch`) and the first page of a plain filter
  // (`firstPageShape`) by named statements, whose generic plan is their best for every value;
  // any other page planned for the filter's values on every execution (a kept
  // generic plan would be wrong for a status set, a coin or a far offset). The caller loads
  // their records by a named statement whose plan is kept (planning the joins on every
  // execution cost more than running them).
  const withCount = !f.search && fresh === undefined && !counted;
  const shape = firstPageShape(business, f, page);
  let rows: { id: string; total?: string | number }[];
  if (isPlainSearch(business, f)) {
    rows = await namedSearchPage(tx).execute({ pattern: searchPattern(f.search!), businessId: business.id, size: page.size, offset: before });
  } else if (shape) {
    rows = await namedFirstPage(tx, shape, f, withCount).execute({
      size: page.size,
      businessId: business.id,
      status: f.statuses?.[0],
      fromTime: f.fromTime?.toISOString(),
      toTime: f.toTime?.toISOString(),
    });
  } else {
    rows = await withValuesInline(
      tx,
      f.search
        ? searchPageIdsStatement(tx, business, f, page.size, before)
        : withCount
          ? countedPageIdsStatement(tx, where(), page.size, before)
          : pageIdsStatement(tx, where(), page.size, before),
    );
  }
  const pageIds = rows.map((r) => ({
    id: r.id,
    ...(r.total !== undefined ? { total: Number(r.total) } : {}),
  }));
  const ids = pageIds.map((r) => r.id);

  // A search counts every match exactly; a short page is the last one, and ends the count.
  if (f.search && pageIds.length > 0) return { ids, total: pageIds[0].total! };
  if (known !== undefined) return { ids, total: known };
  // An exact total, kept when the filter is settled.
  const exactly = (total: number) => {
    if (settled) setBounded(settledCounts, SETTLED_COUNTS_MAX, filterKey, total);
    return { ids, total };
  };
  if (ids.length < page.size && (ids.length > 0 || page.number === 1)) return exactly(before + ids.length);
  if (fresh !== undefined) return { ids, total: Math.max(fresh, atLeast(ids.length)) };

  if (!counted) {
    // A page past the last match carries no count: then it is counted on its own.
    let total = pageIds[0]?.total;
    if (total === undefined) {
      const [row] = await withValuesInline<{ total: string | number }>(tx, cappedCountStatement(tx, where()));
      total = Number(row.total);
    }
    if (total <= EXACT_COUNT_LIMIT) return exactly(total);
    if (onlyGains(f)) setBounded(aboveLimit, ABOVE_LIMIT_MAX, filterKey, true);
  }
  const estimate = await estimatedRows(tx, tx.select({ one: sql`1` }).from(payments).where(where()).getSQL());
  setBounded(estimates, 1000, filterKey, { rows: estimate, until: Date.now() + ESTIMATE_TTL_MS });
  return { ids, total: Math.max(estimate, atLeast(ids.length)) };
}

