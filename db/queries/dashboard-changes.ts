import { and, eq, sql } from "drizzle-orm";
import { executeRows, type Tx } from "../client";
import { payments, transfers, type Business } from "../schema";
import { NEWEST_FIRST, paymentScope } from "./payments-read";

/*
 * Change marks: short strings the dashboard's open pages poll, which change when what the page
 * shows may have changed, so a page reloads its data only then. Each is a few index reads.
 */

/** The statuses a payment can still leave. Every status change leaves one of them (terminal statuses have no way out). */
const OPEN = ["AWAITING_PAYMENT", "PENDING", "UNDERPAID", "PROCESSING"] as const;

/**
 * A mark of the business's payments: the newest payment's id, and how many payments are in each
 * open status. A new payment changes the first; a status change takes a payment out of an open
 * status, so it changes a count, unless, within one poll, another payment made the opposite move
 * between the same two statuses (PENDING and UNDERPAID), which the next change then shows. Reads
 * `payments_business_created_idx` for one entry and `payments_business_status_created_idx` for
 * the open payments only (index-only: the status is in the index).
 */
export async function paymentsChangeMark(tx: Tx, business: Business): Promise<string> {
  const scope = paymentScope(business);
  const open = sql.join(
    OPEN.map((s) => sql`count(*) filter (where ${payments.status} = ${s})`),
    sql`, `,
  );
  // Values inline (ids and statuses), as the list's statements: no extra round trip on PGlite.
  const [row] = await executeRows<Record<string, string | number | null>>(
    tx,
    sql`select (select ${payments.id} from ${payments} where ${scope} order by ${sql.join(NEWEST_FIRST, sql`, `)} limit 1) as newest,
      concat_ws(',', ${open}) as open
      from ${payments} where ${scope} and ${payments.status} in (${sql.join(
        OPEN.map((s) => sql`${s}`),
        sql`, `,
      )})`.inlineParams(),
  );
  return `${row?.newest ?? "none"}/${row?.open ?? ""}`;
}

/**
 * A mark of one payment of the business: its status and last change, and its transfers' number,
 * confirmations and last change (a confirmation changes no payment column until the status
 * moves). Null when the business has no such payment.
 */
export async function paymentChangeMark(tx: Tx, business: Business, paymentId: string): Promise<string | null> {
  const seen = tx
    .select({
      n: sql<string>`count(*)`.as("n"),
      confirmations: sql<string>`coalesce(sum(${transfers.confirmations}), 0)`.as("confirmations"),
      changed: sql<string | null>`max(${transfers.updatedAt})::text`.as("changed"),
    })
    .from(transfers)
    .where(eq(transfers.paymentId, paymentId))
    .as("seen");
  const statement = tx
    .select({ status: payments.status, updated: sql<string>`${payments.updatedAt}::text`, n: seen.n, confirmations: seen.confirmations, changed: seen.changed })
    .from(payments)
    .crossJoin(seen)
    .where(and(eq(payments.id, paymentId), paymentScope(business)))
    .limit(1);
  const [row] = await executeRows<{ status: string; updated: string; n: string; confirmations: string; changed: string | null }>(tx, statement.getSQL().inlineParams());
  return row ? `${row.status}/${row.updated}/${row.n}/${row.confirmations}/${row.changed ?? ""}` : null;
}
