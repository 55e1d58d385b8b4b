import { sql, type SQL } from "drizzle-orm";
import { executeRows, type Tx } from "../client";
import { payments, type Business } from "../schema";
import { filterConditions, type PaymentFilter } from "./payment-filter";
import { NEWEST_FIRST } from "./payments-read";

/*
 * The merchant dashboard's reads beyond the list API's: the CSV export's walk over every match of
 * a filter, and the per-day figures of the payments chart. Both narrow by the list's own WHERE
 * (`filterConditions`), so a filter means the same in the table, the export and the chart.
 */

/**
 * Where an export's walk stopped: the last payment it wrote, in the list's order. `at` is its
 * `created_at` as the database wrote it, handed back as is (no round trip through a JS Date).
 */
export type ExportCursor = { at: string; id: string };

/**
 * The next `size` payments matching `f` after `cursor` (none: from the newest), newest first, the
 * list's order. Keyset paging, not OFFSET: each step starts where the last one ended in the list
 * index (a year of payments costs no more per page at the end than at the start), and a payment
 * created or changing status during the walk cannot shift a page boundary so that a row is
 * written twice or skipped. Values are written inline (see `withValuesInline`,
 * db/queries/payments-list.ts: an unnamed statement with parameters holds up PGlite's one
 * connection for a round trip).
 */
export async function exportPageIds(
  tx: Tx,
  business: Business,
  f: PaymentFilter,
  cursor: ExportCursor | null,
  size: number,
): Promise<ExportCursor[]> {
  const after = cursor ? sql`(${payments.createdAt}, ${payments.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : undefined;
  const where = after ? sql`${filterConditions(business, f)} and ${after}` : filterConditions(business, f);
  const statement = tx
    .select({ id: payments.id, at: sql<string>`${payments.createdAt}::text`.as("at") })
    .from(payments)
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .limit(size);
  return executeRows<ExportCursor>(tx, statement.getSQL().inlineParams());
}

/** One UTC day of a business's payments matching a filter. */
export type DayFigures = {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  /** Payments created that day. */
  created: number;
  /** Of those, the ones now COMPLETED. */
  completed: number;
  /** Sum of the completed ones' `netAmountUsd` (after the fee), an exact decimal. */
  completedNetUsd: string;
};

/**
 * Payments matching `f` (which carries the range) grouped by the UTC day they were created: how
 * many, how many of them are completed, and the completed ones' net USD (`net_amount_usd`, the
 * one amount every payment has in a single currency once settled). Days without payments are
 * not returned; the caller fills them.
 */
export async function paymentsPerDay(tx: Tx, business: Business, f: PaymentFilter): Promise<DayFigures[]> {
  // Grouped by the UTC date, formatted once per day: migration 0017's statistics on this very
  // expression tell the planner how few days there are, so it hashes the rows of an index-only
  // scan instead of sorting them (docs/performance.md, "Dashboard").
  const day: SQL = sql`(${payments.createdAt} at time zone 'UTC')::date`;
  const completed = sql`${payments.status} = 'COMPLETED'`;
  const statement = tx
    .select({
      day: sql<string>`to_char(${day}, 'YYYY-MM-DD')`.as("day"),
      created: sql<string>`count(*)`.as("created"),
      completed: sql<string>`count(*) filter (where ${completed})`.as("completed"),
      completedNetUsd: sql<string>`coalesce(sum(${payments.netAmountUsd}) filter (where ${completed}), 0)`.as("completed_net_usd"),
    })
    .from(payments)
    .where(filterConditions(business, f))
    .groupBy(day)
    .orderBy(day);
  const rows = await executeRows<{ day: string; created: string | number; completed: string | number; completed_net_usd: string | number }>(
    tx,
    statement.getSQL().inlineParams(),
  );
  return rows.map((r) => ({ day: r.day, created: Number(r.created), completed: Number(r.completed), completedNetUsd: String(r.completed_net_usd) }));
}
