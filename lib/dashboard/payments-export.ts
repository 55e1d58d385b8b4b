import type { Db } from "@/db/client";
import { exportPageIds, type ExportCursor } from "@/db/queries/payments-dashboard";
import { loadPaymentDetails } from "@/db/queries/payments-read";
import type { Business } from "@/db/schema";
import { authorize } from "@/lib/accounts/authorize";
import { Big } from "@/domain/decimal";
import { parseListQuery } from "@/lib/payments/list-query";
import { paymentRecord } from "@/lib/payments/record";
import type { PaymentRecord } from "@/lib/payments/schemas";
import { paymentFilterOf } from "./list-filter";
import { log } from "@/log/logger.mjs";

/*
 * The accounting export (as BTCPay's invoice export): every payment the list's filters select,
 * as CSV (RFC 4180: comma-separated, CRLF line ends, fields with a comma, quote or line break in
 * double quotes, quotes doubled). Rows are the Payment records `paymentRecord` builds, so a
 * figure reads as on the detail page and in the API. Written page by page as the reader takes
 * them: a year of payments is never held in memory, and a reader that stops stops the walk.
 */

/** Payments read per statement while exporting. */
export const EXPORT_PAGE_SIZE = 500;

/** The columns, in order: what each holds is defined by `csvRow`. */
export const CSV_COLUMNS = [
  "id",
  "createdAt",
  "status",
  "completedAt",
  "amount",
  "currency",
  "coin",
  "coinAmount",
  "exchangeRate",
  "endAmount",
  "platformFee",
  "netAmountUsd",
  "customerEmail",
  "name",
  "description",
  "transactionIds",
] as const;

/** A number as plain decimal digits: a spreadsheet may not read `1e-7`. */
function plain(n: number | null | undefined): string {
  return n === null || n === undefined ? "" : new Big(n).toFixed();
}

/**
 * Free text (name, description, the customer's email — typed by the customer) that a spreadsheet
 * would run as a formula (`=`, `+`, `-`, `@`, or a tab or carriage return first) gets a leading
 * apostrophe, OWASP's advice against CSV injection; the rest is as stored.
 */
function text(value: string | null | undefined): string {
  if (value === null || value === undefined) return "";
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** One field, quoted when it must be. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A payment's line: `CSV_COLUMNS`' fields from its record. */
export function csvRow(p: PaymentRecord): string {
  const charge = p.platformCryptoCharge ?? p.contractCharge;
  const completed = p.status === "COMPLETED" ? p.timeline?.findLast((t) => t.paymentStatus === "COMPLETED")?.time : undefined;
  const fields: Record<(typeof CSV_COLUMNS)[number], string> = {
    id: p.id,
    createdAt: p.createdAt,
    status: p.status,
    completedAt: completed ?? "",
    amount: plain(p.prePaymentAmount),
    currency: p.currency ?? "",
    coin: charge?.coinName ?? "",
    coinAmount: plain(charge?.amount),
    exchangeRate: plain(charge?.exchangeRate),
    endAmount: plain(p.endAmount),
    platformFee: plain(p.platformFee),
    netAmountUsd: plain(p.netAmountUsd),
    customerEmail: text(p.customer?.email),
    name: text(p.name),
    description: text(p.description),
    // The on-chain transactions' hashes, as an explorer finds them, separated by spaces.
    transactionIds: (p.platformCryptoCharge?.transactions ?? (charge?.transaction ? [charge.transaction] : [])).map((t) => t.id).join(" "),
  };
  return CSV_COLUMNS.map((c) => csvField(fields[c])).join(",") + "\r\n";
}

/**
 * The export of the payments the URL's filters select (the list API's query; its page number
 * and size are ignored): the membership is checked and the query read before anything is
 * written, so a refusal is an ordinary error response. `lines` yields the header, then one
 * chunk per page of `pageSize` payments, newest first.
 */
export async function exportPayments(
  db: Db,
  userId: string,
  businessId: unknown,
  search: URLSearchParams,
  { pageSize = EXPORT_PAGE_SIZE }: { pageSize?: number } = {},
): Promise<{ business: Business; lines: AsyncGenerator<string, void, undefined> }> {
  const { business } = await authorize(db, userId, businessId, "view");
  const filter = paymentFilterOf(parseListQuery(search));
  async function* lines() {
    yield CSV_COLUMNS.join(",") + "\r\n";
    let cursor: ExportCursor | null = null;
    for (;;) {
      const page = await exportPageIds(db, business, filter, cursor, pageSize);
      if (page.length === 0) return;
      const details = await loadPaymentDetails(db, page.map((r) => r.id));
      yield page.map((r) => csvRow(paymentRecord(details.get(r.id)!))).join("");
      if (page.length < pageSize) return;
      cursor = page.at(-1)!;
    }
  }
  return { business, lines: lines() };
}

/**
 * A byte stream of `chunks`, pulled one at a time as the client reads (back-pressure: the next
 * page is read only when the last one has been taken). A failure after the first bytes can no
 * longer change the status: the stream errors, and the download fails rather than look complete.
 */
export function streamOf(chunks: AsyncGenerator<string, void, undefined>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (e) {
        log.error({ component: "dashboard", err: e }, "CSV export failed");
        controller.error(e);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
