import { sql, type SQL } from "drizzle-orm";
import { executeRows, type Tx } from "../client";
import { charges, payments, transfers, webhookDeliveries, type Business } from "../schema";
import type { PaymentStatus } from "@/domain/statuses";
import { filterConditions } from "./payment-filter";
import { NEWEST_FIRST, paymentScope } from "./payments-read";

/*
 * The reads of a business's overview page in the dashboard: what needs the merchant's attention
 * (underpaid payments, money that arrived after a payment closed, transfers held without
 * confirmations or dropped from the chain, webhooks that could not be delivered), and the cheap
 * change marks the payments pages poll to refresh themselves. Each list is its newest few rows
 * and a count that stops at a cap: the page shows "100+", it never counts a long tail.
 */

/** A payment in one of the overview's lists, and since when it has been in it (null: its creation). */
export type AttentionPayment = {
  id: string;
  name: string | null;
  currency: string;
  amount: string;
  status: PaymentStatus;
  createdAt: Date;
  selectedCoin: string | null;
  since: Date | null;
};

/** Money recorded after its payment closed. */
export type LateTransfer = AttentionPayment & { txHash: string; units: string; seenAt: Date };

/** A webhook delivery not delivered: failed for good, or failed so far and retried on schedule. */
export type FailedDelivery = {
  id: number;
  paymentId: string | null;
  eventType: string;
  url: string;
  status: "pending" | "failed";
  attempts: number;
  lastStatusCode: number | null;
  createdAt: Date;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
};

/** The newest `limit` rows of a list, and how many there are, counted up to `cap` (`capped`: at least that many). */
export type Listed<T> = { items: T[]; total: number; capped: boolean };

export type ListLimits = { limit: number; cap: number };

const PAYMENT_COLUMNS = sql`${payments.id} as id, ${payments.name} as name, ${payments.currency} as currency, ${payments.amount}::text as amount,
  ${payments.status} as status, ${payments.createdAt} as created_at, ${payments.selectedCoin} as selected_coin`;

type PaymentRow = { id: string; name: string | null; currency: string; amount: string; status: PaymentStatus; created_at: Date | string; selected_coin: string | null; since?: Date | string | null };

const date = (v: Date | string) => (v instanceof Date ? v : new Date(v));

/**
 * Rows of a statement with its values written inline, as the list's statements are
 * (db/queries/payments-list.ts, `withValuesInline`): an unnamed statement with parameters holds
 * up PGlite's one connection for an extra round trip. The values are ids, instants, statuses
 * and limits, quoted by drizzle.
 */
const rowsOf = <T>(tx: Tx, statement: SQL): Promise<T[]> => executeRows<T>(tx, statement.inlineParams());

function paymentOf(r: PaymentRow): AttentionPayment {
  return {
    id: r.id,
    name: r.name,
    currency: r.currency,
    amount: r.amount,
    status: r.status,
    createdAt: date(r.created_at),
    selectedCoin: r.selected_coin,
    since: r.since == null ? null : date(r.since),
  };
}

/** How many rows `from` (a FROM … WHERE …) has, counted up to `cap`: a LIMIT inside, so a long tail is never read. */
async function cappedCount(tx: Tx, select: SQL, cap: number): Promise<{ total: number; capped: boolean }> {
  const [row] = await rowsOf<{ n: string | number }>(tx, sql`select count(*) as n from (${select} limit ${cap}) capped`);
  const total = Number(row?.n ?? 0);
  return { total, capped: total >= cap };
}

async function listed<T>(tx: Tx, rows: Promise<T[]>, select: SQL, cap: number): Promise<Listed<T>> {
  const [items, count] = await Promise.all([rows, cappedCount(tx, select, cap)]);
  return { items, ...count };
}

/**
 * The business's payments in `statuses` created since `since` (none: ever), newest first: the
 * list's own WHERE, so it reads `payments_business_status_created_idx` (a sub-business's,
 * `payments_obo_created_idx`).
 */
export async function paymentsInStatus(tx: Tx, business: Business, statuses: PaymentStatus[], since: Date | undefined, l: ListLimits): Promise<Listed<AttentionPayment>> {
  const where = filterConditions(business, { statuses, fromTime: since });
  const rows = rowsOf<PaymentRow>(tx, sql`select ${PAYMENT_COLUMNS} from ${payments} where ${where} order by ${sql.join(NEWEST_FIRST, sql`, `)} limit ${l.limit}`);
  return listed(tx, rows.then((r) => r.map(paymentOf)), sql`select 1 from ${payments} where ${where}`, l.cap);
}

/**
 * Payments still PENDING because a transfer seen before `heldBefore` has not reached the
 * confirmations its charge needs (stuck in the mempool, say), the longest held first; `since`
 * is when the oldest such transfer was seen. PENDING payments are few at any moment (they leave
 * the status with their confirmations), so this reads the status index and each one's transfers.
 */
export async function heldPayments(tx: Tx, business: Business, heldBefore: Date, l: ListLimits): Promise<Listed<AttentionPayment>> {
  const from = sql`from ${payments}
    join ${charges} on ${charges.paymentId} = ${payments.id}
    join ${transfers} on ${transfers.paymentId} = ${payments.id}
    where ${paymentScope(business)} and ${payments.status} = 'PENDING'
      and not ${transfers.dropped} and not ${transfers.late}
      and ${transfers.confirmations} < ${charges.requiredConfirmations}
      and ${transfers.seenAt} <= ${heldBefore.toISOString()}::timestamptz`;
  const rows = rowsOf<PaymentRow>(
    tx,
    sql`select ${PAYMENT_COLUMNS}, min(${transfers.seenAt}) as since ${from} group by ${payments.id} order by since, ${payments.id} limit ${l.limit}`,
  );
  return listed(tx, rows.then((r) => r.map(paymentOf)), sql`select distinct ${payments.id} ${from}`, l.cap);
}

/**
 * Payments whose transfers were dropped from the chain (a double spend, a reorganisation) since
 * `since`: every FAILED payment (the one way into FAILED is every transfer dropped), and open
 * ones that lost a transfer but still have another. `since` is the latest drop.
 */
export async function droppedPayments(tx: Tx, business: Business, since: Date, l: ListLimits): Promise<Listed<AttentionPayment>> {
  const dropped = sql`select 1 from ${transfers} where ${transfers.paymentId} = ${payments.id} and ${transfers.dropped}`;
  const where = sql`${filterConditions(business, { fromTime: since, statuses: ["FAILED", "PENDING", "UNDERPAID", "PROCESSING"] })}
    and (${payments.status} = 'FAILED' or exists (${dropped}))`;
  const lastDrop = sql`(select max(${transfers.updatedAt}) from ${transfers} where ${transfers.paymentId} = ${payments.id} and ${transfers.dropped})`;
  const rows = rowsOf<PaymentRow>(
    tx,
    sql`select ${PAYMENT_COLUMNS}, ${lastDrop} as since from ${payments} where ${where} order by ${sql.join(NEWEST_FIRST, sql`, `)} limit ${l.limit}`,
  );
  return listed(tx, rows.then((r) => r.map(paymentOf)), sql`select 1 from ${payments} where ${where}`, l.cap);
}

/**
 * Money recorded after its payment closed (completed, expired, cancelled or failed), seen since
 * `since`, newest first: the merchant has it and the customer may want it back. There is no
 * index on late transfers (they are rare, and the table's indexes serve the watchers), so this
 * reads the transfers table once; docs/performance.md ("Dashboard") has its cost.
 */
export async function lateTransfers(tx: Tx, business: Business, since: Date, l: ListLimits): Promise<Listed<LateTransfer>> {
  const from = sql`from ${transfers} join ${payments} on ${payments.id} = ${transfers.paymentId}
    where ${transfers.late} and not ${transfers.dropped} and ${transfers.seenAt} >= ${since.toISOString()}::timestamptz and ${paymentScope(business)}`;
  const rows = rowsOf<PaymentRow & { tx_hash: string; units: string; seen_at: Date | string }>(
    tx,
    sql`select ${PAYMENT_COLUMNS}, ${transfers.seenAt} as since, ${transfers.txHash} as tx_hash, ${transfers.amount}::text as units, ${transfers.seenAt} as seen_at
      ${from} order by ${transfers.seenAt} desc, ${transfers.id} desc limit ${l.limit}`,
  );
  return listed(
    tx,
    rows.then((r) => r.map((row) => ({ ...paymentOf(row), txHash: row.tx_hash, units: row.units, seenAt: date(row.seen_at) }))),
    sql`select 1 ${from}`,
    l.cap,
  );
}

/**
 * The business's webhook deliveries queued since `since` that have not been delivered: failed for
 * good (every scheduled attempt, over about 28 hours), or failed so far and waiting for their next
 * attempt. Newest first, in `webhook_deliveries_business_idx` narrowed to the range; the state is
 * read from each row of the range, so the cost grows with the deliveries of the range.
 */
export async function failedDeliveries(tx: Tx, businessId: number, since: Date, l: ListLimits): Promise<Listed<FailedDelivery>> {
  const d = webhookDeliveries;
  const where = sql`${d.businessId} = ${businessId} and ${d.createdAt} >= ${since.toISOString()}::timestamptz
    and (${d.status} = 'failed' or (${d.status} = 'pending' and ${d.attempts} > 0))`;
  const rows = rowsOf<{
    id: string | number;
    payment_id: string | null;
    event_type: string;
    url: string;
    status: "pending" | "failed";
    attempts: number;
    last_status_code: number | null;
    created_at: Date | string;
    last_attempt_at: Date | string | null;
    next_attempt_at: Date | string | null;
  }>(
    tx,
    sql`select ${d.id} as id, ${d.paymentId} as payment_id, ${d.eventType} as event_type, ${d.url} as url, ${d.status} as status,
      ${d.attempts} as attempts, ${d.lastStatusCode} as last_status_code, ${d.createdAt} as created_at,
      ${d.lastAttemptAt} as last_attempt_at, ${d.nextAttemptAt} as next_attempt_at
      from ${d} where ${where} order by ${d.createdAt} desc nulls last, ${d.id} desc nulls last limit ${l.limit}`,
  );
  const maybeDate = (v: Date | string | null) => (v == null ? null : date(v));
  const items = rows.then((r) =>
    r.map((x) => ({
      id: Number(x.id),
      paymentId: x.payment_id,
      eventType: x.event_type,
      url: x.url,
      status: x.status,
      attempts: Number(x.attempts),
      lastStatusCode: x.last_status_code,
      createdAt: date(x.created_at),
      lastAttemptAt: maybeDate(x.last_attempt_at),
      nextAttemptAt: maybeDate(x.next_attempt_at),
    })),
  );
  return listed(tx, items, sql`select 1 from ${d} where ${where}`, l.cap);
}
