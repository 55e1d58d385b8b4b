import { and, asc, eq, getTableColumns, inArray, isNotNull, sql, type SQL, type WithSubquery } from "drizzle-orm";
import type { Tx } from "../client";
import type { PaymentStatus } from "@/domain/statuses";
import { prepared } from "../prepared";
import { charges, customerIps, customers, payments, transfers, type Business, type ChargeRow, type PaymentRow, type TransferRow } from "../schema";
import { RECORD_CUSTOMER_COLUMNS, RECORD_IP_COLUMNS, type CustomerWithIps } from "./customers";

/*
 * Reading payments: which payments a business sees, and the details statement that loads
 * everything a Payment record shows (lib/payments/record.ts builds the record from it).
 */

/**
 * Which payments a business sees: a sub-business (one with a parent) sees the payments made
 * on its behalf; any other business sees its own, including those of its sub-businesses.
 */
export function paymentScope(business: Business): SQL {
  return business.parentBusinessId !== null
    ? eq(payments.onBehalfOfBusinessId, business.id)
    : eq(payments.businessId, business.id);
}

export async function findPayment(tx: Tx, business: Business, id: string): Promise<PaymentRow | undefined> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), paymentScope(business)))
    .limit(1);
  return row;
}

/** A payment by id, whichever business it belongs to (the checkout page, which has no business to scope by). */
export async function findPaymentById(tx: Tx, id: string): Promise<PaymentRow | undefined> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, id)).limit(1);
  return row;
}

/**
 * The payment columns a Payment record shows (`paymentRecord`, lib/payments/record.ts), plus
 * `selectedCoin` (whether the charge applies). The details statement reads only these and the RECORD_* columns of the joined
 * tables: the rest (offered coins, payment methods, fee transfers, URLs, the search text,
 * derivation paths, timestamps nobody shows…) would be sent and decoded for every payment of a
 * list page and thrown away.
 */
export const RECORD_PAYMENT_COLUMNS = [
  "id", "onBehalfOfBusinessId", "name", "description", "note", "currency", "amount", "endAmount", "platformFee",
  "netAmountUsd", "status", "selectedPaymentMethod", "selectedCoin", "metadata", "timeline", "createdAt", "expiresAt",
] as const satisfies readonly (keyof PaymentRow)[];

export type RecordPaymentRow = Pick<PaymentRow, (typeof RECORD_PAYMENT_COLUMNS)[number]>;

/** The charge columns its part of a Payment record is built from (the charge's amount, address, and `isUnderpaid` by the detection). */
export const RECORD_CHARGE_COLUMNS = [
  "paymentId", "coin", "chargeType", "address", "walletName", "quotedUnits", "exchangeRate", "requiredConfirmations",
  "tolerancePercent",
] as const satisfies readonly (keyof ChargeRow)[];
/** The transfer columns a Payment record shows or judges the status by (plus `id`, which orders and dedupes them). */
export const RECORD_TRANSFER_COLUMNS = [
  "id", "txId", "txHash", "amount", "confirmations", "blockNumber", "fromAddress", "toAddress", "dropped", "late",
] as const satisfies readonly (keyof TransferRow)[];

export type RecordChargeRow = Pick<ChargeRow, (typeof RECORD_CHARGE_COLUMNS)[number]>;
export type RecordTransferRow = Pick<TransferRow, (typeof RECORD_TRANSFER_COLUMNS)[number]>;

function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, from[k]])) as Pick<T, K>;
}

/** The details statement's selection: each joined table's RECORD_* columns (bench/details-decode.ts measures it against whole rows). */
export const RECORD_SELECTION = {
  payment: pick(getTableColumns(payments), RECORD_PAYMENT_COLUMNS),
  customer: pick(getTableColumns(customers), RECORD_CUSTOMER_COLUMNS),
  ip: pick(getTableColumns(customerIps), RECORD_IP_COLUMNS),
  charge: pick(getTableColumns(charges), RECORD_CHARGE_COLUMNS),
  transfer: pick(getTableColumns(transfers), RECORD_TRANSFER_COLUMNS),
};

/** What a Payment record is built from: the row, its customer (with IP addresses), its charge (with transfers). */
export type PaymentDetails = {
  payment: RecordPaymentRow;
  customer: CustomerWithIps | undefined;
  /** Only for a payment with a selected coin. */
  charge: { charge: RecordChargeRow; transfers: RecordTransferRow[] } | undefined;
};

export const NEWEST_FIRST = [sql`${payments.createdAt} desc nulls last`, sql`${payments.id} desc nulls last`];

/**
 * Payments whose id is among `ids`: a named statement's array parameter (its text and plan the
 * same whatever the ids), or the ids written inline (what EXPLAIN shows of it).
 */
export function paymentsByIds(ids: string[] | ReturnType<typeof sql.placeholder>): SQL {
  const array = Array.isArray(ids) ? sql`array[${sql.join(ids.map((id) => sql`${id}`), sql`, `)}]` : ids;
  return sql`${payments.id} = any(${array}::uuid[])`;
}

/**
 * Payments matching `where` with everything their records show, in ONE statement: left joins to
 * the customer, its IP addresses, the charge and its transfers (a payment's row repeats once per
 * IP × transfer and is folded back by `foldDetails`). Payments come in `order`; IPs and
 * transfers by id.
 */
export function detailsQuery(tx: Tx, where: SQL, order: SQL[] = [], selection = RECORD_SELECTION, ...ctes: WithSubquery[]) {
  return (ctes.length ? tx.with(...ctes) : tx)
    .select(selection)
    .from(payments)
    .leftJoin(customers, eq(customers.id, payments.customerId))
    .leftJoin(customerIps, eq(customerIps.customerId, customers.id))
    .leftJoin(charges, and(eq(charges.paymentId, payments.id), isNotNull(payments.selectedCoin)))
    .leftJoin(transfers, eq(transfers.paymentId, charges.paymentId))
    .where(where)
    .orderBy(...order, asc(customerIps.id), asc(transfers.id));
}

type DetailsRow = Awaited<ReturnType<typeof detailsQuery>>[number];

export function foldDetails(rows: DetailsRow[]): PaymentDetails[] {
  const out = new Map<string, PaymentDetails & { ipIds: Set<number>; transferIds: Set<number> }>();
  for (const r of rows) {
    let d = out.get(r.payment.id);
    if (!d) {
      d = {
        payment: r.payment,
        customer: r.customer ? { ...r.customer, ips: [] } : undefined,
        charge: r.charge ? { charge: r.charge, transfers: [] } : undefined,
        ipIds: new Set(),
        transferIds: new Set(),
      };
      out.set(r.payment.id, d);
    }
    if (r.ip && d.customer && !d.ipIds.has(r.ip.id)) {
      d.ipIds.add(r.ip.id);
      d.customer.ips.push(r.ip);
    }
    if (r.transfer && d.charge && !d.transferIds.has(r.transfer.id)) {
      d.transferIds.add(r.transfer.id);
      d.charge.transfers.push(r.transfer);
    }
  }
  return [...out.values()].map(({ payment, customer, charge }) => ({ payment, customer, charge }));
}

/** One payment of the business with its details (fetch: one statement). */
export async function findPaymentDetails(tx: Tx, business: Business, id: string): Promise<PaymentDetails | undefined> {
  // paymentScope(), with the business id as a value of the prepared statement.
  const sub = business.parentBusinessId !== null;
  const statement = prepared(tx, sub ? "paymentDetails:sub" : "paymentDetails", () =>
    detailsQuery(
      tx,
      and(
        eq(payments.id, sql.placeholder("id")),
        eq(sub ? payments.onBehalfOfBusinessId : payments.businessId, sql.placeholder("businessId")),
      )!,
    ).prepare(sub ? "payment_details_sub" : "payment_details"),
  );
  const [d] = foldDetails(await statement.execute({ id, businessId: business.id }));
  return d;
}

/**
 * Payments' details by id, newest first, in one named statement (`id = any($ids)`): its text and
 * plan do not depend on how many ids or which, so PostgreSQL parses it once and may keep a
 * generic plan (primary-key lookups, then the joins). A list page's ids come from a statement of
 * their own (`listPayments`), so only that small one is planned per execution.
 */
async function detailsByIds(tx: Tx, ids: string[]): Promise<PaymentDetails[]> {
  if (ids.length === 0) return [];
  const statement = prepared(tx, "paymentDetailsByIds", () =>
    detailsQuery(tx, paymentsByIds(sql.placeholder("ids")), NEWEST_FIRST).prepare("payment_details_by_ids"),
  );
  return foldDetails(await statement.execute({ ids }));
}

/** Details of payments by id: a list page's, or of rows already loaded (a webhook body). */
export async function loadPaymentDetails(tx: Tx, ids: string[]): Promise<Map<string, PaymentDetails>> {
  const details = await detailsByIds(tx, [...new Set(ids)]);
  return new Map(details.map((d) => [d.payment.id, d]));
}

/** Committed status and expiry of payments by id (the Inngest driver and functions). */
export type PaymentState = { id: string; status: PaymentStatus; expiresAt: Date };

export async function paymentStates(db: Tx, ids: string[]): Promise<Map<string, PaymentState>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: payments.id, status: payments.status, expiresAt: payments.expiresAt })
    .from(payments)
    .where(inArray(payments.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}
