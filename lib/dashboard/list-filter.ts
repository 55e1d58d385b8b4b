import type { PaymentFilter } from "@/db/queries/payment-filter";
import { decimalOf } from "@/lib/money/decimal";
import type { ListPaymentsQuery } from "@/lib/payments/list-query";

/**
 * The list query's filter as the database reads it, exactly as `listPayments`
 * (lib/payments/read.ts) passes it on: the CSV export and the chart narrow by the same filter as
 * the table. test/dashboard/payments.test.ts holds the export's rows equal to the list's pages
 * for every filter, so the two cannot drift apart unnoticed.
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

/** Next's `searchParams` (a value or a list per name) as URLSearchParams, repeats kept in order. */
export function searchParamsOf(record: Record<string, string | string[] | undefined>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of Object.entries(record)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) out.append(name, v);
  }
  return out;
}
