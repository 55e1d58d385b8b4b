import type { PaymentFilter } from "@/db/queries/payment-filter";
import type { Db } from "@/db/client";
import { listPayments as queryPayments } from "@/db/queries/payments-list";
import { findPaymentDetails, loadPaymentDetails } from "@/db/queries/payments-read";
import { setPaymentNote } from "@/db/queries/payments-write";
import type { Business, PaymentRow } from "@/db/schema";
import { notFound } from "@/lib/http/errors";
import { decimalOf } from "@/domain/decimal";
import type { ListPaymentsQuery } from "./list-query";
import { listRecordsWriter } from "./list-records";
import { paymentRecord } from "./record";
import type { PaymentRecord } from "./schemas";

/*
 * Every Payment record a merchant sees is defined by `paymentRecord` (./record.ts): fetch and
 * note here, the simulator's answers through `getPayment`, webhook bodies through
 * `paymentRecords`, list pages through the list records' interface (./list-records.ts).
 */

/**
 * Payment records of rows as the caller holds them (just changed, say), with their customers,
 * charges and transfers loaded in one statement.
 */
export async function paymentRecords(db: Db, rows: PaymentRow[]): Promise<PaymentRecord[]> {
  const details = await loadPaymentDetails(db, rows.map((r) => r.id));
  return rows.map((payment) => {
    const d = details.get(payment.id);
    return paymentRecord({ payment, customer: d?.customer, charge: d?.charge });
  });
}

const missing = (id: string) => notFound(`No payment ${id} exists for this business.`);

export async function getPayment(db: Db, business: Business, id: string): Promise<PaymentRecord> {
  const d = await findPaymentDetails(db, business, id);
  if (!d) throw missing(id);
  return paymentRecord(d);
}

/** Replaces the note; concurrent writers each replace it whole (last write wins, never a mix). */
export async function updateNote(db: Db, business: Business, id: string, note: string): Promise<PaymentRecord> {
  const d = await setPaymentNote(db, business, id, note, new Date());
  if (!d) throw missing(id);
  return paymentRecord(d);
}

/** A list page; `items` are the Payment records' JSON text (`ListRecordsWriter`). */
export type PaymentListPage = {
  items: string[];
  pageNumber: number;
  pageSize: number;
  totalCount: number;
  totalPages: number;
};

/**
 * The list query's filter as the database reads it: the list, and the dashboard's CSV export and
 * chart, narrow by this one mapping.
 */
export function paymentFilterOf(q: ListPaymentsQuery): PaymentFilter {
  return {
    fromTime: q.fromTime ? new Date(q.fromTime) : undefined,
    toTime: q.toTime ? new Date(q.toTime) : undefined,
    statuses: q.statuses,
    coins: q.cryptoCoins,
    fromAmount: q.fromAmount !== undefined ? decimalOf(q.fromAmount).toFixed() : undefined,
    toAmount: q.toAmount !== undefined ? decimalOf(q.toAmount).toFixed() : undefined,
    search: q.searchString,
    onBehalfOfBusinessId: q.onBehalfOfBusinessId,
  };
}

/**
 * A list page in two statements: the page's ids (with the count, when one is taken), then those
 * payments' records by id (a named statement with a kept plan).
 */
export async function listPayments(db: Db, business: Business, q: ListPaymentsQuery): Promise<PaymentListPage> {
  const { ids, total } = await queryPayments(
    db,
    business,
    paymentFilterOf(q),
    { number: q.PageNumber, size: q.PageSize },
  );
  return {
    items: await listRecordsWriter()(db, ids),
    pageNumber: q.PageNumber,
    pageSize: q.PageSize,
    totalCount: total,
    totalPages: Math.ceil(total / q.PageSize),
  };
}

/** The PaymentList's JSON text: the records' text joined as they came (the same keys, in order, as the other fields). */
export function paymentListJson({ items, ...page }: PaymentListPage): string {
  return `{"items":[${items.join(",")}],"pageNumber":${page.pageNumber},"pageSize":${page.pageSize},"totalCount":${page.totalCount},"totalPages":${page.totalPages}}`;
}
