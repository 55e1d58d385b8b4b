import { databaseKind, type Db } from "@/db/client";
import {
  findPaymentDetails,
  paymentRecordsJson,
  listPayments as queryPayments,
  loadPaymentDetails,
  setPaymentNote,
  type PaymentDetails,
} from "@/db/queries/payments";
import { paymentRecordsText } from "@/db/queries/payment-record-text";
import type { Business, PaymentRow } from "@/db/schema";
import { notFound } from "@/lib/http/errors";
import { decimalOf } from "@/lib/money/decimal";
import type { ListPaymentsQuery } from "./list-query";
import { toPaymentRecord } from "./record";
import type { PaymentRecord } from "./schemas";

const record = (d: PaymentDetails) => toPaymentRecord(d.payment, d.customer, d.charge);

/** The record of a row as the caller holds it (just changed, say) with the customer and charge loaded. */
const recordOfRow = (row: PaymentRow, d: PaymentDetails | undefined) =>
  toPaymentRecord(row, d?.customer, row.selectedCoin !== null ? d?.charge : undefined);

/** Payment records of stored rows, with customers, charges and transfers loaded in one statement. */
export async function paymentRecords(db: Db, rows: PaymentRow[]): Promise<PaymentRecord[]> {
  const details = await loadPaymentDetails(db, rows.map((r) => r.id));
  return rows.map((r) => recordOfRow(r, details.get(r.id)));
}

const missing = (id: string) => notFound(`No payment ${id} exists for this business.`);

export async function getPayment(db: Db, business: Business, id: string): Promise<PaymentRecord> {
  const d = await findPaymentDetails(db, business, id);
  if (!d) throw missing(id);
  return record(d);
}

/** Replaces the note; concurrent writers each replace it whole (last write wins, never a mix). */
export async function updateNote(db: Db, business: Business, id: string, note: string): Promise<PaymentRecord> {
  const d = await setPaymentNote(db, business, id, note, new Date());
  if (!d) throw missing(id);
  return record(d);
}

/** A list page; `items` are Payment records as JSON text (`recordsJson`). */
export type PaymentListPage = {
  items: string[];
  pageNumber: number;
  pageSize: number;
  totalCount: number;
  totalPages: number;
};

/**
 * Who writes a list page's records: PostgreSQL (`sql`, db/queries/payment-record-json.ts) or this
 * process from the details statement's cells (`text`, db/queries/payment-record-text.ts). Both
 * are held to `toPaymentRecord`, every other response's definition, by
 * test/payments-list-records.test.ts.
 */
export type RecordWriter = "sql" | "text";

/**
 * A page's records as JSON text, newest first. On PostgreSQL the database writes them: it runs
 * on cores of its own, and the server's one thread is spared decoding the joined rows, building
 * the records and serialising them. PGlite is a single WebAssembly backend inside the server's
 * own process, where the same work costs more than in JavaScript and queues every other query
 * behind it (docs/performance.md, change 30): there they are written here, as text from the
 * cells (change 40).
 */
export async function recordsJson(db: Db, ids: string[], writer: RecordWriter = databaseKind() === "postgres" ? "sql" : "text"): Promise<string[]> {
  return writer === "sql" ? paymentRecordsJson(db, ids) : paymentRecordsText(db, ids);
}

export async function listPayments(db: Db, business: Business, q: ListPaymentsQuery): Promise<PaymentListPage> {
  const { ids, total } = await queryPayments(
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
    items: await recordsJson(db, ids),
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
