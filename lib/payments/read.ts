import type { Db } from "@/db/client";
import { loadChargeData } from "@/db/queries/charges";
import { loadCustomers } from "@/db/queries/customers";
import { findPayment, listPayments as queryPayments, setPaymentNote } from "@/db/queries/payments";
import type { Business, PaymentRow } from "@/db/schema";
import { notFound } from "@/lib/http/errors";
import { decimalOf } from "@/lib/money/decimal";
import type { ListPaymentsQuery } from "./list-query";
import { toPaymentRecord } from "./record";
import type { PaymentRecord } from "./schemas";

/** Payment records of stored rows, with customers, charges and transfers loaded in batches. */
export async function paymentRecords(db: Db, rows: PaymentRow[]): Promise<PaymentRecord[]> {
  const [customers, charges] = await Promise.all([
    loadCustomers(db, rows.map((r) => r.customerId)),
    loadChargeData(db, rows.filter((r) => r.selectedCoin !== null).map((r) => r.id)),
  ]);
  return rows.map((r) => toPaymentRecord(r, customers.get(r.customerId), charges.get(r.id)));
}

const missing = (id: string) => notFound(`No payment ${id} exists for this business.`);

export async function getPayment(db: Db, business: Business, id: string): Promise<PaymentRecord> {
  const row = await findPayment(db, business, id);
  if (!row) throw missing(id);
  return (await paymentRecords(db, [row]))[0];
}

/** Replaces the note; concurrent writers each replace it whole (last write wins, never a mix). */
export async function updateNote(db: Db, business: Business, id: string, note: string): Promise<PaymentRecord> {
  const row = await setPaymentNote(db, business, id, note);
  if (!row) throw missing(id);
  return (await paymentRecords(db, [row]))[0];
}

export type PaymentList = {
  items: PaymentRecord[];
  pageNumber: number;
  pageSize: number;
  totalCount: number;
  totalPages: number;
};

export async function listPayments(db: Db, business: Business, q: ListPaymentsQuery): Promise<PaymentList> {
  const { rows, total } = await queryPayments(
    db,
    business,
    {
      fromTime: q.fromTime ? new Date(q.fromTime) : undefined,
      toTime: q.toTime ? new Date(q.toTime) : undefined,
      statuses: q.statuses,
      coins: q.cryptoCoins,
      fromAmount: q.fromAmount !== undefined ? decimalOf(q.fromAmount).toFixed() : undefined,
      toAmount: q.toAmount !== undefined ? decimalOf(q.toAmount).toFixed() : undefined,
      search: q.searchString,
      onBehalfOfBusinessId: q.onBehalfOfBusinessId,
    },
    { number: q.PageNumber, size: q.PageSize },
  );
  return {
    items: await paymentRecords(db, rows),
    pageNumber: q.PageNumber,
    pageSize: q.PageSize,
    totalCount: total,
    totalPages: Math.ceil(total / q.PageSize),
  };
}
